/** @type {import('jest').Config} */
module.exports = {
	// jest's node environment, plus the worker's process warnings (see test/helpers/no-process-warnings.ts).
	testEnvironment: '<rootDir>/test/helpers/warning-environment.ts',
	// Node programs install the core's timers and HTTP transport (shared/runtime); so do the tests.
	setupFiles: ['<rootDir>/shared/runtime/node.ts'],
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2023' }, module: { type: 'commonjs' } }],
	},
	testTimeout: 60000,
	// The core's and the node's tests fail on any process warning.
	setupFilesAfterEnv: ['<rootDir>/test/helpers/no-process-warnings.ts'],
	maxWorkers: 2,
	// Each test file loads its own n8n-core and n8n-workflow, and some of every copy stays in the
	// worker (about 20 MiB a file). A worker that ran many of them holds some 600 MiB, which this
	// kind of 2-core VM takes longer than jest's 500 ms to hand back when the worker exits, and jest
	// then reports "a worker process has failed to exit gracefully" although nothing was left open
	// (every worker reached its 'exit' event within 80 ms). Recycling a worker once its heap passes
	// 150 MB is jest's own remedy for this; it costs about a minute of the run.
	workerIdleMemoryLimit: '150MB',
	// A test file that leaves a socket or timer open is a bug: fail loudly instead of hanging CI.
	detectOpenHandles: false,
	forceExit: false,
};
