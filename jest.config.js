/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  // Node programs install the core's timers and HTTP transport (shared/runtime); so do the tests.
  setupFiles: ['<rootDir>/shared/runtime/node.ts'],
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2023' }, module: { type: 'commonjs' } }] },
  testTimeout: 60000,
  maxWorkers: 2,
  // A test file that leaves a socket or timer open is a bug: fail loudly instead of hanging CI.
  detectOpenHandles: false,
  forceExit: false,
};
