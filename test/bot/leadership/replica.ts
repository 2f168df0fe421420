/* eslint-disable @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// Started by child.js: one replica's leadership. Every 100 ms it "acts" as a leader would before a Slack call:
// assertLeading(), then a transaction of the bot's PostgreSQL store (fenced by FencedDatabase) that records the act with its epoch and the database's time.
import { BOT_SCHEMA } from '../../../bot/app/schema';
import { databaseSettings } from '../../../bot/state/database-url';
import { startLeadership } from '../../../bot/cluster/leadership';
import { PostgresDatabase } from '../../../bot/state/postgres';
import { FencedDatabase } from '../../../bot/cluster/fence';

const report = (event: Record<string, unknown>): void =>
	void process.stdout.write(`${JSON.stringify(event)}\n`);
const url = process.env.LEADERSHIP_TEST_URL ?? '';
const holder = process.env.LEADERSHIP_TEST_HOLDER ?? 'child';
const quiet = {
	debug: () => undefined,
	info: () => undefined,
	warn: () => undefined,
	error: () => undefined,
};

async function main(): Promise<void> {
	const db = new FencedDatabase(
		await PostgresDatabase.open(databaseSettings({ DRIVE_BOT_DATABASE_URL: url })!, BOT_SCHEMA),
	);
	const leadership = startLeadership({
		connection: { connectionString: url },
		holder,
		logger: quiet,
		metrics: { setLeader: () => undefined, leaderChanged: () => undefined },
		onLead: (epoch) => report({ event: 'lead', epoch }),
		onStepDown: (reason) => report({ event: 'stepdown', reason }),
	});
	db.fenceWith((tx) => leadership.fence(tx));
	let acting = false;
	let acted = false;
	setInterval(() => {
		if (acting) return;
		acting = true;
		let epoch: number;
		try {
			epoch = leadership.assertLeading();
		} catch (error) {
			// Reported once per lost leadership: the act a leader woken from a pause would have made.
			if (acted) report({ event: 'refused', by: 'assertLeading', name: (error as Error).name });
			acted = false;
			acting = false;
			return;
		}
		db.transaction((tx) =>
			tx.run(
				'INSERT INTO test_acts (epoch, holder, at) VALUES (?, ?, clock_timestamp())',
				epoch,
				holder,
			),
		)
			.then(() => {
				acted = true;
				report({ event: 'act', epoch });
			})
			.catch((error: Error) => report({ event: 'refused', by: 'fence', name: error.name }))
			.finally(() => (acting = false));
	}, 100);
	report({ event: 'started' });
}

void main();
