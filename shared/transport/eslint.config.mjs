// undici.ts is the Node programs' HTTP client, never in the pack (scripts/pack.js checks); the
// rest of this folder is pack code under n8n's template rules. See scripts/eslint/node-programs.mjs.
import { packFolderConfig } from '../../scripts/eslint/node-programs.mjs';

export default await packFolderConfig(['undici.ts']);
