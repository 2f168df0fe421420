/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-dangerous-functions -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { BOT_SCHEMA } from '../../bot/app/schema';
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from 'pg';
import { registry } from '../../bot/ops/metrics';
import { databaseCheck, leadershipCheck, Readiness } from '../../bot/ops/readiness';
import { type Leadership, startLeadership } from '../../bot/cluster/leadership';
import { databaseSettings } from '../../bot/state/database-url';
import { FencedDatabase, FencedOut } from '../../bot/cluster/fence';
import { PostgresDatabase } from '../../bot/state/postgres';
import { migratePostgres, usePrivatePostgres } from '../helpers/postgres';

const quiet = {
	debug: () => undefined,
	info: () => undefined,
	warn: () => undefined,
	error: () => undefined,
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(what: string, limitMs: number, condition: () => boolean): Promise<number> {
	const start = Date.now();
	while (!condition()) {
		if (Date.now() - start > limitMs) throw new Error(`${what}: not within ${limitMs} ms`);
		await sleep(50);
	}
	return Date.now() - start;
}

interface Replica {
	name: string;
	leadership: Leadership;
	leads: number[];
	stepDowns: string[];
	changes: number;
	leader: boolean;
}

interface ChildReplica {
	name: string;
	process: ChildProcess;
	events: Array<{ event: string; epoch?: number; by?: string; name?: string; reason?: string }>;
}

describe('leadership with a lease time-to-live and fencing (real PostgreSQL)', () => {
	const { server } = usePrivatePostgres();
	const open: Replica[] = [];
	const clients: Client[] = [];
	/** A connection of the test's own, which outlives a PostgreSQL restart without an unhandled 'error'. */
	const connect = async (): Promise<Client> => {
		const client = new Client({ connectionString: server().url() });
		client.on('error', () => undefined);
		await client.connect();
		clients.push(client);
		return client;
	};
	const stores: FencedDatabase[] = [];
	/** The bot's PostgreSQL store, its transactions fenced by `leadership` (what the runtime wires). */
	const fencedStore = async (leadership: Leadership): Promise<FencedDatabase> => {
		const db = new FencedDatabase(
			await PostgresDatabase.open(
				databaseSettings({ DRIVE_BOT_DATABASE_URL: server().url() })!,
				BOT_SCHEMA,
			),
		);
		db.fenceWith((tx) => leadership.fence(tx));
		stores.push(db);
		return db;
	};
	afterAll(async () => {
		await Promise.all(stores.map((db) => db.close()));
		await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
	});
	const children: ChildReplica[] = [];

	const replica = (name: string): Replica => {
		const r: Replica = {
			name,
			leads: [],
			stepDowns: [],
			changes: 0,
			leader: false,
		} as unknown as Replica;
		r.leadership = startLeadership({
			connection: { connectionString: server().url() },
			holder: name,
			logger: quiet,
			metrics: { setLeader: (on) => (r.leader = on), leaderChanged: () => r.changes++ },
			onLead: (epoch) => void r.leads.push(epoch),
			onStepDown: (reason) => void r.stepDowns.push(reason),
		});
		open.push(r);
		return r;
	};
	const child = (name: string): ChildReplica => {
		const c: ChildReplica = {
			name,
			process: spawn(process.execPath, [join(__dirname, 'leadership', 'child.js')], {
				env: { ...process.env, LEADERSHIP_TEST_URL: server().url(), LEADERSHIP_TEST_HOLDER: name },
				stdio: ['ignore', 'pipe', 'inherit'],
			}),
			events: [],
		};
		createInterface({ input: c.process.stdout! }).on('line', (line) =>
			c.events.push(JSON.parse(line) as ChildReplica['events'][number]),
		);
		children.push(c);
		return c;
	};
	const leading = (rs: Replica[]) => rs.filter((r) => r.leadership.isLeader());
	const closeAll = async () => {
		await Promise.all(open.splice(0).map((r) => r.leadership.close()));
		for (const c of children.splice(0)) {
			c.process.kill('SIGCONT');
			c.process.kill('SIGKILL');
		}
	};

	beforeAll(async () => {
		await migratePostgres(server().url());
		const admin = await connect();
		await admin.query(
			'CREATE TABLE test_acts (id BIGSERIAL PRIMARY KEY, epoch BIGINT NOT NULL, holder TEXT NOT NULL, at TIMESTAMPTZ NOT NULL)',
		);
	});
	afterEach(closeAll);

	/** Fencing's promise, read from the database: once an act of epoch e is recorded, no act of an older epoch follows. */
	const actsInEpochOrder = async (): Promise<{ epochs: number[] }> => {
		const db = await connect();
		const { rows } = await db.query<{ epoch: string }>(
			'SELECT epoch FROM test_acts ORDER BY at, id',
		);
		const epochs = rows.map((r) => Number(r.epoch));
		return { epochs };
	};

	it('one leader among three; kill -9 of the leader: another leads within 15 s with a higher epoch', async () => {
		const a = child('child-a');
		await waitFor('the first replica leads', 20_000, () =>
			a.events.some((e) => e.event === 'lead'),
		);
		const b = replica('b');
		const c = replica('c');
		await sleep(3_000);
		expect(leading([b, c])).toEqual([]);
		expect(a.events.filter((e) => e.event === 'act').length).toBeGreaterThan(0);

		const firstEpoch = a.events.find((e) => e.event === 'lead')!.epoch!;
		a.process.kill('SIGKILL');
		const took = await waitFor(
			'a new leader after kill -9',
			15_000,
			() => leading([b, c]).length > 0,
		);
		expect(leading([b, c])).toHaveLength(1);
		expect(leading([b, c])[0].leadership.epoch()).toBe(firstEpoch + 1);
		await sleep(2_500);
		expect(leading([b, c])).toHaveLength(1);
		// Both standby replicas counted the change (drive_bot_leader_changes_total); only the leader's gauge is 1.
		expect([b.changes, c.changes]).toEqual([1, 1]);
		expect([b.leader, c.leader].filter(Boolean)).toHaveLength(1);
		process.stdout.write(`leadership test: failover after kill -9 took ${took} ms\n`);
	}, 60_000);

	it('SIGSTOP of the leader: another leads within 30 s; the old one, woken, is refused and steps down', async () => {
		const d = child('child-d');
		await waitFor(
			'the frozen-to-be replica leads',
			20_000,
			() =>
				d.events.some((e) => e.event === 'lead' && e.epoch !== undefined) &&
				d.events.some((e) => e.event === 'act'),
		);
		const oldEpoch = d.events.filter((e) => e.event === 'lead').at(-1)!.epoch!;
		const b = replica('b2');
		const c = replica('c2');
		await sleep(1_000);
		expect(leading([b, c])).toEqual([]);

		d.process.kill('SIGSTOP');
		const took = await waitFor(
			'a new leader after SIGSTOP',
			30_000,
			() => leading([b, c]).length > 0,
		);
		expect(leading([b, c])).toHaveLength(1);
		const newLeader = leading([b, c])[0];
		expect(newLeader.leadership.epoch()).toBe(oldEpoch + 1);
		// The new leader acts: fenced writes with its epoch pass.
		const store = await fencedStore(newLeader.leadership);
		await store.transaction((tx) =>
			tx.run(
				"INSERT INTO test_acts (epoch, holder, at) VALUES (?, 'new', clock_timestamp())",
				newLeader.leadership.epoch()!,
			),
		);

		const before = d.events.length;
		d.process.kill('SIGCONT');
		await waitFor('the woken leader steps down', 10_000, () =>
			d.events.slice(before).some((e) => e.event === 'stepdown'),
		);
		await sleep(1_000);
		const woken = d.events.slice(before);
		expect(woken.filter((e) => e.event === 'act' && e.epoch === oldEpoch)).toEqual([]);
		expect(woken.some((e) => e.event === 'refused' && e.name === 'FencedOut')).toBe(true);
		// Fenced in the database too: no act of the old epoch after the new one's.
		const { epochs } = await actsInEpochOrder();
		const firstNew = epochs.indexOf(oldEpoch + 1);
		expect(firstNew).toBeGreaterThanOrEqual(0);
		expect(epochs.slice(firstNew).filter((e) => e < oldEpoch + 1)).toEqual([]);
		expect(leading([b, c])).toEqual([newLeader]);
		process.stdout.write(`leadership test: failover after SIGSTOP took ${took} ms\n`);
	}, 90_000);

	it('an old leader frozen in the middle of a transaction (the lease row held FOR SHARE) does not block the take-over', async () => {
		const d = child('child-frozen-mid-transaction');
		await waitFor('the child leads', 20_000, () => d.events.some((e) => e.event === 'lead'));
		const oldEpoch = d.events.find((e) => e.event === 'lead')!.epoch!;
		// The old leader's store transaction, begun and fenced just before it froze.
		const stuck = await connect();
		let stuckEnded = false;
		stuck.on('error', () => (stuckEnded = true));
		await stuck.query('BEGIN');
		await stuck.query('SELECT epoch FROM leader_lease WHERE id = 1 FOR SHARE');
		d.process.kill('SIGSTOP');
		const b = replica('b3');
		await waitFor('b takes over', 30_000, () => b.leadership.isLeader());
		expect(b.leadership.epoch()).toBe(oldEpoch + 1);
		await waitFor('the frozen transaction is ended', 5_000, () => stuckEnded);
	}, 60_000);

	it('an old epoch is refused by the fence, and assertLeading throws once the lease is lost', async () => {
		const e = replica('e');
		await waitFor('e leads', 10_000, () => e.leadership.isLeader());
		const epoch = e.leadership.assertLeading();
		const admin = await connect();
		// Another replica took over behind e's back (what the fence exists for).
		await admin.query('UPDATE leader_lease SET epoch = epoch + 1');
		const store = await fencedStore(e.leadership);
		await expect(
			store.transaction((tx) =>
				tx.run("UPDATE watermarks SET value = 'stale' WHERE name = 'none'"),
			),
		).rejects.toThrow(FencedOut);
		await waitFor('e steps down', 10_000, () => e.stepDowns.length > 0);
		expect(() => e.leadership.assertLeading()).toThrow(FencedOut);
		expect(e.leader).toBe(false);
		await waitFor('e leads again with a newer epoch', 10_000, () => e.leadership.isLeader());
		expect(e.leadership.epoch()).toBe(epoch + 2);
	}, 40_000);

	it('PostgreSQL restarted: nobody crashes, leadership comes back, never two leaders', async () => {
		const f = replica('f');
		const g = replica('g');
		await waitFor('one of two leads', 10_000, () => leading([f, g]).length === 1);
		let two = false;
		const watch = setInterval(() => (two ||= leading([f, g]).length > 1), 20);
		try {
			server().stopServer();
			server().startServer();
			await waitFor(
				'a leader after the restart',
				20_000,
				() => leading([f, g]).length === 1 && f.stepDowns.length + g.stepDowns.length > 0,
			);
			await sleep(3_000);
			expect(leading([f, g])).toHaveLength(1);
		} finally {
			clearInterval(watch);
		}
		expect(two).toBe(false);
		expect(f.stepDowns.concat(g.stepDowns).join('\n')).toMatch(
			/connection to the database was lost|could not be renewed/,
		);
	}, 60_000);

	it("/metrics: drive_bot_leader is this process's gauge, drive_bot_leader_changes_total only grows; /readyz tells who leads", async () => {
		const metric = async (name: string) =>
			Number(new RegExp(`^${name} (\\d+)`, 'm').exec(await registry.metrics())?.[1]);
		const changesBefore = await metric('drive_bot_leader_changes_total');
		const h = startLeadership({
			connection: { connectionString: server().url() },
			holder: 'h',
			logger: quiet,
			onLead: () => undefined,
			onStepDown: () => undefined,
		});
		try {
			const readiness = new Readiness();
			readiness.register('leadership', leadershipCheck(h));
			await waitFor('h leads', 10_000, () => h.isLeader());
			expect(await metric('drive_bot_leader')).toBe(1);
			expect(await metric('drive_bot_leader_changes_total')).toBe(changesBefore + 1);
			expect((await readiness.evaluate()).checks.leadership.detail).toBe(
				`leader (epoch ${h.epoch()})`,
			);
		} finally {
			await h.close();
		}
		expect(await metric('drive_bot_leader')).toBe(0);
		expect(await metric('drive_bot_leader_changes_total')).toBe(changesBefore + 1);
	}, 30_000);

	it('/readyz: the database unreachable, or its schema newer than this bot, each said without the password', async () => {
		const schemaVersion = (url: string) => async () => {
			const client = new Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
			client.on('error', () => undefined);
			try {
				await client.connect();
				const { rows } = await client.query<{ v: number }>(
					'SELECT max(version) AS v FROM schema_version',
				);
				return Number(rows[0].v);
			} finally {
				await client.end().catch(() => undefined);
			}
		};
		const readiness = new Readiness();
		readiness.register('database', databaseCheck(schemaVersion(server().url()), BOT_SCHEMA.latest));
		let report = await readiness.evaluate();
		expect(report.ready).toBe(true);
		expect(report.checks.database.detail).toBe(
			`database reachable, schema version ${BOT_SCHEMA.latest}`,
		);

		const admin = await connect();
		await admin.query(
			"INSERT INTO schema_version (version, description, applied_at) VALUES ($1, 'from a newer bot', 0)",
			[BOT_SCHEMA.latest + 1],
		);
		try {
			report = await readiness.evaluate();
			expect(report.ready).toBe(false);
			expect(report.checks.database.detail).toMatch(
				/^schema newer than this bot: the database is at version \d+, this bot knows \d+/,
			);
		} finally {
			await admin.query('DELETE FROM schema_version WHERE version = $1', [BOT_SCHEMA.latest + 1]);
		}

		const unreachable = server().url().replace(`:${server().port}/`, ':1/');
		readiness.register('database', databaseCheck(schemaVersion(unreachable), BOT_SCHEMA.latest));
		report = await readiness.evaluate();
		expect(report.ready).toBe(false);
		expect(report.checks.database.detail).toMatch(/^database unreachable \(ECONNREFUSED\): /);
		expect(JSON.stringify(report)).not.toContain(server().password);
		expect(JSON.stringify(report)).not.toContain(encodeURIComponent(server().password));
	}, 30_000);
});
