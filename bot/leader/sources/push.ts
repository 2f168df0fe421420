import {
	botClientId,
	createPushReceiver,
	type PushDataType,
	type PushMessage,
	type PushReceiver,
} from '../../../shared/push';
import type { PushSettings } from '../../config/push-settings';
import { type BotLogger, errorText } from '../../log';
import * as metrics from '../../ops/metrics';
import type { AlertEngine } from '../../features/alerts/engine';

/** Message ids remembered across users; a duplicate from a second user arrives within seconds. */
const MERGE_MEMORY = 20_000;
/** A message's lag counts as the source's lag for this long after it was handled. */
const LAG_FRESH_MS = 60_000;

/**
 * Several data-subscription users merged into one stream (B49): a CP's user and its customers'
 * own users can both receive the same event. The first delivery of a message id is handled; a
 * second one (from any user) waits for that handling and is then acknowledged without work, so
 * the alert state sees each message once. Also measures the lag of what arrives.
 */
export class PushMerge {
	private readonly handling = new Map<string, Promise<void>>();
	private lastLag = { at: 0, ms: 0 };
	private late = false;
	duplicates = 0;
	handled = 0;

	/** `late` is called once when the lag crosses `thresholdSeconds`, again only after it was back under. */
	constructor(
		private readonly lag:
			| { thresholdSeconds: number; late(text: string): void; caughtUp(seconds: number): void }
			| undefined = undefined,
	) {}

	async once(message: PushMessage, handle: () => Promise<void>): Promise<void> {
		const earlier = this.handling.get(message.id);
		if (earlier) {
			const done = await earlier.then(
				() => true,
				() => false,
			);
			if (done) {
				this.duplicates++;
				return;
			}
		}
		const work = handle();
		this.handling.set(message.id, work);
		for (const oldest of this.handling.keys()) {
			if (this.handling.size <= MERGE_MEMORY) break;
			this.handling.delete(oldest);
		}
		let done = false;
		try {
			await work;
			done = true;
		} finally {
			// A failed handling is forgotten, so the redelivery (from any user) is handled again.
			if (!done && this.handling.get(message.id) === work) this.handling.delete(message.id);
		}
		this.handled++;
		const time = Date.parse(message.time);
		if (Number.isFinite(time))
			this.lastLag = { at: Date.now(), ms: Math.max(0, Date.now() - time) };
		const seconds = this.lagSeconds();
		if (this.lag && seconds > this.lag.thresholdSeconds && !this.late) {
			this.late = true;
			this.lag.late(
				`pushed data arrives ${Math.round(seconds / 60)} min after the platform produced it (threshold ${Math.round(this.lag.thresholdSeconds / 60)} min): the queue is behind or the broker delivers late.`,
			);
		} else if (this.lag && seconds <= this.lag.thresholdSeconds && this.late) {
			this.late = false;
			this.lag.caughtUp(seconds);
		}
	}

	/** Seconds between the platform producing the last message and the bot committing it; 0 when idle. */
	lagSeconds(): number {
		return Date.now() - this.lastLag.at > LAG_FRESH_MS ? 0 : Math.round(this.lastLag.ms / 1000);
	}
}

/**
 * Alerts from the data-subscription channel. A delivery is acknowledged only after the engine
 * committed what it means (its handler resolves), so a crash before that gets it redelivered;
 * the engine's state makes a redelivery change nothing.
 */
/** Other features' pushed types (AssetState for connectivity, AssetReport for reports) and their handler. */
export interface PushExtras {
	dataTypes: PushDataType[];
	/** Resolves once what the message means is committed (it is acknowledged after). */
	handle(message: PushMessage): Promise<void>;
}

export async function startPushSource(
	engine: AlertEngine,
	settings: PushSettings,
	logger: BotLogger,
	cbm: boolean,
	extras?: PushExtras,
	merge = new PushMerge(),
	mayReconnect?: () => boolean,
): Promise<PushReceiver> {
	const label = settings.name ?? settings.userName;
	const receiver = createPushReceiver({
		url: settings.url,
		userName: settings.userName,
		password: settings.password,
		topic: settings.topic,
		addressTemplate: settings.addressTemplate,
		// Replicas: one client id for the whole installation and a persistent session, so what
		// arrives while the leader changes waits at the broker for the next leader, which takes the session over.
		clientId: botClientId(settings.userName),
		persistentSession: true,
		// A frozen leader that wakes after the broker dropped it must not take the session back before it steps down.
		mayReconnect,
		dataTypes: [
			...(cbm ? (['AssetEvent', 'AssetCBM'] as const) : (['AssetEvent'] as const)),
			...(extras?.dataTypes ?? []),
		],
		logger: {
			warn: (m) => logger.warn(`push ${label}: ${m}`),
			error: (m) => logger.error(`push ${label}: ${m}`),
			info: (m) => logger.debug(`push ${label}: ${m}`),
		},
	});
	receiver.on('error', (error: unknown) => logger.error(`push ${label}: ${errorText(error)}`));
	metrics.trackPushReceiver(pushSourceName(settings), receiver);
	await receiver.start(async (message: PushMessage) => {
		// A report is known by its id: it needs no asset in the envelope.
		if (message.dataType === 'AssetReport') return extras?.handle(message);
		if (message.assetId === undefined) {
			logger.warn(
				`push ${label}: ${message.dataType} message ${message.id} names no asset; skipped`,
			);
			return;
		}
		const assetId = message.assetId;
		await merge.once(message, async () => {
			if (message.dataType === 'AssetEvent') await engine.observeEvent(assetId, message.record);
			else if (message.dataType === 'AssetCBM') await engine.observeCbm(assetId, message.record);
			else await extras?.handle(message);
		});
		metrics.sourceSucceeded(pushSourceName(settings));
	});
	return receiver;
}

/** The name a push source has in metrics and readiness: push:<topic>. */
export function pushSourceName(settings: Pick<PushSettings, 'topic'>): string {
	return `push:${settings.topic}`;
}
