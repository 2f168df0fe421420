/**
 * The source address of the user's queue when no template is set, from the broker's open frame:
 * RabbitMQ 3.x reads an existing queue only as `/amq/queue/{name}` (a bare name means "declare
 * it", refused to a read-only user), RabbitMQ 4.x as `/queues/{name}`; the simulator, ActiveMQ
 * Artemis and Qpid take the bare name (assumption P2).
 */
export function defaultAmqpAddress(
	topic: string,
	serverProperties: Record<string, unknown> | undefined,
): string {
	const product = String(serverProperties?.product ?? '');
	if (!/rabbitmq/i.test(product)) return topic;
	const major = Number(/^(\d+)/.exec(String(serverProperties?.version ?? ''))?.[1] ?? 3);
	return major >= 4 ? `/queues/${encodeURIComponent(topic)}` : `/amq/queue/${topic}`;
}
