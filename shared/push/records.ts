// Schemas of the pushed records. shared/schemas (the core's resource schemas) is not there yet;
// these follow the spec's field tables in camelCase (assumption A1) and keep unknown fields.
import { z } from 'zod/v4';
import { CBM_UNIT_STATUSES, EVENT_STATUSES, EVENT_TYPES, REPORT_STATUSES } from '../spec';

const id = z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]);
const text = z.string().nullish();

export const eventSchema = z
  .object({
    id,
    eventType: z.enum(EVENT_TYPES),
    eventCode: text,
    eventDateTime: z.string(),
    eventStatus: z.enum(EVENT_STATUSES),
    content: text,
    closeReason: text,
    closeAt: text,
    deviceWorkStatus: z.number().int().nullish(),
    isHasEventLogger: z.boolean().nullish(),
  })
  .passthrough();

const onlineValue = z.union([
  z.boolean(),
  z.literal(1).transform(() => true),
  z.literal(0).transform(() => false),
  z
    .string()
    .regex(/^(online|offline|true|false)$/i)
    .transform((s) => /^(online|true)$/i.test(s)),
]);

export const assetStateSchema = z
  .object({
    assetId: id,
    online: onlineValue,
    time: z.string().nullish(),
  })
  .passthrough();

export const reportSchema = z
  .object({
    id,
    title: text,
    subTitle: text,
    reportType: z.string().nullish(),
    startDateTime: text,
    endDateTime: text,
    status: z.enum(REPORT_STATUSES),
    createdOn: text,
    createdUser: text,
  })
  .passthrough();

export const cbmResultSchema = z
  .object({
    deviceUnitType: z.string(),
    deviceUnitStatus: z.enum(CBM_UNIT_STATUSES),
    predictedNoPlanDate: text,
    predictedStartPlanDate: text,
    predictedRunPlanDate: text,
    deviceDayKPIs: z.array(z.object({ date: z.string(), kpi: z.number() }).passthrough()).nullish(),
  })
  .passthrough();

export const recordSchemas = {
  AssetEvent: eventSchema,
  AssetState: assetStateSchema,
  AssetReport: reportSchema,
  AssetCBM: z.array(cbmResultSchema),
} as const;
