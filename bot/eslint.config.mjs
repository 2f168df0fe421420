// Node programs, not code n8n loads: see ../scripts/eslint/node-programs.mjs.
import { nodeProgramsConfig } from '../scripts/eslint/node-programs.mjs';

export default nodeProgramsConfig();
