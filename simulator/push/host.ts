import type { SimulatorBus } from '../bus';

/** A data-subscription user as the simulator stores it (E26 to E30). */
export interface SubscriberRecord {
	id: string;
	orgId: number;
	userName: string;
	password: string;
	topic: string;
	/** Numbers 1 to 4 (AssetEvent, AssetState, AssetReport, AssetCBM). */
	subDataTypes: number[];
}

/** What the simulator offers its push channel. */
export interface PushHost {
	bus: SimulatorBus;
	/** The current record of a user, or undefined once deleted (E29). */
	findSubscriber(userName: string): SubscriberRecord | undefined;
	/** All current users; the push channel publishes to each whose types match. */
	listSubscribers(): SubscriberRecord[];
	/** The simulator's (accelerated) clock, for the time of pushed CBM results; default the wall clock. */
	now?(): Date;
	/**
	 * Whether a user receives a record of organization `orgId` (assumption P6); default: its own
	 * organization's only.
	 */
	receives?(user: SubscriberRecord, orgId: number, dataType: string): boolean;
}

export interface PushChannel {
	/** e.g. { amqp: 'amqp://127.0.0.1:5672', mqtt: 'mqtt://127.0.0.1:1883' } */
	urls: Record<string, string>;
	close(): Promise<void>;
}

export interface PushChannelOptions {
	host: string;
	amqpPort?: number;
	mqttPort?: number;
	/**
	 * Messages kept per user (P5), default 100,000: an AMQP user queue drops its oldest beyond it;
	 * an MQTT persistent session keeps that many unacknowledged and drops newer ones.
	 */
	queueLimit?: number;
}
