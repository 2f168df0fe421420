// The products installed as their users install them (`npm run test:products`, after
// `npm run pack`): the bot and the simulator from their tarballs into empty folders, started by
// their bins. Kept out of `npm test` (files end in .e2e.ts): they install from the registry.
/** @type {import('jest').Config} */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/products'],
	testMatch: ['**/*.e2e.ts'],
	transform: {
		'^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2023' }, module: { type: 'commonjs' } }],
	},
	setupFiles: ['<rootDir>/shared/runtime/node.ts'],
	maxWorkers: 1,
	testTimeout: 300_000,
};
