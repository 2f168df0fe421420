/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test code, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import { existsSync } from 'node:fs';
import { fakeSlackToken } from './helpers';
import { startTestBot } from './harness';
import { useFixture } from './use-fixture';

// The bot suite runs twice: on SQLite state files, and with DRIVE_TEST_STORE=postgres on a private
// PostgreSQL. This makes sure each run is on the store it claims, and that with PostgreSQL no file is written.
const botToken = fakeSlackToken('b');

describe('the store this run is about', () => {
	const f = useFixture(botToken, { push: false });

	test('the bot keeps its state where the run says, and only there', async () => {
		const { sim, slack, logger, state, lines } = f;
		f.bot = await startTestBot({
			sim,
			slackApiUrl: slack.apiUrl,
			botToken,
			stateFile: state.file,
			logger,
		});
		const expected = process.env.DRIVE_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';
		expect(f.bot.database.dialect).toBe(expected);
		expect(existsSync(state.file)).toBe(expected === 'sqlite');
		const started = lines.find((line) => line.includes('state in'));
		expect(started).toContain(
			expected === 'postgres' ? 'postgres://drive_bot:***@127.0.0.1:' : state.file,
		);
		if (expected === 'postgres') expect(lines.join('\n')).not.toMatch(/drive_bot:[^*]/);
	});
});
