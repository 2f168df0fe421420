// Every node field that has a limit: a value past it is refused before any request, and the
// error names the field as the node shows it (its label), never the core's name for it or an
// endpoint number.
import type { INodeParameters } from 'n8n-workflow';
import { startFixture, type Fixture } from './fixture';

let f: Fixture;
beforeAll(async () => {
	f = await startFixture();
});
afterAll(async () => await f.close());

const rl = (value: string | number) => ({ __rl: true, mode: 'id', value });
const DAY = 86_400_000;
const fromInput = '={{ $json.value }}';

interface Case {
	parameters: () => INodeParameters;
	value: unknown;
	label: string;
	rule: RegExp;
	/** The core's own name for the field, which must not show. */
	coreName?: string;
}

const basicDrive = () =>
	f.asset((a) => a.assetType === 'Drive' && a.level === 'Basic', 'Basic drive');
const createDrive = (overrides: INodeParameters): INodeParameters => ({
	resource: 'asset',
	operation: 'createDrive',
	name: 'Pump 9',
	serialNumber: 'SN-9',
	assetGroup: rl(1),
	plant: rl(1),
	gatewayType: 'NETA21',
	gatewaySerialNumber: 'N21-1',
	deviceNodeId: '2',
	...overrides,
});
const report = (overrides: INodeParameters): INodeParameters => ({
	resource: 'report',
	operation: 'create',
	reportType: 'UserDriveReport',
	asset: rl(100029),
	title: 'Monthly',
	subTitle: '',
	startDate: '2026-10-01',
	endDate: '2026-10-20',
	waitUntilReady: false,
	...overrides,
});
const past = (days: number) => new Date(f.sim.clock.now() - days * DAY).toISOString();

const cases: Record<string, Case> = {
	'Asset Group > Create: Name (20 characters)': {
		parameters: () => ({
			resource: 'assetGroup',
			operation: 'create',
			organization: rl(13),
			name: fromInput,
		}),
		value: 'G'.repeat(21),
		label: 'Name',
		rule: /^Name must be at most 20 characters$/,
	},
	'Asset > Rename: New Name (30 characters)': {
		parameters: () => ({
			resource: 'asset',
			operation: 'rename',
			asset: rl(100029),
			newName: fromInput,
		}),
		value: 'N'.repeat(31),
		label: 'New Name',
		rule: /^New Name must be at most 30 characters$/,
	},
	'Asset > Create Drive: Name (30 characters)': {
		parameters: () => createDrive({ name: fromInput }),
		value: 'N'.repeat(31),
		label: 'Name',
		rule: /^Name must be at most 30 characters$/,
	},
	'Asset > Create Drive: Serial Number (30 characters)': {
		parameters: () => createDrive({ serialNumber: fromInput }),
		value: 'S'.repeat(31),
		label: 'Serial Number',
		rule: /^Serial Number must be at most 30 characters$/,
		coreName: 'serialNumber',
	},
	'Asset > Create Drive: Device Node ID (numeral form)': {
		parameters: () => createDrive({ deviceNodeId: fromInput }),
		value: 'x1',
		label: 'Device Node ID',
		rule: /^Device Node ID.*numeral/,
		coreName: 'assetReference',
	},
	'Report > Create: Title (50 characters)': {
		parameters: () => report({ title: fromInput }),
		value: 'T'.repeat(51),
		label: 'Title',
		rule: /^Title must be at most 50 characters$/,
	},
	'Report > Create: Subtitle (50 characters)': {
		parameters: () => report({ subTitle: fromInput }),
		value: 'S'.repeat(51),
		label: 'Subtitle',
		rule: /^Subtitle must be at most 50 characters$/,
		coreName: 'subTitle',
	},
	'Report > Create: End Date (7 to 90 days after Start Date)': {
		parameters: () => report({ endDate: fromInput }),
		value: '2026-10-03',
		label: 'End Date',
		rule: /^End Date: the report interval must be 7 to 90 days/,
		coreName: 'endDate',
	},
	'Event > Get Many: Start Time (history of the level)': {
		parameters: () => ({
			resource: 'event',
			operation: 'getMany',
			asset: rl(basicDrive().id),
			startTime: fromInput,
			endTime: past(0),
			returnAll: true,
			filters: {},
			options: {},
		}),
		value: '',
		label: 'Start Time',
		rule: /^Start Time: reaches before the history range of a Basic asset: Event history goes back 90 days.* Start at \S+ or later$/,
		coreName: 'clip',
	},
	'Trend and Signal > Get Data: Start Time (history of the level)': {
		parameters: () => ({
			resource: 'trendSignal',
			operation: 'getData',
			asset: rl(basicDrive().id),
			parameters: ['01.01'],
			startTime: fromInput,
			endTime: past(0),
			output: 'point',
			simplify: true,
			options: {},
		}),
		value: '',
		label: 'Start Time',
		rule: /^Start Time: reaches before the history range of a Basic asset: Trend and signal history goes back 90 days/,
		coreName: 'startTime',
	},
	'Parameter Backup > Get Many: End Time (span of 365 days)': {
		parameters: () => ({
			resource: 'parameterBackup',
			operation: 'getMany',
			asset: rl(basicDrive().id),
			startTime: past(400),
			endTime: fromInput,
		}),
		value: '',
		label: 'End Time',
		rule: /^End Time: the backup span is at most 365 days$/,
		coreName: 'endTime',
	},
	'CBM > Set Commissioning Date: Commissioning Date (not in the future)': {
		parameters: () => ({
			resource: 'cbm',
			operation: 'setCommissioningDate',
			asset: rl(100029),
			deviceUnitType: 'Fan',
			commissioningDate: fromInput,
		}),
		value: '',
		label: 'Commissioning Date',
		rule: /^Commissioning Date must not be in the future/,
		coreName: 'commissioningDate',
	},
};

/** Values that depend on the simulator's clock, filled in when the case runs. */
function valueOf(name: string, value: unknown): unknown {
	if (name.includes('Start Time (history')) return past(200);
	if (name.includes('span of 365 days')) return past(0);
	if (name.includes('not in the future')) return new Date(Date.now() + 30 * DAY).toISOString();
	return value;
}

test.each(Object.keys(cases))('%s', async (name) => {
	const c = cases[name];
	const workflow = f.engine.readWorkflow('single-operation.json');
	const before = f.sim.requests.api().filter((r) => r.endpoint !== 'E9').length;
	const result = await f.engine.run(workflow, {
		input: [{ json: { value: valueOf(name, c.value) as never } }],
		parameters: { 'Drive Monitoring': c.parameters() },
	});
	const error = result.nodeError('Drive Monitoring') as
		| (Error & { description?: string })
		| undefined;
	expect(error?.name).toBe('NodeOperationError');
	expect(error!.message).toMatch(c.rule);
	expect(error!.description).toMatch(
		new RegExp(`Nothing was sent to the platform: correct "${c.label}" and run again\\.$`),
	);
	for (const text of [error!.message, error!.description!]) {
		expect(text).not.toMatch(/\bE\d{1,2}\b/);
		if (c.coreName) expect(text).not.toContain(c.coreName);
	}
	// Refused before any data request (the level read for a history check is allowed).
	expect(f.sim.requests.api().filter((r) => r.endpoint !== 'E9')).toHaveLength(before);
});
