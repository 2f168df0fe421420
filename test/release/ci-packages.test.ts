/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// .ci/packages.sh, which .ci/run sources to install Debian's packages for the tests: as root
// directly (this CI), through `sudo -n` for a user with sudo (GitHub's Ubuntu runner), and not at
// all otherwise. `id` and `sudo` are stand-ins on PATH that record what they were asked.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const LIB = path.resolve(__dirname, '../../.ci/packages.sh');
const dirs: string[] = [];
afterAll(() => {
	for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** Runs `script` after sourcing .ci/packages.sh with PATH holding only the given stand-ins. */
async function withStandIns(
	uid: number,
	sudo: boolean,
	script: string,
): Promise<{ out: string; calls: string[] }> {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dm-ci-packages-'));
	dirs.push(dir);
	const calls = path.join(dir, 'calls');
	const standIn = (name: string, body: string) =>
		fs.writeFileSync(path.join(dir, name), `#!/bin/sh\necho "${name} $*" >> ${calls}\n${body}\n`, {
			mode: 0o755,
		});
	standIn('id', `echo ${uid}`);
	// A stand-in for what apt-get would be run as: it only records its arguments.
	standIn('apt-get', 'exit 0');
	standIn('env', 'shift; exec "$@"');
	if (sudo) standIn('sudo', '[ "$1" = -n ] && shift; [ "$1" = true ] && exit 0; exec "$@"');
	const { stdout } = await promisify(execFile)('/bin/bash', ['-c', `source ${LIB}; ${script}`], {
		env: { PATH: dir },
	});
	return {
		out: stdout.trim(),
		calls: fs.existsSync(calls) ? fs.readFileSync(calls, 'utf8').trim().split('\n') : [],
	};
}

test('as root: apt-get runs directly, no sudo', async () => {
	const { out, calls } = await withStandIns(
		0,
		false,
		'can_install && echo can; apt_install mosquitto redis-server',
	);
	expect(out).toBe('can');
	expect(calls.filter((c) => !c.startsWith('id'))).toEqual([
		'apt-get update',
		'env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends mosquitto redis-server',
		'apt-get install -y --no-install-recommends mosquitto redis-server',
	]);
});

test("as a user with passwordless sudo (GitHub's runner): apt-get runs through sudo -n", async () => {
	const { out, calls } = await withStandIns(
		1001,
		true,
		'can_install && echo can; apt_install chromium',
	);
	expect(out).toBe('can');
	expect(calls.filter((c) => !c.startsWith('id'))).toEqual([
		'sudo -n true',
		'sudo -n apt-get update',
		'apt-get update',
		'sudo -n env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium',
		'env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium',
		'apt-get install -y --no-install-recommends chromium',
	]);
});

test('as a user without sudo: nothing is installed', async () => {
	const { out, calls } = await withStandIns(1001, false, 'can_install && echo can || echo cannot');
	expect(out).toBe('cannot');
	expect(calls.filter((c) => !c.startsWith('id'))).toEqual([]);
});
