// n8n.ts is pack code (n8n's template rules); node.ts installs Node's timers and undici for
// Node programs and is never in the pack (scripts/pack.js checks). See scripts/eslint/node-programs.mjs.
import { packFolderConfig } from '../../scripts/eslint/node-programs.mjs';

export default await packFolderConfig(['node.ts']);
