/** @type {import('jest').Config} */
module.exports = {
  // jest's node environment, plus the worker's process warnings (see test/helpers/no-process-warnings.ts).
  testEnvironment: '<rootDir>/test/helpers/warning-environment.ts',
  // Node programs install the core's timers and HTTP transport (shared/runtime); so do the tests.
  setupFiles: ['<rootDir>/shared/runtime/node.ts'],
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2023' }, module: { type: 'commonjs' } }] },
  testTimeout: 60000,
  // The core's and the node's tests fail on any process warning (issue 13).
  setupFilesAfterEnv: ['<rootDir>/test/helpers/no-process-warnings.ts'],
  maxWorkers: 2,
  // A test file that leaves a socket or timer open is a bug: fail loudly instead of hanging CI.
  detectOpenHandles: false,
  forceExit: false,
};
