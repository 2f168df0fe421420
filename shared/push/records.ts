// Schemas of the pushed records: the core's resource schemas (shared/schemas) for Event, Report and
// CBM result, so pushed and polled records have the same shape; the asset state has no REST
// counterpart and is defined here (assumption P3).
import { z } from 'zod/v4';
import { CbmResult, Event, Report } from '../schemas';
import { int, model } from '../schemas/model';

const onlineValue = z.union([
	z.boolean(),
	z.literal(1).transform(() => true),
	z.literal(0).transform(() => false),
	z
		.string()
		.regex(/^(online|offline|true|false)$/i)
		.transform((s) => /^(online|true)$/i.test(s)),
]);

export const eventSchema = Event;
export const reportSchema = Report;
export const cbmResultSchema = CbmResult;
export const assetStateSchema = model({
	assetId: int,
	online: onlineValue,
	time: z.string().nullish(),
});

export const recordSchemas = {
	AssetEvent: eventSchema,
	AssetState: assetStateSchema,
	AssetReport: reportSchema,
	AssetCBM: z.array(cbmResultSchema),
} as const;
