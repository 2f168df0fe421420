import { createHash } from 'node:crypto';

/** MQTT 3.1.1 (3.1.3.1): every server must take client ids of 1 to 23 bytes of [0-9a-zA-Z]. */
export const MQTT_CLIENT_ID_MAX = 23;

/**
 * One client per workflow trigger: the MQTT client id and the AMQP container and link name of a
 * trigger node, from the user, the workflow and the node. Stable across restarts (a persistent
 * session is found again), distinct between workflows (two workflows on one credential never
 * take one session from each other), and 23 bytes: `dm` plus a letter for the purpose, then 20
 * hex digits of a SHA-256 (80 bits: no two of a user's triggers meet by chance).
 */
export function triggerClientId(parts: {
	userName: string;
	workflowId: string;
	nodeId: string;
	purpose: 'active' | 'test';
}): string {
	const digest = createHash('sha256')
		.update([parts.userName, parts.workflowId, parts.nodeId, parts.purpose].join('\0'))
		.digest('hex');
	return `dm${parts.purpose === 'test' ? 't' : 'w'}${digest.slice(0, MQTT_CLIENT_ID_MAX - 3)}`;
}

/**
 * The bot's MQTT client id (and AMQP container and link name) for a data-subscription user: from
 * the user name alone, so every replica of one bot installation, all started with the same
 * configuration, uses the same one. With a persistent session the broker keeps what arrives while
 * no replica is connected, and hands the session to whichever replica leads next.
 */
export function botClientId(userName: string): string {
	return `dm-${userName}`;
}
