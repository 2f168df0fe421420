import { z } from 'zod/v4';
import { model } from './model';

/** The response envelope of every endpoint: payload, message, success, code. */
export const Envelope = model({
	payload: z.unknown(),
	message: z
		.string()
		.nullish()
		.transform((v) => v ?? null),
	success: z.boolean(),
	code: z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]),
});
export type Envelope = z.infer<typeof Envelope>;
