/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { Client, type ClientBase, type ClientConfig } from 'pg';

/** Any fixed number, other than the migration lock: held for as long as a replica leads. */
const LEADER_LOCK = 0x4c454144; // "LEAD"

/** A write refused because another replica has led since this one's epoch: the caller must stop acting. */
export class FencedOut extends Error {
	constructor(
		readonly mine: number,
		readonly current: number,
	) {
		super(`This replica's leadership (epoch ${mine}) ended; epoch ${current} leads now. The change was not made.`);
		this.name = 'FencedOut';
	}
}

/**
 * Leadership: a session advisory lock on a dedicated connection (PostgreSQL releases it the moment that session
 * ends, so a dead leader frees it), plus a lease row whose epoch grows with every new leader. The epoch is the
 * fencing token `fenced` checks, so a paused old leader that wakes up cannot change state.
 */
export class Lease {
	private client: Client | undefined;
	private epochValue: number | undefined;

	constructor(
		private readonly connection: ClientConfig,
		private readonly holder: string,
		/** Called once when a held lease is lost (its connection ended): stop acting at once. */
		private readonly onLost: (epoch: number) => void,
	) {}

	get epoch(): number | undefined {
		return this.epochValue;
	}

	/** The new epoch when this replica now leads; undefined while another holds the lock. */
	async tryAcquire(): Promise<number | undefined> {
		if (this.epochValue !== undefined) return this.epochValue;
		const client = this.client ?? (await this.open());
		const { rows } = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1) AS got', [LEADER_LOCK]);
		if (!rows[0]?.got) return undefined;
		const lease = await client.query<{ epoch: string }>(
			`INSERT INTO leader_lease (id, epoch, holder, acquired_at) VALUES (1, 1, $1, $2)
			 ON CONFLICT (id) DO UPDATE SET epoch = leader_lease.epoch + 1, holder = $1, acquired_at = $2
			 RETURNING epoch`,
			[this.holder, Date.now()],
		);
		this.epochValue = Number(lease.rows[0].epoch);
		return this.epochValue;
	}

	/** Steps down: ending the session releases the lock for the next replica. */
	async release(): Promise<void> {
		const client = this.client;
		this.client = undefined;
		this.epochValue = undefined;
		await client?.end().catch(() => undefined);
	}

	private async open(): Promise<Client> {
		const client = new Client(this.connection);
		const lost = (): void => {
			if (this.client !== client) return;
			this.client = undefined;
			const epoch = this.epochValue;
			this.epochValue = undefined;
			if (epoch !== undefined) this.onLost(epoch);
		};
		// A dropped connection is an expected event here (restart, partition), not a crash.
		client.on('error', lost);
		client.on('end', lost);
		await client.connect();
		this.client = client;
		return client;
	}
}

/**
 * Runs `work` in one transaction that commits only while `epoch` still leads. The lease row is read FOR SHARE,
 * so a new leader's epoch bump waits for this transaction, and this transaction sees any bump made before it.
 */
export async function fenced<T>(client: ClientBase, epoch: number, work: (client: ClientBase) => Promise<T>): Promise<T> {
	await client.query('BEGIN');
	let committed = false;
	try {
		const { rows } = await client.query<{ epoch: string }>('SELECT epoch FROM leader_lease WHERE id = 1 FOR SHARE');
		const current = Number(rows[0]?.epoch ?? 0);
		if (current !== epoch) throw new FencedOut(epoch, current);
		const result = await work(client);
		await client.query('COMMIT');
		committed = true;
		return result;
	} finally {
		if (!committed) await client.query('ROLLBACK').catch(() => undefined);
	}
}
