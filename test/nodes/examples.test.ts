/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// The importable workflows in examples/: production node type names, our credential type, and
// each one run in n8n's engine against the simulator with the choices a user makes after import
// (credential, organization, assets). n8n-nodes-base nodes are recording stand-ins.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { INode } from 'n8n-workflow';
import { baseNodeStandIns } from '../helpers/n8n/base-nodes';
import type { WorkflowJson } from '../helpers/n8n/engine';
import { REPO_ROOT } from '../helpers/n8n/package';
import { NODE_TYPE, startFixture, type Fixture } from './fixture';

const EXAMPLES = path.join(REPO_ROOT, 'examples');

let f: Fixture;
beforeAll(async () => {
	f = await startFixture();
	f.engine.addNodeTypes(baseNodeStandIns);
});
afterAll(async () => await f.close());

function example(file: string): WorkflowJson {
	const workflow = JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8')) as WorkflowJson;
	for (const node of workflow.nodes.filter((n) => n.type === NODE_TYPE)) {
		node.credentials = { driveMonitoringApi: { id: 'eu', name: 'Drive Monitoring (end user)' } };
	}
	return workflow;
}

const pick = (id: number) => ({ __rl: true, mode: 'list', value: String(id) });

test('every example uses the published node type and credential names', () => {
	const files = readdirSync(EXAMPLES).filter((file) => file.endsWith('.json'));
	expect(files.sort()).toEqual([
		'cbm-results-to-spreadsheet.json',
		'new-faults-to-chat.json',
		'weekly-fleet-report.json',
	]);
	for (const file of files) {
		const nodes = (JSON.parse(readFileSync(path.join(EXAMPLES, file), 'utf8')) as WorkflowJson)
			.nodes as INode[];
		const ours = nodes.filter((n) => n.type.startsWith('n8n-nodes-drive-monitoring.'));
		expect(ours.length).toBeGreaterThan(0);
		for (const node of ours) {
			expect(node.type).toBe(NODE_TYPE);
			expect(Object.keys(node.credentials ?? {})).toEqual(['driveMonitoringApi']);
		}
	}
});

test('new faults to a chat message: a fault raised on a drive becomes one Slack message', async () => {
	const drive = f.asset((a) => a.assetType === 'Drive' && a.level === 'Premium', 'Premium drive');
	f.sim.control.raiseEvent(drive.id, {
		eventType: 'Fault',
		eventCode: '2310',
		content: 'Overcurrent',
	});
	f.sim.control.raiseEvent(drive.id, {
		eventType: 'Warning',
		eventCode: 'A2B1',
		content: 'Overcurrent warning',
	});
	// Event times have whole seconds and the window ends at $now: let the raised events' second pass.
	await new Promise((resolve) => setTimeout(resolve, 1100));
	const result = await f.engine.run(example('new-faults-to-chat.json'), {
		parameters: { 'Drives and Motors': { organization: pick(f.euOrgId) } },
	});
	expect(result.run.data.resultData.error).toBeUndefined();
	const messages = result.output('Post to Slack')!.map((i) => i.json);
	expect(messages).toContainEqual({
		channel: '#maintenance',
		text: expect.stringContaining(
			`*Fault 2310* on *${drive.name}* (${drive.serialNumber})\nOvercurrent\nSince `,
		),
	});
	// Open faults of the last five minutes already in the seeded history are posted too; warnings never.
	expect(
		messages.every((m) => /^:rotating_light: \*Fault \S+\* on \*[^*]+\* \(/.test(m.text as string)),
	).toBe(true);
	expect(messages.some((m) => (m.text as string).includes('A2B1'))).toBe(false);
});

test('weekly fleet report: created, waited for, downloaded and attached to the email', async () => {
	const fleet = f.sim.fleet
		.assets()
		.filter(
			(a) =>
				a.orgId === f.euOrgId &&
				a.assetType === 'Drive' &&
				['Basic', 'Standard', 'Premium'].includes(a.level),
		)
		.filter((a) => Date.parse(a.createdOn) < f.sim.clock.now() - 30 * 86_400_000)
		.slice(0, 3);
	const result = await f.engine.run(example('weekly-fleet-report.json'), {
		parameters: {
			'Create Fleet Report': { assetIds: fleet.map((a) => a.id), pollIntervalSeconds: 0.2 },
		},
	});
	expect(result.run.data.resultData.error).toBeUndefined();
	const [email] = result.output('Email the Report')!;
	expect(email.json).toMatchObject({ to: 'plant-managers@example.com', attachments: ['data'] });
	expect(email.json.subject).toMatch(/^Fleet report \d{4}-\d{2}-\d{2}/);
	expect(email.binary!.data.mimeType).toBe('application/pdf');
	expect(Buffer.from(email.binary!.data.data, 'base64').subarray(0, 5).toString('latin1')).toBe(
		'%PDF-',
	);
});

test('CBM results as spreadsheet rows: one row per component of every drive with CBM, named', async () => {
	const result = await f.engine.run(example('cbm-results-to-spreadsheet.json'), {
		parameters: { Drives: { organization: pick(f.euOrgId) } },
	});
	expect(result.run.data.resultData.error).toBeUndefined();
	const drives = f.sim.fleet
		.assets()
		.filter((a) => a.orgId === f.euOrgId && a.assetType === 'Drive');
	const withCbm = drives.filter(
		(a) => a.cbmCapable && (a.level === 'Standard' || a.level === 'Premium'),
	);
	const [sheet] = result.output('Convert to Excel')!;
	const rows = sheet.json.rows as Array<Record<string, unknown>>;
	expect(rows).toHaveLength(withCbm.length * 3);
	expect(new Set(rows.map((r) => r.assetId))).toEqual(new Set(withCbm.map((a) => a.id)));
	for (const row of rows) {
		const drive = withCbm.find((a) => a.id === row.assetId)!;
		expect(row).toMatchObject({
			assetName: drive.name,
			serialNumber: drive.serialNumber,
			latestKpi: expect.any(Number),
		});
		expect(['Fan', 'Capacitor', 'IGBT']).toContain(row.deviceUnitType);
		expect(row).not.toHaveProperty('deviceDayKPIs');
	}
	// Drives without CBM went to the error output instead of failing the run.
	const skipped = result.run.data.resultData.runData['CBM Results'][0].data!.main[1]!;
	expect(skipped).toHaveLength(drives.length - withCbm.length);
});
