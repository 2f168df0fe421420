// Lint config of the code that is NOT part of the n8n pack: the bot, the simulator, tests,
// benchmarks, scripts, the push companion's broker code and the Node-only core modules. It is
// n8n's community-node config without the n8n Cloud rules, plus the
// exceptions ordinary Node programs need. Each folder's own eslint.config.mjs uses it;
// `npm run lint` runs ESLint with config lookup from each file, so the root eslint.config.mjs
// stays n8n's template unmodified (what `n8n-node lint` checks in strict mode) and governs the
// pack: package.json, nodes/, credentials/ and the shared/ modules the nodes import.
import { configWithoutCloudSupport } from '@n8n/node-cli/eslint';

// Each such file that n8n's template config would flag names the n8n Cloud rules it is exempt
// from in a header comment, so a bare `npx n8n-node lint` at the root (the template over the whole
// tree, no ESLint flag) passes too. Here those rules are off already, so the headers suppress
// nothing: not a finding.
const quietHeaders = { reportUnusedDisableDirectives: 'off' };

const nodeProgramRules = {
	'no-console': 'off',
	'@n8n/community-nodes/no-restricted-globals': 'off',
	'@n8n/community-nodes/no-restricted-imports': 'off',
	'@typescript-eslint/no-unused-vars': [
		'error',
		{ argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
	],
};

/** For a folder of Node programs: every TypeScript file is Node code; its package.json is not an n8n package. */
export function nodeProgramsConfig() {
	return [
		...configWithoutCloudSupport.filter((entry) => !(entry.files ?? []).includes('package.json')),
		{ files: ['**/*.ts'], rules: nodeProgramRules, linterOptions: quietHeaders },
	];
}

/** For a folder of the pack's core (shared/...): the template's rules, relaxed only for the named Node-only files. */
export async function packFolderConfig(nodeOnlyFiles) {
	const { config } = await import('@n8n/node-cli/eslint');
	return [
		...config,
		{ files: nodeOnlyFiles, rules: nodeProgramRules, linterOptions: quietHeaders },
	];
}

export { nodeProgramRules };
