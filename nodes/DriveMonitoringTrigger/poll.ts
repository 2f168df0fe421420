import type { IDataObject, INodeExecutionData, IPollFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import {
	assetStandingRefusal,
	DriveMonitoringApiError,
	type DriveMonitoringClient,
} from '../../shared';
import { drivesAndMotors } from '../../shared/fleet';
import { createNodeClient } from '../DriveMonitoring/transport';
import { parseIdList, passesFilters, readFilters, toItem, type TriggerMessage } from './items';

const MINUTE = 60_000;
/** Least look-back whatever the margin: API times are whole seconds and clocks differ a little. */
const MIN_OVERLAP_MS = MINUTE;

const isoUtc = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * What the node remembers between polls (workflow static data, saved by n8n after each poll).
 * Events: the end of the last window and the keys seen inside the look-back margin, so an event
 * on a window boundary or recorded late is emitted once. Reports, CBM units and conditions: the
 * last status seen, so only changes are emitted. The first poll only takes the baseline.
 */
interface PollState {
	events?: { until: number; seen: Record<string, number> };
	reports?: Record<string, string>;
	cbm?: Record<string, string>;
	conditions?: Record<string, string>;
}

type Watch = 'events' | 'reports' | 'cbm' | 'conditions';

interface PollRun {
	client: DriveMonitoringClient;
	assetIds: number[];
	state: PollState;
	now: number;
	manual: boolean;
	marginMs: number;
}

export async function pollForChanges(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const node = this.getNode();
	const watch = this.getNodeParameter('watch', []) as Watch[];
	if (watch.length === 0)
		throw new NodeOperationError(
			node,
			'Watch is empty: choose at least one of New Events, Report Status, CBM Changes, Condition Changes',
		);
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const includeRaw = options.includeRaw === true;
	const filters = readFilters(this);
	// A poll's deadline is the core's (no setting of the trigger changes it): a deadline error says to try again.
	const client = await createNodeClient.call(this, { coreDeadline: true });
	const state = this.getWorkflowStaticData('node') as PollState;
	const manual = this.getMode() === 'manual';
	const run: PollRun = {
		client,
		assetIds: [],
		state,
		now: Date.now(),
		manual,
		marginMs: Math.max(Number(options.lateMarginMinutes ?? 10) * MINUTE, MIN_OVERLAP_MS),
	};
	const found: TriggerMessage[] = [];
	run.assetIds = await assetsInScope.call(this, client);
	const failure = await (async () => {
		if (watch.includes('events')) found.push(...(await newEvents(run)));
		if (watch.includes('reports')) found.push(...(await reportChanges(run)));
		if (watch.includes('cbm')) found.push(...(await cbmChanges(run)));
		if (watch.includes('conditions')) found.push(...(await conditionChanges(run)));
	})().then(
		() => undefined,
		(error: unknown) => error as Error,
	);
	if (failure) {
		const httpCode =
			failure instanceof DriveMonitoringApiError ? String(failure.httpStatus) : undefined;
		throw new NodeApiError(node, { message: failure.message } as JsonObject, {
			message: failure.message,
			httpCode,
		});
	}
	const items = found.filter((m) => passesFilters(filters, m)).map((m) => toItem(m, includeRaw));
	// A manual run shows one sample, as n8n's polling triggers do.
	const out = manual ? items.slice(-1) : items;
	return out.length > 0 ? [out] : null;
}

async function assetsInScope(
	this: IPollFunctions,
	client: DriveMonitoringClient,
): Promise<number[]> {
	const scope = this.getNodeParameter('scope', 'assets') as string;
	if (scope === 'assets') {
		let ids: number[] = [];
		let problem = 'Asset IDs is empty: list at least one drive or motor ID';
		try {
			ids = parseIdList('Asset IDs', this.getNodeParameter('assetIds', ''));
		} catch (error) {
			problem = (error as Error).message;
		}
		if (ids.length === 0) throw new NodeOperationError(this.getNode(), problem);
		return ids;
	}
	const orgId = this.getNodeParameter('orgId', 0) as number;
	const assets =
		scope === 'assetGroup'
			? await client.organization.listGroupAssets({
					orgId,
					assetGroupId: this.getNodeParameter('assetGroupId', 0) as number,
				})
			: await client.organization.listAssets({ orgId });
	// Asset data exists for drives and motors; a PowerTrain stands for its drive and motor.
	return drivesAndMotors(assets).map((asset) => asset.id);
}

/**
 * Runs `fn` for each asset; an asset refused for its standing (expired subscription, or a level
 * without the function) is left out, so one such asset does not fail the poll of a whole fleet.
 */
async function perAsset<T>(
	run: PollRun,
	fn: (assetId: number) => Promise<T>,
): Promise<Array<[number, T]>> {
	const results = await Promise.all(
		run.assetIds.map(
			async (assetId): Promise<[number, T] | undefined> =>
				await fn(assetId).then(
					(value): [number, T] => [assetId, value],
					(error: unknown) => (assetStandingRefusal(error) ? undefined : Promise.reject(error)),
				),
		),
	);
	return results.filter((r): r is [number, T] => r !== undefined);
}

async function newEvents(run: PollRun): Promise<TriggerMessage[]> {
	const previous = run.state.events;
	const baseline = previous === undefined && !run.manual;
	const from = previous
		? previous.until - run.marginMs
		: run.now - (run.manual ? 24 * 60 * MINUTE : run.marginMs);
	const seen = { ...(previous?.seen ?? {}) };
	const batches = await perAsset(run, (assetId) =>
		run.client.ranges.events({
			assetId,
			startTime: new Date(from),
			endTime: new Date(run.now),
			clip: true,
		}),
	);
	const found: TriggerMessage[] = [];
	for (const [assetId, events] of batches) {
		for (const event of events) {
			const key = `${assetId}:${event.id}`;
			if (seen[key] !== undefined) continue;
			const time = Date.parse(String(event.eventDateTime));
			seen[key] = Number.isNaN(time) ? run.now : time;
			if (!baseline)
				found.push({
					id: `AssetEvent:${key}`,
					dataType: 'AssetEvent',
					assetId,
					time: String(event.eventDateTime),
					record: event,
					raw: event,
				});
		}
	}
	// Keys older than the next window's start can no longer come back: forget them.
	const horizon = run.now - run.marginMs - 1000;
	for (const [key, time] of Object.entries(seen)) if (time < horizon) delete seen[key];
	if (!run.manual) run.state.events = { until: run.now, seen };
	return found.sort((a, b) => a.time.localeCompare(b.time));
}

/** Emits a record when its status differs from the one remembered under its key. */
async function statusChanges<R>(
	run: PollRun,
	slot: 'reports' | 'cbm' | 'conditions',
	fetch: (assetId: number) => Promise<R[]>,
	describe: (assetId: number, record: R) => { key: string; status: string; emit?: boolean },
	toMessage: (assetId: number, record: R, previous: string | undefined) => TriggerMessage,
): Promise<TriggerMessage[]> {
	const previous = run.state[slot];
	const baseline = previous === undefined && !run.manual;
	const next: Record<string, string> = {};
	const found: TriggerMessage[] = [];
	for (const [assetId, records] of await perAsset(run, fetch)) {
		for (const record of records) {
			const { key, status, emit = true } = describe(assetId, record);
			next[key] = status;
			const before = previous?.[key];
			if (!baseline && emit && (run.manual || before !== status))
				found.push(toMessage(assetId, record, before));
		}
	}
	if (!run.manual) run.state[slot] = next;
	return found;
}

function reportChanges(run: PollRun): Promise<TriggerMessage[]> {
	return statusChanges(
		run,
		'reports',
		(assetId) => run.client.assetData.listReports({ assetId }),
		(assetId, report) => ({
			key: `${assetId}:${report.id}`,
			status: String(report.status),
			emit: report.status !== 'Creating',
		}),
		(assetId, report) => ({
			id: `AssetReport:${report.id}:${String(report.status)}`,
			dataType: 'AssetReport',
			assetId,
			time: String(report.createdOn ?? isoUtc(run.now)),
			record: report,
			raw: report,
		}),
	);
}

async function cbmChanges(run: PollRun): Promise<TriggerMessage[]> {
	// One message per asset whose units changed, listing the changed units (shaped as a pushed AssetCBM).
	const units = await statusChanges(
		run,
		'cbm',
		(assetId) => run.client.assetData.getCbm({ assetId }),
		(assetId, unit) => ({
			key: `${assetId}:${String(unit.deviceUnitType)}`,
			status: String(unit.deviceUnitStatus),
		}),
		(assetId, unit) => ({
			id: '',
			dataType: 'AssetCBM',
			assetId,
			time: isoUtc(run.now),
			record: unit,
		}),
	);
	const changedAssets = [...new Set(units.map((u) => u.assetId!))];
	return changedAssets.map((assetId) => {
		const changed = units.filter((u) => u.assetId === assetId).map((u) => u.record);
		return {
			id: `AssetCBM:${assetId}:${isoUtc(run.now)}`,
			dataType: 'AssetCBM',
			assetId,
			time: isoUtc(run.now),
			record: changed,
			raw: changed,
		};
	});
}

function conditionChanges(run: PollRun): Promise<TriggerMessage[]> {
	return statusChanges(
		run,
		'conditions',
		(assetId) => run.client.assetData.getConditions({ assetId }),
		(assetId, condition) => ({
			key: `${assetId}:${String(condition.type)}`,
			status: String(condition.status),
		}),
		(assetId, condition, previous) => ({
			id: `AssetCondition:${assetId}:${String(condition.type)}:${String(condition.status)}:${isoUtc(run.now)}`,
			dataType: 'AssetCondition',
			assetId,
			time: isoUtc(run.now),
			record: { ...condition, previousStatus: previous ?? null },
			raw: condition,
		}),
	);
}
