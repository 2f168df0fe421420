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
import type { EndpointContext, RequestOptions } from './context';

export function assetDataEndpoints(ctx: EndpointContext) {
  return {
    /** E14: events of one window; the API cuts windows over 7 days (use client.ranges.events for longer). */
    async listEvents(input: ListEventsInput, options?: RequestOptions): Promise<Event[]> {
      const v = ctx.validate('E14', ListEventsInput, input);
      return ctx.call(
        'E14',
        z.array(Event),
        { params: { assetid: v.assetId }, query: { startTime: formatUtc(v.startTime), endTime: formatUtc(v.endTime) } },
        options,
      );
    },
    /** E15: temporary (10-minute) links to an event's logger files. Standard and Premium only. */
    async getEventLoggerFiles(input: EventLoggerInput, options?: RequestOptions): Promise<EventLoggerFile[]> {
      const v = ctx.validate('E15', EventLoggerInput, input);
      return ctx.call('E15', z.array(EventLoggerFile), { params: { assetid: v.assetId, eventid: v.eventId } }, options);
    },
    /** E16: the asset's trend and signal parameters (their codes feed E17). */
    async getTrendSignalConfig(input: AssetIdOnlyInput, options?: RequestOptions): Promise<TrendSignalConfig> {
      const v = ctx.validate('E16', AssetIdOnlyInput, input);
      return ctx.call('E16', TrendSignalConfig, { params: { assetid: v.assetId } }, options);
    },
    /** E17: series of one window; the API cuts windows over 30 days (use client.ranges.trendSignalData for longer). */
    async queryTrendSignalData(input: TrendSignalDataInput, options?: RequestOptions): Promise<TrendSignalData> {
      const v = ctx.validate('E17', TrendSignalDataInput, input);
      return ctx.call(
        'E17',
        TrendSignalData,
        { body: { assetId: v.assetId, parameters: v.parameters, startTime: formatUtc(v.startTime), endTime: formatUtc(v.endTime) } },
        options,
      );
    },
    /** E18: latest health conditions (filtered by level). */
    async getConditions(input: AssetIdOnlyInput, options?: RequestOptions): Promise<Condition[]> {
      const v = ctx.validate('E18', AssetIdOnlyInput, input);
      return ctx.call('E18', z.array(Condition), { params: { assetid: v.assetId } }, options);
    },
    /** E19: CBM result per device unit. Standard and Premium only. */
    async getCbm(input: AssetIdOnlyInput, options?: RequestOptions): Promise<CbmResult[]> {
      const v = ctx.validate('E19', AssetIdOnlyInput, input);
      return ctx.call('E19', z.array(CbmResult), { params: { assetid: v.assetId } }, options);
    },
    /** E20: set a component's commissioning date (Fan, IGBT, Capacitor). Standard and Premium only. */
    async setCommissioningDate(input: CommissioningDateInput, options?: RequestOptions): Promise<CommissioningDate> {
      const v = ctx.validate('E20', CommissioningDateInput, input);
      // The spec prints the body field as `commissioningdate` (assumption A1).
      return ctx.call(
        'E20',
        CommissioningDate,
        { body: { assetId: v.assetId, deviceUnitType: v.deviceUnitType, commissioningdate: formatUtc(v.commissioningDate) } },
        options,
      );
    },
    /** E21: start a report (interval 7 to 90 days, UTC+8 dates). Never retried blindly. */
    async createReport(input: CreateReportInput, options?: RequestOptions): Promise<Report> {
      const body = ctx.validate('E21', CreateReportInput, input);
      return ctx.call('E21', Report, { body }, options);
    },
    /** E22: the asset's reports of the last 7 days. */
    async listReports(input: AssetIdOnlyInput, options?: RequestOptions): Promise<Report[]> {
      const v = ctx.validate('E22', AssetIdOnlyInput, input);
      return ctx.call('E22', z.array(Report), { params: { assetid: v.assetId } }, options);
    },
    /** E23: a temporary (10-minute) link to a report file; fetch it with client.files.download. */
    async getReportDownload(input: ReportDownloadInput, options?: RequestOptions): Promise<ReportDownload> {
      const v = ctx.validate('E23', ReportDownloadInput, input);
      return ctx.call('E23', ReportDownload, { params: { assetid: v.assetId, reportid: v.reportId } }, options);
    },
    /** E24: parameter backups in a span of at most 365 days (drives only). */
    async listParameterBackups(input: ParameterBackupsInput, options?: RequestOptions): Promise<ParameterBackupItem[]> {
      const v = ctx.validate('E24', ParameterBackupsInput, input);
      return ctx.call(
        'E24',
        z.array(ParameterBackupItem),
        { params: { assetid: v.assetId }, query: { startUTCTime: formatUtc(v.startTime), endUTCTime: formatUtc(v.endTime) } },
        options,
      );
    },
    /** E25: one backup's parameter groups (drives only). */
    async getParameterBackup(input: ParameterBackupInput, options?: RequestOptions): Promise<ParameterBackupContent> {
      const v = ctx.validate('E25', ParameterBackupInput, input);
      return ctx.call('E25', ParameterBackupContent, { params: { assetid: v.assetId, parametersetid: v.parameterSetId } }, options);
    },
  };
}
