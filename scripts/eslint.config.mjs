// Node programs, not code n8n loads: see eslint/node-programs.mjs.
import { nodeProgramsConfig } from './eslint/node-programs.mjs';

export default nodeProgramsConfig();
