import type { PushReceiverOptions } from '../../shared/push';

/** One data-subscription user the bot receives pushed data as. */
export type PushSettings = Pick<
	PushReceiverOptions,
	'url' | 'userName' | 'password' | 'topic' | 'addressTemplate'
> & {
	/** A label for logs (the organization); default the user name. */
	name?: string;
};
