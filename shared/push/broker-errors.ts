// What a broker's error means to the person who set up the credential, and whether trying again
// can help. A sentence in their terms (the credential's fields, the platform's operations) with a
// next step; the broker's own condition and description follow in parentheses for the operator.
import { PushError, PushStreamEndedError } from './errors';

/** An AMQP error as rhea hands it over (`condition` and `description` of the error frame). */
export interface BrokerCondition {
	condition?: string;
	description?: string;
}

export interface ConditionContext {
	where: 'connection' | 'session' | 'link';
	url: string;
	userName: string;
	address: string;
}

/** Conditions after which the same login and address cannot succeed: the receiver stops. */
const TERMINAL = new Set([
	'amqp:unauthorized-access',
	'amqp:not-found',
	'amqp:resource-deleted',
	'amqp:not-allowed',
	'amqp:invalid-field',
	'amqp:precondition-failed',
]);

export function explainAmqpCondition(
	error: BrokerCondition | undefined,
	context: ConditionContext,
): PushError {
	const condition = error?.condition ?? 'unknown';
	const description = error?.description ?? '';
	const detail = `(${context.where} error ${condition}${description ? `: ${description}` : ''}, ${context.url})`;
	const queue = `queue "${context.address}"`;
	const user = `data-subscription user "${context.userName}"`;
	const sentence = ((): string => {
		if (
			/unknown_destination|invalid.?address/i.test(description) ||
			condition === 'amqp:invalid-field'
		) {
			return `the broker does not know the address ${JSON.stringify(context.address)}: set Address Template in the credential to the broker's form of the user's queue (RabbitMQ 3: /amq/queue/{topic}, RabbitMQ 4: /queues/{topic}, others: {topic})`;
		}
		if (/NOT_FOUND|no queue|not found/i.test(description) || condition === 'amqp:not-found') {
			return `the broker has no ${queue}: the ${user} or its queue was deleted, or the Topic in the credential is wrong. Check the Topic (Get Data-Subscription User), or create the user again and subscribe its data types`;
		}
		if (condition === 'amqp:resource-deleted') {
			return `the broker deleted the ${queue} while it was being read: the ${user} was deleted (Delete Data-Subscription User removes its queue). Create the user again, subscribe its data types and update the credential`;
		}
		if (condition === 'amqp:unauthorized-access' || /ACCESS_REFUSED/.test(description)) {
			return `the broker refused access to ${queue} for the ${user}: ask the platform operator to grant this user read permission on its queue`;
		}
		if (condition === 'amqp:precondition-failed' || /PRECONDITION_FAILED/.test(description)) {
			return `the broker refused to attach to ${queue} as asked: set Address Template in the credential to the broker's form of an existing queue (RabbitMQ 3: /amq/queue/{topic}, RabbitMQ 4: /queues/{topic})`;
		}
		if (condition === 'amqp:not-allowed') {
			return `the broker does not allow the ${user} to read ${queue}: ask the platform operator to grant this user read permission on its queue`;
		}
		if (condition === 'amqp:connection:forced') {
			return `the broker closed the connection (restarted, or the user's password was reset); reconnecting`;
		}
		if (condition === 'amqp:resource-limit-exceeded') {
			return `the broker is at a resource limit and refused the connection for now; retrying`;
		}
		return `the broker ended the ${context.where} with an error; reconnecting`;
	})();
	const message = `${sentence} ${detail}`;
	return TERMINAL.has(condition)
		? new PushStreamEndedError(message)
		: new PushError(message, false);
}
