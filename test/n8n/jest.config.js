// The real-n8n tests (`npm run test:n8n`): n8n 2.41 installed from the registry, our pack
// installed into it as a community package, workflows run with `n8n execute`, and the editor
// driven in Chromium. Kept out of `npm test` (those files end in .e2e.ts, not .test.ts).
/** @type {import('jest').Config} */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	// Node programs install the core's timers and HTTP transport (shared/runtime); so do the tests.
	setupFiles: ['<rootDir>/shared/runtime/node.ts'],
	roots: ['<rootDir>/test/n8n'],
	testMatch: ['**/*.e2e.ts'],
	transform: {
		'^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2023' }, module: { type: 'commonjs' } }],
	},
	globalSetup: '<rootDir>/test/n8n/global-setup.ts',
	globalTeardown: '<rootDir>/test/n8n/global-teardown.ts',
	// One n8n at a time: the machine has two cores.
	maxWorkers: 1,
	testTimeout: 300_000,
	slowTestThreshold: 60,
};
