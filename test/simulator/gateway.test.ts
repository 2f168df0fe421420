/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Taking an asset or a whole gateway offline and back, in-process and through the
// command line's --offline option and stdin control lines.
/* eslint-disable @n8n/community-nodes/no-dangerous-functions */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../../simulator';
import { parseCli, runControlLine } from '../../simulator/cli';

const CLI = join(__dirname, '..', '..', 'dist', 'simulator', 'cli.js');
let sim: Simulator;

beforeAll(async () => {
	sim = await startSimulator({ push: false });
});
afterAll(() => sim.close());

function hourlyStates(): Map<number, boolean> {
	const states = new Map<number, boolean>();
	const off = sim.bus.on('state.hourly', (e) =>
		e.states.forEach((s) => states.set(s.assetId, s.online)),
	);
	sim.control.tickHourly();
	off();
	return states;
}

test('a gateway serving five drives goes offline and back as one, in the hourly AssetState', () => {
	const line = sim.fleet
		.assets()
		.filter((a) => a.assetType !== 'PowerTrain')
		.slice(0, 5);
	const serial = sim.control.assignGateway(
		line.map((a) => a.id),
		'N21LINE0003',
	);
	expect(serial).toBe('N21LINE0003');
	expect(sim.control.setGatewayOnline('n21line0003', false).sort()).toEqual(
		line.map((a) => a.id).sort(),
	);
	sim.clock.advance(60_000);
	let states = hourlyStates();
	for (const a of line) expect(states.get(a.id)).toBe(false);
	const others = [...states.entries()].filter(([id]) => !line.some((a) => a.id === id));
	expect(others.some(([, online]) => online)).toBe(true);
	// By asset id: the gateway of that asset, so the whole line again.
	expect(sim.control.setGatewayOnline(line[2].id, true)).toHaveLength(5);
	sim.clock.advance(60_000);
	states = hourlyStates();
	for (const a of line) expect(states.get(a.id)).toBe(true);
	expect(() => sim.control.setGatewayOnline('NO-SUCH-GATEWAY', false)).toThrow(
		/no drive or motor is behind gateway NO-SUCH-GATEWAY/,
	);
});

test('control lines answer in a sentence and never throw', () => {
	const asset = sim.fleet.assets().find((a) => a.assetType === 'Motor') as { id: number };
	expect(runControlLine(sim.control, `offline ${asset.id}`)).toMatch(/^offline: asset/);
	expect(runControlLine(sim.control, `online ${asset.id}`)).toMatch(/^online: asset/);
	expect(runControlLine(sim.control, 'tick-hourly')).toBe('hourly AssetState pushed');
	expect(runControlLine(sim.control, 'offline')).toMatch(
		/needs an asset id or a gateway serial number/,
	);
	expect(runControlLine(sim.control, 'finish-report 999999')).toMatch(
		/report 999999 does not exist/,
	);
	expect(runControlLine(sim.control, 'explode')).toMatch(/unknown control line/);
	expect(parseCli(['--offline', '12', '--offline', 'N21ABC'])).toMatchObject({
		offline: ['12', 'N21ABC'],
	});
});

test('the command line starts with --offline assets and takes control lines on stdin', async () => {
	// Same seed and size as `sim`, so the same fleet.
	const drive = sim.fleet.assets().find((a) => a.assetType === 'Drive') as { id: number };
	const child = spawn(process.execPath, [CLI, '--no-push', '--offline', String(drive.id)], {
		stdio: 'pipe',
	});
	let stderr = '';
	child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
	try {
		await new Promise<void>((resolve, reject) => {
			child.stdout.once('data', () => resolve());
			child.once('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
		});
		child.stdin.write(`online ${drive.id}\n`);
		const deadline = Date.now() + 20_000;
		while (!/online: asset/.test(stderr) && Date.now() < deadline)
			await new Promise((r) => setTimeout(r, 50));
		expect(stderr).toMatch(/offline: asset/);
		expect(stderr).toMatch(/online: asset/);
	} finally {
		child.kill('SIGTERM');
	}
});
