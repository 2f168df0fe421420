import { assetStandingRefusal, DriveMonitoringApiError } from '../../../shared/errors';
import type { BotLogger } from '../../log';

export type PolledFunction = 'events' | 'cbm';

const DAY_MS = 86_400_000;
const WHY = {
	expired: 'its subscription expired',
	levelDenied: 'its subscription level does not allow it',
	unsupported: 'the asset does not support it',
} as const;

/** Why an asset cannot answer a function at its standing, or undefined for any other error. */
function standing(error: unknown): keyof typeof WHY | undefined {
	const refusal = assetStandingRefusal(error);
	if (refusal) return refusal;
	// 102202 "asset type not yet supported": CBM of a drive outside the CBM families, a motor...
	return error instanceof DriveMonitoringApiError && error.code === 102202
		? 'unsupported'
		: undefined;
}

/**
 * Assets set aside per function (B45): an answer that cannot change until the asset's
 * subscription or detail does (102202, 102205, 102403) is not asked again for a day, and is
 * logged once per asset when it is set aside and once when the asset answers again, never per pass.
 */
export class SetAside {
	private readonly until = new Map<string, number>();

	constructor(
		private readonly logger: BotLogger,
		private readonly recheckMs = DAY_MS,
	) {}

	has(fn: PolledFunction, assetId: number, now: number): boolean {
		return (this.until.get(`${fn}:${assetId}`) ?? 0) > now;
	}

	/** True when the error means "not at this standing" (the asset is then set aside), false for a real failure. */
	consider(fn: PolledFunction, assetId: number, now: number, error: unknown): boolean {
		const why = standing(error);
		if (!why) return false;
		const key = `${fn}:${assetId}`;
		if (!this.until.has(key)) {
			this.logger.info(
				`poll: asset ${assetId}: ${fn === 'cbm' ? 'CBM' : 'events'} not read while ${WHY[why]}; asked again once a day`,
			);
		}
		this.until.set(key, now + this.recheckMs);
		return true;
	}

	/** The asset answered: if it was set aside, it is back. */
	answered(fn: PolledFunction, assetId: number): void {
		if (this.until.delete(`${fn}:${assetId}`))
			this.logger.info(
				`poll: asset ${assetId}: ${fn === 'cbm' ? 'CBM' : 'events'} answer again; read as usual`,
			);
	}

	count(fn: PolledFunction): number {
		let n = 0;
		for (const key of this.until.keys()) if (key.startsWith(`${fn}:`)) n++;
		return n;
	}

	/** Forgets assets no longer in the fleet (the map stays as large as the fleet at most). */
	retain(ids: ReadonlySet<number>): void {
		for (const key of this.until.keys())
			if (!ids.has(Number(key.slice(key.indexOf(':') + 1)))) this.until.delete(key);
	}
}
