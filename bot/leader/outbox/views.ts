import type { AlertState } from '../../features/alerts/state';
import type { MessageRef } from '../../features/alerts/store';
import type { AlertRecord } from '../../kernel/alert';
import type { Notice } from '../../kernel/notice';

/** What a message shows now, drawn from the stored alerts, with on-call state and links (present). */
export class AlertViews {
	constructor(
		private readonly state: AlertState,
		private readonly present?: (alert: AlertRecord) => Promise<AlertRecord>,
	) {}

	/** The alert as it is now (the store's latest record, with on-call state and links). */
	async current(key: string, fallback?: AlertRecord): Promise<AlertRecord | undefined> {
		const record = (await this.state.alerts.getEvent(key))?.alert ?? fallback;
		return record && (this.present ? this.present(record) : record);
	}

	async currentAll(keys: readonly string[]): Promise<AlertRecord[]> {
		const alerts: AlertRecord[] = [];
		for (const key of keys) {
			const alert = await this.current(key);
			if (alert !== undefined) alerts.push(alert);
		}
		return alerts;
	}

	/** What a message of its own shows now: its alert, and a sibling's when inhibition merged them. */
	async message(ref: MessageRef, extra: readonly AlertRecord[] = []): Promise<Notice | undefined> {
		const alerts = [
			...(await this.currentAll(await this.state.alerts.keysInMessage(ref.channelId, ref.ts))),
			...extra,
		];
		return alerts.length === 0
			? undefined
			: { kind: 'alert', alert: alerts[0], related: alerts.slice(1) };
	}

	async digest(ref: MessageRef): Promise<Notice | undefined> {
		const digest = await this.state.alerts.getDigest(ref.channelId, ref.ts);
		return (
			digest && {
				kind: 'digest',
				alerts: await this.currentAll(digest.alertKeys),
				resolved: await this.currentAll(digest.resolvedKeys),
			}
		);
	}

	/** What the message `ref` points at shows now: a message of its own, or a digest. */
	of(ref: MessageRef): Promise<Notice | undefined> {
		return ref.via === 'message' ? this.message(ref) : this.digest(ref);
	}
}
