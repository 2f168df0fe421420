import { createHash, timingSafeEqual } from 'node:crypto';
import type { PushHost, SubscriberRecord } from './host';

/** The user when name and current password match (E30 makes an old password fail at once). */
export function authenticateSubscriber(
	host: PushHost,
	userName: string | undefined,
	password: string | Buffer | undefined,
): SubscriberRecord | undefined {
	if (!userName || password === undefined) return undefined;
	const user = host.findSubscriber(userName);
	if (!user) return undefined;
	// Compare digests so neither the length nor the content leaks through timing.
	const digest = (value: string | Buffer) => createHash('sha256').update(value).digest();
	return timingSafeEqual(digest(password), digest(user.password)) ? user : undefined;
}
