/** The spec's error table ("Errors"): every code the platform answers with, and its meaning. */
export const ERROR_CODES = {
	100200: 'success',
	100400: 'parameter error',
	100403: 'operation forbidden',
	101201: 'organization does not exist',
	101202: 'served customer organization does not exist',
	101401: 'operation on this organization forbidden',
	102201: 'asset does not exist',
	102202: 'asset type not yet supported',
	102203: 'asset already exists',
	102204: 'asset not found in the upstream device registry',
	102205: 'asset subscription expired',
	102401: 'operation on this asset forbidden',
	102403: 'subscription level does not allow more history or forbids this asset function',
	103201: 'asset group does not exist',
	103401: 'operation on this asset group forbidden',
	104201: 'plant does not exist',
	104401: 'operation on this plant forbidden',
	105201: 'subscription code does not exist',
	105202: 'subscription code expired',
	105203: 'subscription code does not match the asset type',
	105204: 'subscription code already used',
	105205: 'subscription code level does not match the asset type',
	106201: 'data-subscription user does not exist',
	107201: 'asset report does not exist',
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export const SUCCESS_CODE = 100200;

/** Not in the spec's table: the code of a 401 answer (assumption A4). */
export const UNAUTHORIZED_CODE = 100401;

export function errorMeaning(code: number): string | undefined {
	return (ERROR_CODES as Record<number, string>)[code];
}

/** Assumption A3: codes ending in 401 or 403 are HTTP 403, every other failure code HTTP 400. */
export function httpStatusOfCode(code: number): number {
	if (code === SUCCESS_CODE) return 200;
	if (code === UNAUTHORIZED_CODE) return 401;
	const tail = code % 1000;
	return tail === 401 || tail === 403 ? 403 : 400;
}
