import { z } from 'zod/v4';
import {
	AssetIdOnlyInput,
	CommissioningDateInput,
	CreateReportInput,
	EventLoggerInput,
	ListEventsInput,
	ParameterBackupInput,
	ParameterBackupsInput,
	ReportDownloadInput,
	TrendSignalDataInput,
} from '../schemas/inputs';
import {
	CbmResult,
	CommissioningDate,
	Condition,
	Event,
	EventLoggerFile,
	ParameterBackupContent,
	ParameterBackupItem,
	Report,
	ReportDownload,
	TrendSignalConfig,
	TrendSignalData,
} from '../schemas/resources';
import { formatUtc } from '../time';
import type { EndpointContext } from './context';

const byAsset = (v: { assetId: number }) => ({ params: { assetid: v.assetId } });

export function assetDataEndpoints(ctx: EndpointContext) {
	return {
		/** E14: events of one window; the API cuts windows over 7 days (use client.ranges.events for longer). */
		listEvents: ctx.endpoint('E14', ListEventsInput, z.array(Event), (v) => ({
			params: { assetid: v.assetId },
			query: { startTime: formatUtc(v.startTime), endTime: formatUtc(v.endTime) },
		})),
		/** E15: temporary (10-minute) links to an event's logger files. Standard and Premium only. */
		getEventLoggerFiles: ctx.endpoint('E15', EventLoggerInput, z.array(EventLoggerFile), (v) => ({
			params: { assetid: v.assetId, eventid: v.eventId },
		})),
		/** E16: the asset's trend and signal parameters (their codes feed E17). */
		getTrendSignalConfig: ctx.endpoint('E16', AssetIdOnlyInput, TrendSignalConfig, byAsset),
		/** E17: series of one window; the API cuts windows over 30 days (use client.ranges.trendSignalData for longer). */
		queryTrendSignalData: ctx.endpoint('E17', TrendSignalDataInput, TrendSignalData, (v) => ({
			body: {
				assetId: v.assetId,
				parameters: v.parameters,
				startTime: formatUtc(v.startTime),
				endTime: formatUtc(v.endTime),
			},
		})),
		/** E18: latest health conditions (filtered by level). */
		getConditions: ctx.endpoint('E18', AssetIdOnlyInput, z.array(Condition), byAsset),
		/** E19: CBM result per device unit. Standard and Premium only. */
		getCbm: ctx.endpoint('E19', AssetIdOnlyInput, z.array(CbmResult), byAsset),
		/** E20: set a component's commissioning date (Fan, IGBT, Capacitor). Standard and Premium only. */
		setCommissioningDate: ctx.endpoint('E20', CommissioningDateInput, CommissioningDate, (v) => ({
			// The spec prints the body field as `commissioningdate` (assumption A1).
			body: {
				assetId: v.assetId,
				deviceUnitType: v.deviceUnitType,
				commissioningdate: formatUtc(v.commissioningDate),
			},
		})),
		/** E21: start a report (interval 7 to 90 days, UTC+8 dates). Never retried blindly. */
		createReport: ctx.endpoint('E21', CreateReportInput, Report, (body) => ({ body })),
		/** E22: the asset's reports of the last 7 days. */
		listReports: ctx.endpoint('E22', AssetIdOnlyInput, z.array(Report), byAsset),
		/** E23: a temporary (10-minute) link to a report file; fetch it with client.files.download. */
		getReportDownload: ctx.endpoint('E23', ReportDownloadInput, ReportDownload, (v) => ({
			params: { assetid: v.assetId, reportid: v.reportId },
		})),
		/** E24: parameter backups in a span of at most 365 days (drives only). */
		listParameterBackups: ctx.endpoint(
			'E24',
			ParameterBackupsInput,
			z.array(ParameterBackupItem),
			(v) => ({
				params: { assetid: v.assetId },
				query: { startUTCTime: formatUtc(v.startTime), endUTCTime: formatUtc(v.endTime) },
			}),
		),
		/** E25: one backup's parameter groups (drives only). */
		getParameterBackup: ctx.endpoint('E25', ParameterBackupInput, ParameterBackupContent, (v) => ({
			params: { assetid: v.assetId, parametersetid: v.parameterSetId },
		})),
	};
}
