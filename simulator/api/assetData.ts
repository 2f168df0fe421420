import { DEVICE_UNIT_TYPES, LEVEL_FEATURES, LIMITS, REPORT_TYPES } from '../../shared/spec';
import { eventPayload, loggerIdOf } from '../data/events';
import { unitTypeOfNumber } from '../data/health';
import { isCbmCapable, type AssetRec } from '../fleet/model';
import { ApiError } from '../http/envelope';
import { describe, pathInt, toInteger, type Fields } from '../http/fields';
import { reportPayload } from '../platform';
import { DAY, isoUtc, parseInstant, parseUtc8Date, utc8DateTime } from '../time';
import {
	requireAsset,
	requireAssetData,
	requireDrive,
	type ApiContext,
	type Handler,
} from './context';

/** A required ISO 8601 instant field, or 100400 naming it. */
function instant(fields: Fields, name: string): number {
	const ms = parseInstant(fields.get(name));
	if (Number.isNaN(ms))
		fields.fail(
			name,
			fields.get(name) === undefined
				? 'is required'
				: 'must be an ISO 8601 UTC date-time such as 2026-11-01T00:00:00Z',
		);
	return ms;
}

/** start/end of a query: ordered, history within the level's range, and cut to the window. */
function window(
	ctx: ApiContext,
	fields: Fields,
	names: [string, string],
	historyDays: number,
	maxDays: number,
): [number, number] {
	const start = instant(fields, names[0]);
	const end = instant(fields, names[1]);
	if (end < start) fields.fail(names[1], `must not be before ${names[0]} (${isoUtc(start)})`);
	const earliest = ctx.platform.now() - historyDays * DAY;
	if (start < earliest) {
		throw new ApiError(
			102403,
			`${names[0]} ${isoUtc(start)} is more than ${historyDays} days back; the asset's level allows history from ${isoUtc(earliest)}`,
		);
	}
	// The spec: a longer interval is cut to start plus the maximum.
	return [start, Math.min(end, start + maxDays * DAY)];
}

const listEvents: Handler = (ctx) => {
	const { asset, level } = requireAssetData(ctx, pathInt(ctx.params, 'assetid'));
	const [start, end] = window(
		ctx,
		ctx.query,
		['startTime', 'endTime'],
		LEVEL_FEATURES[level].eventHistoryDays,
		LIMITS.eventWindowDays,
	);
	return ctx.platform.events.list(asset, start, end).map(eventPayload);
};

const getEventLoggerFiles: Handler = (ctx) => {
	const { asset } = requireAssetData(
		ctx,
		pathInt(ctx.params, 'assetid'),
		(f) => f.eventLoggerFile,
		'the event logger file',
	);
	const eventId = pathInt(ctx.params, 'eventid');
	const event = ctx.platform.events.find(asset, eventId);
	if (!event)
		throw new ApiError(
			100400,
			`path parameter 'eventid' ${eventId} is not an event of asset ${asset.id}`,
		);
	if (!event.hasLogger) return [];
	return [
		{
			loggerId: loggerIdOf(ctx.platform.seed, event.id),
			loggerFile: ctx.platform.links.sign(
				`/files/eventlogger/${asset.id}/${event.id}/event-${event.id}-logger.csv`,
			),
		},
	];
};

const getTrendSignalConfig: Handler = (ctx) => {
	const { asset } = requireAssetData(ctx, pathInt(ctx.params, 'assetid'));
	return ctx.platform.series.config(asset);
};

const queryTrendSignalData: Handler = (ctx) => {
	const { asset, level } = requireAssetData(ctx, ctx.body.int('assetId'));
	const codes = ctx.body.list('parameters');
	if (codes.length === 0) ctx.body.fail('parameters', 'must name at least one config Code (E16)');
	const configs = codes.map((code) => {
		const config =
			typeof code === 'string' ? ctx.platform.series.findParam(asset, code) : undefined;
		return (
			config ??
			ctx.body.fail(
				'parameters',
				`holds ${describe(code)}, which is not a trend or signal Code of asset ${asset.id} (E16 lists them)`,
				codes,
			)
		);
	});
	const [start, end] = window(
		ctx,
		ctx.body,
		['startTime', 'endTime'],
		LEVEL_FEATURES[level].trendSignalHistoryDays,
		LIMITS.trendSignalWindowDays,
	);
	const now = ctx.platform.now();
	return {
		paramDatas: configs.map((config) => ctx.platform.series.query(asset, config, start, end, now)),
	};
};

const getConditions: Handler = (ctx) => {
	const { asset, level } = requireAssetData(ctx, pathInt(ctx.params, 'assetid'));
	return ctx.platform.health.conditions(
		asset,
		ctx.platform.now(),
		LEVEL_FEATURES[level].healthConditions,
	);
};

function requireCbmAsset(ctx: ApiContext, assetId: number): AssetRec {
	const { asset } = requireAssetData(ctx, assetId, (f) => f.cbm, 'CBM analysis');
	if (!isCbmCapable(asset))
		throw new ApiError(
			102202,
			`CBM analysis supports drives of the ACS880 and ACS580 families; asset ${asset.id} is a ${asset.assetType} ${asset.modelType}`,
		);
	return asset;
}

const getCbm: Handler = (ctx) =>
	ctx.platform.health.cbm(requireCbmAsset(ctx, pathInt(ctx.params, 'assetid')), ctx.platform.now());

const setCommissioningDate: Handler = (ctx) => {
	const assetId = ctx.body.int('assetId');
	const unitNumber = ctx.body.int('deviceUnitType');
	const unitType =
		unitTypeOfNumber(unitNumber) ??
		ctx.body.fail(
			'deviceUnitType',
			`must be one of ${Object.entries(DEVICE_UNIT_TYPES)
				.map(([k, v]) => `${v} (${k})`)
				.join(', ')}`,
		);
	const at = instant(ctx.body, 'commissioningdate');
	if (at > ctx.platform.now()) ctx.body.fail('commissioningdate', 'must not be in the future');
	const asset = requireCbmAsset(ctx, assetId);
	ctx.platform.health.setCommissioningDate(asset.id, unitType, at);
	return {
		assetId: asset.id,
		deviceUnitType: unitNumber,
		commissioningdate: ctx.body.get('commissioningdate'),
	};
};

const createReport: Handler = (ctx) => {
	const { body, platform } = ctx;
	const ids = body.list('assetIds').map((v) => toInteger(v));
	if (ids.length === 0 || ids.some((v) => v === undefined))
		body.fail('assetIds', 'must be a non-empty list of integer asset ids');
	const title = body.string('title', { max: LIMITS.reportTitleMax });
	const subTitle = body.string('subTitle', { max: LIMITS.reportSubTitleMax, allowEmpty: true });
	const typeNumber = body.int('reportType');
	const reportType =
		(Object.keys(REPORT_TYPES) as Array<keyof typeof REPORT_TYPES>).find(
			(k) => REPORT_TYPES[k] === typeNumber,
		) ?? body.fail('reportType', 'must be 1 (UserDriveReport) or 2 (UserFleetReport)');
	const assetIds = [...new Set(ids as number[])];
	if (reportType === 'UserDriveReport' && assetIds.length !== 1)
		body.fail('assetIds', 'must hold exactly one asset for a UserDriveReport (reportType 1)');
	const start = parseUtc8Date(body.get('startDateTime'));
	const end = parseUtc8Date(body.get('endDateTime'));
	const rule = 'must be a UTC+8 date such as 2026-11-01 (assumption A5)';
	if (Number.isNaN(start)) body.fail('startDateTime', rule);
	if (Number.isNaN(end)) body.fail('endDateTime', rule);
	const days = (end - start) / DAY;
	if (days < LIMITS.reportIntervalMinDays || days > LIMITS.reportIntervalMaxDays) {
		body.fail(
			'endDateTime',
			`must be ${LIMITS.reportIntervalMinDays} to ${LIMITS.reportIntervalMaxDays} days after startDateTime (the interval is ${Math.round(days * 10) / 10} days)`,
		);
	}
	const now = platform.now();
	if (start > now) body.fail('startDateTime', 'must not be in the future');
	for (const id of assetIds) {
		const { asset } = requireAssetData(ctx, id, (f) => f.reports, 'reports');
		if (now - asset.createdOn < LIMITS.reportMinAssetAgeDays * DAY) {
			body.fail(
				'assetIds',
				`holds asset ${id}, added ${isoUtc(asset.createdOn)}; an asset can be reported ${LIMITS.reportMinAssetAgeDays} days after it was added`,
				assetIds,
			);
		}
	}
	const report = {
		id: platform.data.ids.report++,
		orgId: ctx.caller.id,
		assetIds,
		title,
		subTitle,
		reportType,
		start,
		end,
		status: 'Creating' as const,
		createdOn: now,
		createdUser: ctx.caller.adminUserName,
		readyAt: now + platform.reportGenerationMs,
		failReason: null,
	};
	platform.data.reports.set(report.id, report);
	return reportPayload(report);
};

const listReports: Handler = (ctx) => {
	const { asset } = requireAssetData(
		ctx,
		pathInt(ctx.params, 'assetid'),
		(f) => f.reports,
		'reports',
	);
	const since = ctx.platform.now() - LIMITS.reportListingDays * DAY;
	return [...ctx.platform.data.reports.values()]
		.filter((r) => r.assetIds.includes(asset.id) && r.createdOn >= since)
		.sort((a, b) => b.createdOn - a.createdOn)
		.map(reportPayload);
};

const downloadReport: Handler = (ctx) => {
	const { asset } = requireAssetData(
		ctx,
		pathInt(ctx.params, 'assetid'),
		(f) => f.reports,
		'reports',
	);
	const reportId = pathInt(ctx.params, 'reportid');
	const report = ctx.platform.data.reports.get(reportId);
	if (!report || !report.assetIds.includes(asset.id))
		throw new ApiError(107201, `report ${reportId} of asset ${asset.id}`);
	return {
		id: report.id,
		fileTemplink:
			report.status === 'Created'
				? ctx.platform.links.sign(`/files/report/${report.id}/report-${report.id}.pdf`)
				: null,
		status: report.status,
	};
};

const listBackups: Handler = (ctx) => {
	const asset = requireAsset(ctx, pathInt(ctx.params, 'assetid'));
	requireDrive(asset, 'parameter backups');
	const start = instant(ctx.query, 'startUTCTime');
	const end = instant(ctx.query, 'endUTCTime');
	if (end < start) ctx.query.fail('endUTCTime', 'must not be before startUTCTime');
	if (end - start > LIMITS.parameterBackupSpanDays * DAY)
		ctx.query.fail(
			'endUTCTime',
			`must be at most ${LIMITS.parameterBackupSpanDays} days after startUTCTime`,
		);
	return ctx.platform.backups
		.list(asset, start, end, ctx.platform.now())
		.map((b) => ({ id: b.id, backupTime: utc8DateTime(b.time), name: b.name }));
};

const getBackup: Handler = (ctx) => {
	const asset = requireAsset(ctx, pathInt(ctx.params, 'assetid'));
	requireDrive(asset, 'parameter backups');
	const id = ctx.params.parametersetid;
	const item = ctx.platform.backups.find(asset, id, ctx.platform.now());
	if (!item)
		throw new ApiError(
			100400,
			`path parameter 'parametersetid' ${describe(id)} is not a parameter backup of asset ${asset.id} (E24 lists them)`,
		);
	return ctx.platform.backups.content(asset, item);
};

export const assetDataHandlers = {
	E14: listEvents,
	E15: getEventLoggerFiles,
	E16: getTrendSignalConfig,
	E17: queryTrendSignalData,
	E18: getConditions,
	E19: getCbm,
	E20: setCommissioningDate,
	E21: createReport,
	E22: listReports,
	E23: downloadReport,
	E24: listBackups,
	E25: getBackup,
} satisfies Record<string, Handler>;
