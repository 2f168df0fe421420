import { createHmac, randomBytes } from 'node:crypto';
import { LIMITS } from '../../shared/spec';
import { sameText } from '../auth';
import { MINUTE } from '../time';

/** Prefix of temporary download links on the platform host (assumption A7). */
export const FILES_PREFIX = '/files';

export type LinkCheck = { ok: true } | { ok: false; reason: string };

/** Signs and checks temporary links: HMAC over path and expiry, valid 10 minutes of wall time. */
export class LinkSigner {
	private readonly key = randomBytes(32);

	constructor(
		private readonly baseUrl: () => string,
		private readonly now: () => number,
	) {}

	sign(path: string): string {
		const expires = this.now() + LIMITS.temporaryLinkMinutes * MINUTE;
		return `${this.baseUrl()}${path}?expires=${expires}&signature=${this.mac(path, expires)}`;
	}

	check(path: string, query: URLSearchParams): LinkCheck {
		const expires = Number(query.get('expires'));
		const signature = query.get('signature') ?? '';
		if (!Number.isSafeInteger(expires) || !sameText(signature, this.mac(path, expires))) {
			return {
				ok: false,
				reason:
					'The link signature does not match: the link was altered or is not from this platform.',
			};
		}
		if (this.now() > expires)
			return {
				ok: false,
				reason:
					'The link has expired: temporary links are valid for 10 minutes. Request a new one.',
			};
		return { ok: true };
	}

	private mac(path: string, expires: number): string {
		return createHmac('sha256', this.key).update(`${path}\n${expires}`).digest('hex');
	}
}
