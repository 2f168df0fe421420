// The bot suite again, on the shared store: every bot test through a private PostgreSQL 15 (Debian's package)
// that postgres-global.ts starts on 127.0.0.1 for the run and stops after it. Tests of one store's own
// mechanics (SQLite file upgrades, the PostgreSQL store and lease tests) run once, in the main run.
const base = require('../../jest.config.js');

/** @type {import('jest').Config} */
module.exports = {
	...base,
	rootDir: '../..',
	displayName: 'bot on PostgreSQL',
	testMatch: ['<rootDir>/test/bot/**/*.test.ts', '<rootDir>/test/brokers/bot.test.ts'],
	testPathIgnorePatterns: [
		'/node_modules/',
		'sqlite-store',
		'postgres-store',
		'migrate',
		'replicas',
		'lease',
		'slack-once',
		'database-url',
		'postgres-outage',
		'leader-env',
		'fenced-delivery',
		// The test Slack server and the installation modules use no store.
		'slack-workspaces',
		'slack-oauth',
		'features/installations',
	],
	globalSetup: '<rootDir>/test/bot/postgres-global.ts',
	globalTeardown: '<rootDir>/test/bot/postgres-global-teardown.ts',
};
