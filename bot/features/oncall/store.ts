import type { AckInfo } from '../../kernel/alert';
import type { SqlScope } from '../../state/scope';

export type SilenceKind = 'asset' | 'group' | 'plant';

export interface Silence {
	id: number;
	kind: SilenceKind;
	/** Asset id, or the lower-case group or plant name. */
	value: string;
	/** How people named it (for messages). */
	label: string;
	from: number;
	until: number;
	reason?: string;
	createdBy?: string;
	ended: boolean;
	endedBy?: string;
}

interface SilenceRow {
	id: number;
	kind: SilenceKind;
	value: string;
	label: string;
	from_ms: number;
	until_ms: number;
	reason: string | null;
	created_by: string | null;
	ended: number;
	ended_by: string | null;
}

const toSilence = (r: SilenceRow): Silence => ({
	id: r.id,
	kind: r.kind,
	value: r.value,
	label: r.label,
	from: r.from_ms,
	until: r.until_ms,
	reason: r.reason ?? undefined,
	createdBy: r.created_by ?? undefined,
	ended: r.ended === 1,
	endedBy: r.ended_by ?? undefined,
});

/** The on-call tables: acknowledgements, silences and the alerts they held back, reminders sent. */
export class OnCallStore {
	constructor(private readonly scope: SqlScope) {}

	private get sql() {
		return this.scope.sql;
	}

	async getAck(key: string): Promise<AckInfo | undefined> {
		const row = await this.sql.get<{ info: string }>(
			'SELECT info FROM acks WHERE event_key = ?',
			key,
		);
		return row && (JSON.parse(row.info) as AckInfo);
	}

	async putAck(key: string, info: AckInfo): Promise<void> {
		await this.sql.run(
			'INSERT INTO acks (event_key, info) VALUES (?, ?) ON CONFLICT (event_key) DO UPDATE SET info = excluded.info',
			key,
			JSON.stringify(info),
		);
	}

	async addSilence(s: Omit<Silence, 'id' | 'ended' | 'endedBy'>): Promise<Silence> {
		// RETURNING: the new id the same way in both stores (SQLite 3.35+, PostgreSQL).
		const row = await this.sql.get<{ id: number }>(
			'INSERT INTO silences (kind, value, label, from_ms, until_ms, reason, created_by) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id',
			s.kind,
			s.value,
			s.label,
			s.from,
			s.until,
			s.reason ?? null,
			s.createdBy ?? null,
		);
		return { ...s, id: Number(row?.id), ended: false };
	}

	/** Silences not ended yet (some may be past their end, waiting for their summary). */
	async activeSilences(): Promise<Silence[]> {
		return (
			await this.sql.all<SilenceRow>('SELECT * FROM silences WHERE ended = 0 ORDER BY id')
		).map(toSilence);
	}

	async endSilence(id: number, endedBy?: string, at?: number): Promise<void> {
		// CASE, not MIN(a, b): PostgreSQL's MIN is only an aggregate.
		await this.sql.run(
			'UPDATE silences SET ended = 1, ended_by = ?, until_ms = CASE WHEN until_ms < ? THEN until_ms ELSE ? END WHERE id = ?',
			endedBy ?? null,
			at ?? Number.MAX_SAFE_INTEGER,
			at ?? Number.MAX_SAFE_INTEGER,
			id,
		);
	}

	async getSilence(id: number): Promise<Silence | undefined> {
		const row = await this.sql.get<SilenceRow>('SELECT * FROM silences WHERE id = ?', id);
		return row && toSilence(row);
	}

	async recordSilenced(silenceId: number, key: string, channel: string): Promise<void> {
		await this.sql.run(
			'INSERT INTO silenced_events (silence_id, event_key, channel) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
			silenceId,
			key,
			channel,
		);
	}

	silencedEvents(silenceId: number): Promise<Array<{ key: string; channel: string }>> {
		return this.sql.all<{ key: string; channel: string }>(
			'SELECT event_key AS key, channel FROM silenced_events WHERE silence_id = ?',
			silenceId,
		);
	}

	/** True the first time (the reminder is to be sent), false after. */
	async claimReminder(key: string, channel: string, level: string): Promise<boolean> {
		return (
			(
				await this.sql.run(
					'INSERT INTO reminders_sent (event_key, channel, level) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
					key,
					channel,
					level,
				)
			).changes > 0
		);
	}
}
