import type { PendingCall } from '../../../features/alerts/outbox';
import type { AlertState } from '../../../features/alerts/state';
import type { MessageRef } from '../../../features/alerts/store';
import type { AlertRecord } from '../../../kernel/alert';
import type { OutboxItem } from '../../../kernel/outbox';
import type { Publisher } from '../../../kernel/publisher';
import type { BotLogger } from '../../../log';
import type { ExactlyOnce } from '../exactly-once';
import type { Pacing } from '../pacing';
import type { DispatchStats } from '../stats';
import type { AlertViews } from '../views';

/** What a handler gets for the one outbox call it sends. */
export interface CallContext {
	channel: string;
	call: PendingCall;
	state: AlertState;
	/** Posts and updates made at most once. */
	once: ExactlyOnce;
	/** The alerts as messages show them now. */
	views: AlertViews;
	pacing: Pacing;
	stats: DispatchStats;
	/** Where files go (KPI charts), when there is somewhere. */
	publisher?: Publisher;
	logger: BotLogger;
	/** The open message of a sibling (drive or motor of the same PowerTrain) this alert joins. */
	inhibit?: (alert: AlertRecord, channel: string) => Promise<MessageRef | undefined>;
	/** Whether a reminder still has a reason to go out (open, not acknowledged, not muted). */
	stillDue?: (alert: AlertRecord) => Promise<boolean>;
}

/** 'completed': the handler removed the call from the outbox itself, with what it recorded; else the pipeline does. */
export type Completion = 'completed' | void;

/** Sends one outbox call of one kind: its Slack calls (each at most once) and what they leave in the store. */
export type Handler<K extends OutboxItem['kind']> = (
	ctx: CallContext,
	item: Extract<OutboxItem, { kind: K }>,
) => Promise<Completion>;
