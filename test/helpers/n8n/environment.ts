/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// n8n-core keeps instance settings (an encryption key, a user folder) on disk. Tests get a
// throw-away folder and a fixed key, set before n8n-core first reads them.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

process.env.N8N_USER_FOLDER ??= mkdtempSync(path.join(tmpdir(), 'dm-n8n-'));
process.env.N8N_ENCRYPTION_KEY ??= 'drive-monitoring-tests-only';
// n8n's logger prints every node error to the console; the tests assert on errors themselves.
process.env.N8N_LOG_LEVEL ??= 'silent';
