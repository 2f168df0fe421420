// Report Create (wait until ready, download), Report Download (file and link only) and the
// Data Subscription user's lifecycle, in n8n's engine against the simulator over HTTP.
import { waitFor } from '../bot/helpers';
import { startFixture, type Fixture } from './fixture';

let f: Fixture;
beforeAll(async () => {
	f = await startFixture();
});
afterAll(async () => await f.close());

function utc8Date(offsetDays: number): string {
	return new Date(f.sim.clock.now() + 8 * 3600_000 + offsetDays * 86_400_000)
		.toISOString()
		.slice(0, 10);
}

test('Report Create waits until the report is ready and downloads the PDF; Download gives the same bytes or the link', async () => {
	const assets = f.sim.fleet
		.assets()
		.filter(
			(a) =>
				a.orgId === f.euOrgId &&
				a.assetType === 'Drive' &&
				(a.level === 'Premium' || a.level === 'Standard'),
		)
		.slice(0, 2);
	const input = {
		assetIds: assets.map((a) => a.id),
		startDate: utc8Date(-14),
		endDate: utc8Date(-1),
	};

	const result = await f.engine.run(f.engine.readWorkflow('reports.json'), {
		input: [{ json: input }],
	});
	expect(result.run.data.resultData.error).toBeUndefined();

	const created = result.output('Create Report')!;
	expect(created).toHaveLength(1);
	expect(created[0].json).toMatchObject({
		status: 'Created',
		title: 'Weekly fleet report',
		reportType: 'UserFleetReport',
	});
	// It polled the report list until the report left Creating.
	expect(f.sim.requests.api('E22').length).toBeGreaterThan(0);
	const pdf = created[0].binary!.report;
	expect(pdf.mimeType).toBe('application/pdf');
	expect(pdf.fileName).toMatch(/\.pdf$/);
	const bytes = Buffer.from(pdf.data, 'base64');
	expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

	const downloaded = result.output('Download Report')![0];
	expect(Buffer.from(downloaded.binary!.pdf.data, 'base64').equals(bytes)).toBe(true);
	expect(downloaded.json).toMatchObject({ id: created[0].json.id, status: 'Created' });

	const link = result.output('Report Link Only')![0];
	expect(link.binary).toBeUndefined();
	expect(link.json.fileTemplink).toEqual(expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//));
	expect((await f.direct.files.download(link.json.fileTemplink as string)).data.equals(bytes)).toBe(
		true,
	);
	// The link says when it dies: 10 minutes after it was received.
	const expiresIn = Date.parse(link.json.fileTemplinkExpiresAt as string) - Date.now();
	expect(expiresIn).toBeGreaterThan(8 * 60_000);
	expect(expiresIn).toBeLessThanOrEqual(10 * 60_000);
});

test('Report Create with Download File off gives the link with its expiry', async () => {
	const drive = f.asset((a) => a.assetType === 'Drive' && a.level === 'Premium', 'Premium drive');
	const workflow = f.engine.readWorkflow('reports.json');
	workflow.nodes = workflow.nodes.filter((n) => n.name === 'Start' || n.name === 'Create Report');
	workflow.connections = { Start: { main: [[{ node: 'Create Report', type: 'main', index: 0 }]] } };
	const result = await f.engine.run(workflow, {
		input: [{ json: { assetIds: [drive.id], startDate: utc8Date(-10), endDate: utc8Date(-1) } }],
		parameters: { 'Create Report': { download: false, pollIntervalSeconds: 0.05 } },
	});
	const created = result.output('Create Report')![0];
	expect(created.binary).toBeUndefined();
	expect(created.json.fileTemplink).toEqual(expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//));
	expect(created.json.fileTemplinkExpiresAt).toEqual(
		expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/),
	);
	expect(Date.parse(created.json.fileTemplinkExpiresAt as string) - Date.now()).toBeGreaterThan(
		8 * 60_000,
	);
});

test('Report Create gives up with a clear error when the report is not ready in time', async () => {
	const drive = f.asset((a) => a.assetType === 'Drive' && a.level === 'Premium', 'Premium drive');
	const workflow = f.engine.readWorkflow('reports.json');
	workflow.nodes = workflow.nodes.filter((n) => n.name === 'Start' || n.name === 'Create Report');
	workflow.connections = { Start: { main: [[{ node: 'Create Report', type: 'main', index: 0 }]] } };
	const result = await f.engine.run(workflow, {
		input: [{ json: { assetIds: [drive.id], startDate: utc8Date(-10), endDate: utc8Date(-1) } }],
		// The simulator keeps reports Creating for 300 ms: a 0.1 s timeout cannot see it finish.
		parameters: { 'Create Report': { timeoutSeconds: 0.1, pollIntervalSeconds: 0.05 } },
	});
	const error = result.nodeError('Create Report');
	expect(error?.message).toMatch(/^Report \d+ was not ready within 0\.1 s$/);
	expect(error?.description).toMatch(/Creating.*Timeout/);
});

function createReportOnly() {
	const workflow = f.engine.readWorkflow('reports.json');
	workflow.nodes = workflow.nodes.filter((n) => n.name === 'Start' || n.name === 'Create Report');
	workflow.connections = { Start: { main: [[{ node: 'Create Report', type: 'main', index: 0 }]] } };
	return workflow;
}

test('Report Create holds its timeout: the last list call gets only what is left of it', async () => {
	const drive = f.asset((a) => a.assetType === 'Drive' && a.level === 'Premium', 'Premium drive');
	// The report is ready after 300 ms, but the report list answers after 8 s: a list call that
	// outlived the 1 s timeout would find it Created and succeed.
	f.sim.faults.set({ paths: [/\/assetdata\/\d+\/report$/], latencyMs: 8_000 });
	try {
		const result = await f.engine.run(createReportOnly(), {
			input: [{ json: { assetIds: [drive.id], startDate: utc8Date(-10), endDate: utc8Date(-1) } }],
			parameters: { 'Create Report': { timeoutSeconds: 1, pollIntervalSeconds: 0.2 } },
		});
		const error = result.nodeError('Create Report');
		// Which report, after how long, and what to do, with the field labels the user sees.
		expect(error?.message).toMatch(/^Report \d+ was not ready within 1 s$/);
		expect(error?.description).toMatch(
			/^Its status is still Creating after \d+(\.\d)? s \(Timeout \(Seconds\) is 1\)\. Increase "Timeout \(Seconds\)", or turn off "Wait Until Ready" and download it later with Report > Download\.$/,
		);
		expect(result.output('Create Report')).toBeUndefined();
	} finally {
		f.sim.faults.clear();
	}
});

test('Report Create stops waiting at once when the execution is cancelled, whatever its Poll Interval', async () => {
	const drive = f.asset((a) => a.assetType === 'Drive' && a.level === 'Premium', 'Premium drive');
	const before = f.sim.requests.api('E21').length;
	const listedBefore = f.sim.requests.api('E22').length;
	const cancel = new AbortController();
	// An hour between checks: only the cancellation can end this wait within the test.
	const running = f.engine.run(createReportOnly(), {
		input: [{ json: { assetIds: [drive.id], startDate: utc8Date(-10), endDate: utc8Date(-1) } }],
		parameters: { 'Create Report': { timeoutSeconds: 7200, pollIntervalSeconds: 3600 } },
		cancel: cancel.signal,
	});
	await waitFor(
		'the report request',
		() =>
			f.sim.requests.api('E21').length > before && f.sim.requests.api('E21').at(-1)?.status === 200,
	);
	cancel.abort();
	const result = await running;
	const error = result.nodeError('Create Report');
	expect(error?.message).toMatch(/^Stopped waiting for report \d+: the execution was cancelled$/);
	expect(error?.description).toMatch(
		/still Creating\. The platform goes on generating it: download it later with Report > Download/,
	);
	expect(result.output('Create Report')).toBeUndefined();
	// Cancelled before its first check: the report list was never read.
	expect(f.sim.requests.api('E22').length).toBe(listedBefore);
});

test('Data Subscription: create, get, set data types, reset password, delete; the clear password is shown once', async () => {
	const result = await f.engine.run(f.engine.readWorkflow('data-subscription.json'));
	expect(result.run.data.resultData.error).toBeUndefined();

	const created = result.output('Create User')![0].json;
	expect(created.password).toEqual(expect.any(String));
	expect(created.password).not.toBe('********');
	expect(created.passwordNotice).toMatch(/only time/);

	const listed = result.output('Get User')!.map((i) => i.json);
	expect(listed).toHaveLength(1);
	expect(listed[0]).toMatchObject({ id: created.id, password: '********' });
	expect(listed[0]).not.toHaveProperty('passwordNotice');

	expect(result.output('Set Data Types')![0].json).toMatchObject({
		id: created.id,
		topic: 'plant-alerts',
		subDataTypes: ['AssetEvent', 'AssetReport'],
	});
	const reset = result.output('Reset Password')![0].json;
	expect(reset.password).not.toBe(created.password);
	expect(reset.passwordNotice).toMatch(/only time/);
	expect(result.output('Delete User')![0].json).toEqual({
		success: true,
		subCustomerId: created.id,
		deleted: true,
	});
	expect(await f.direct.dataSubscription.getUsers()).toEqual([]);
});
