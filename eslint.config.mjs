// n8n's community-node lint config (the one `npm create @n8n/node` ships), applied to the whole
// package, with the exceptions below. Each exception is justified in the README ("Lint").
import { configWithoutCloudSupport } from '@n8n/node-cli/eslint';

const notNodeCode = ['shared/**/*.ts', 'bot/**/*.ts', 'simulator/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'];

export default [
  ...configWithoutCloudSupport,
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '**/*.js', '**/*.mjs'] },
  {
    // The pack ships a Slack bot, a simulator and an API core beside the nodes, so it has runtime
    // dependencies (zod, undici, rhea, mqtt, @slack/bolt). n8n Cloud's verified-package rule forbids
    // them; self-hosted community installs resolve them with npm.
    files: ['package.json'],
    rules: { '@n8n/community-nodes/no-runtime-dependencies': 'off' },
  },
  {
    // Only nodes/ and credentials/ run inside n8n. The bot, simulator, tests and benchmarks are
    // command-line programs: they print to the console and use timers as any Node program does.
    files: notNodeCode,
    rules: {
      'no-console': 'off',
      '@n8n/community-nodes/no-restricted-globals': 'off',
      '@n8n/community-nodes/no-restricted-imports': 'off',
    },
  },
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
];
