import type { Random } from '../../random';
import type { CodeRec, FleetData } from '../model';

/**
 * One seeding pass: the random stream every draw comes from, the fleet seeded so far, and the
 * simulated time it is seeded at. Draws are taken in a fixed order: the same seed gives the same
 * ids, names, serial numbers, codes and times.
 */
export interface Seeding {
	rnd: Random;
	data: FleetData;
	origin: number;
}

/** A serial number: the prefix and eight digits. */
export function serialNumber(rnd: Random, prefix: string): string {
	return `${prefix}${String(rnd.int(0, 99999999)).padStart(8, '0')}`;
}

/** A new subscription code (E7): its text is its level and asset type, and eight hex digits. */
export function addCode({ rnd, data }: Seeding, fields: Omit<CodeRec, 'code'>): string {
	const code = `SC-${fields.level[0]}${fields.assetType[0]}-${rnd.hex(8).toUpperCase()}`;
	data.codes.set(code, { code, ...fields });
	return code;
}
