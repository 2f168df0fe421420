/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The n8n user folder of the run (database, installed pack, binary data) goes; the logs,
// execution outputs and screenshots under artifacts/n8n/ stay for CI to keep.
import fs from 'node:fs';

import { STATE_FILE, type E2eState } from './harness';

export default async function globalTeardown(): Promise<void> {
	if (!fs.existsSync(STATE_FILE)) return;
	const state = JSON.parse(fs.readFileSync(STATE_FILE, 'utf8')) as E2eState;
	fs.rmSync(state.instance.userFolder, { recursive: true, force: true });
}
