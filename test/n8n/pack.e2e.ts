// The pack as n8n sees it after a community-package install: its node and credential types load
// under their production names.
import fs from 'node:fs';
import path from 'node:path';

import { n8nCommand } from '../../scripts/n8n/instance';
import { expectPackLoaded, readState } from './harness';

const state = readState();

describe('the pack installed into n8n as a community package', () => {
  it('is unpacked where n8n installs community packages, without dev or peer dependencies', () => {
    const installed = JSON.parse(fs.readFileSync(path.join(state.pack.directory, 'package.json'), 'utf8'));
    expect(state.pack.directory).toBe(path.join(state.instance.userFolder, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-drive-monitoring'));
    expect(installed.devDependencies).toBeUndefined();
    expect(installed.peerDependencies).toBeUndefined();
    // n8n-workflow comes from n8n itself, never a second copy beside the pack.
    expect(fs.existsSync(path.join(state.pack.directory, 'node_modules', 'n8n-workflow'))).toBe(false);
  });

  it('loads without errors when n8n starts an execution command', async () => {
    // `execute` loads community packages before it looks the workflow up (list and import do not).
    const result = await n8nCommand(state.instance, ['execute', '--id=none'], { allowFailure: true });
    const output = `${result.stdout}\n${result.stderr}`;
    expectPackLoaded(output);
    expect(output).toContain('The workflow with the id "none" does not exist.');
  });
});
