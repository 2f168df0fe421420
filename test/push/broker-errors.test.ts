// What a broker's error tells the user, and the AMQP address each broker expects by default.
import { defaultAmqpAddress } from '../../shared/push/amqp-address';
import { explainAmqpCondition } from '../../shared/push/broker-errors';
import { PushStreamEndedError } from '../../shared/push';

const context = {
	where: 'session' as const,
	url: 'amqp://broker.example:5672/',
	userName: 'dm-11-abc',
	address: '/amq/queue/q-123',
};

test.each([
	[{ product: 'RabbitMQ', version: '3.10.8' }, '/amq/queue/plant-7'],
	[{ product: 'RabbitMQ', version: '3.13.1' }, '/amq/queue/plant-7'],
	[{ product: 'RabbitMQ', version: '4.1.0' }, '/queues/plant-7'],
	[{ product: 'apache-activemq-artemis', version: '2.31.0' }, 'plant-7'],
	[{ product: 'qpid-cpp', version: '1.39.0' }, 'plant-7'],
	[undefined, 'plant-7'],
])('open frame %j: default address %s', (properties, address) => {
	expect(defaultAmqpAddress('plant-7', properties)).toBe(address);
});

test.each([
	// RabbitMQ 3.10's own answers, as the real-broker tests receive them.
	[
		{
			condition: 'amqp:unauthorized-access',
			description:
				"ACCESS_REFUSED - access to queue 'q-123' in vhost '/' refused for user 'dm-11-abc'",
		},
		true,
		'the broker refused access to queue "/amq/queue/q-123" for the data-subscription user "dm-11-abc": ask the platform operator to grant this user read permission on its queue',
	],
	[
		{
			condition: 'amqp:invalid-field',
			description: 'Attach rejected: {unknown_destination,"/queues/q-123"}',
		},
		true,
		'the broker does not know the address "/amq/queue/q-123": set Address Template in the credential to the broker\'s form',
	],
	[
		{ condition: 'amqp:not-found', description: "NOT_FOUND - no queue 'q-123' in vhost '/'" },
		true,
		'the broker has no queue "/amq/queue/q-123": the data-subscription user "dm-11-abc" or its queue was deleted',
	],
	[
		{
			condition: 'amqp:resource-deleted',
			description: 'the data-subscription user was deleted (E29)',
		},
		true,
		'the broker deleted the queue "/amq/queue/q-123" while it was being read',
	],
	[
		{
			condition: 'amqp:connection:forced',
			description: "broker forced connection closure with reason 'shutdown'",
		},
		false,
		"the broker closed the connection (restarted, or the user's password was reset); reconnecting",
	],
	[
		{ condition: 'amqp:internal-error', description: 'boom' },
		false,
		'the broker ended the session with an error; reconnecting',
	],
])('%j: terminal %s, says %s', (error, terminal, sentence) => {
	const explained = explainAmqpCondition(error, context);
	expect(explained.terminal).toBe(terminal);
	expect(explained instanceof PushStreamEndedError).toBe(terminal);
	expect(explained.message.startsWith(sentence)).toBe(true);
	// The broker's own words follow for the operator.
	expect(explained.message).toContain(
		`(session error ${error.condition}: ${error.description}, amqp://broker.example:5672/)`,
	);
});
