import { createPushReceiver } from './create-receiver';
import type { PushReceiverOptions } from './types';

/** Logs in and subscribes, then leaves: the credential's Test button. Consumes nothing. */
export async function checkPushLogin(options: PushReceiverOptions): Promise<void> {
	const receiver = createPushReceiver({
		...options,
		clientId: `dm-${options.userName}-check`,
		persistentSession: false,
		prefetch: 1,
	});
	try {
		await receiver.start(() =>
			Promise.reject(new Error('login check only: the message stays with the broker')),
		);
	} finally {
		await receiver.close();
	}
}
