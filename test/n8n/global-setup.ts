// Once per `npm run test:n8n`: n8n from the cache (installed the first time), the freshly built
// package packed and installed into a new n8n user folder as n8n's installer does.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { installPack, packRepository } from '../../scripts/n8n/install-pack';
import { ensureN8nRuntime } from '../../scripts/n8n/runtime';
import { ARTIFACTS, STATE_FILE, type E2eState } from './harness';

export default async function globalSetup(): Promise<void> {
  const started = Date.now();
  fs.rmSync(ARTIFACTS, { recursive: true, force: true });
  fs.mkdirSync(ARTIFACTS, { recursive: true });

  const runtime = await ensureN8nRuntime((line) => console.log(`\n[test:n8n] ${line}`));
  const runtimeReady = Date.now();

  const userFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-e2e-'));
  const tarball = await packRepository(path.join(userFolder, 'pack'));
  const pack = await installPack(tarball, userFolder);

  const state: E2eState = {
    instance: { runtime, userFolder, encryptionKey: crypto.randomBytes(24).toString('hex') },
    pack,
    timings: { runtimeMs: runtimeReady - started, packInstallMs: Date.now() - runtimeReady },
  };
  fs.writeFileSync(STATE_FILE, JSON.stringify(state, null, 2));
  console.log(
    `[test:n8n] n8n ready in ${state.timings.runtimeMs} ms; ${pack.name}@${pack.version} ` +
      `(${Math.round(pack.tarballBytes / 1024)} KiB packed) installed in ${state.timings.packInstallMs} ms`,
  );
}
