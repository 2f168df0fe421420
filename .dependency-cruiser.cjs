// `npm run lint` checks the direction of imports and that nothing imports in a cycle, with dependency-cruiser
// (depcruise): over bot/, shared/, nodes/, credentials/, n8n-push/ and simulator/, type-only imports included.
//
// The bot's folders show who runs what (docs/architecture.md): bot/kernel is the shared vocabulary; bot/state the
// SQL interface and stores' plumbing; bot/cluster what replicas share (leadership, the fence, Slack payload claims);
// bot/features what every replica reads and enqueues; bot/leader what only the leader runs; bot/app composes them.

/** Nothing may import in a cycle: neither a file through other files, nor a folder through other folders. */
const noCycle = (name, comment, scope) => ({
	name,
	comment,
	severity: 'error',
	...(scope ? { scope } : {}),
	from: {},
	to: { circular: true },
});

/** `from` folders of the bot that must not import `to` folders. */
const direction = (name, comment, from, to, toNot) => ({
	name,
	comment,
	severity: 'error',
	from: { path: from },
	to: { path: to, ...(toNot ? { pathNot: toNot } : {}) },
});

module.exports = {
	forbidden: [
		noCycle('no-file-cycle', 'Files must not import each other in a cycle.'),
		noCycle('no-folder-cycle', 'Folders must not import each other in a cycle.', 'folder'),
		direction(
			'kernel-imports-nothing',
			"The bot's kernel is the shared vocabulary: it imports nothing of the bot.",
			'^bot/kernel/',
			'^bot/',
			'^bot/kernel/',
		),
		direction(
			'state-knows-no-feature',
			'The state is storage plumbing: it knows no feature, no leadership and no front.',
			'^bot/state/',
			'^bot/(features|leader|app|cluster|listeners|slack|terminal|blocks|cli)/',
		),
		direction(
			'cluster-knows-no-feature',
			'What replicas share (leadership, fence, payload claims) knows no feature and no front.',
			'^bot/cluster/',
			'^bot/(features|leader|app|listeners|slack|terminal|blocks|cli)/',
		),
		direction(
			'features-not-leader',
			"Features are what every replica runs: they may not use the leader's code, the app, the Slack listeners or fronts, nor how messages look.",
			'^bot/features/',
			'^bot/(leader|app|listeners|slack|terminal|blocks|cli)/',
		),
		direction(
			'leader-not-front',
			"The leader's code uses features, never the app or the fronts that answer Slack.",
			'^bot/leader/',
			'^bot/(app|listeners|slack|terminal|cli)/',
		),
		direction(
			'app-is-the-top',
			'Only the program (bot/cli.ts, bot/cli/) starts the app.',
			'^bot/(?!app/|cli/|cli\\.ts$)',
			'^bot/app/',
		),
	],
	options: {
		tsPreCompilationDeps: true,
		tsConfig: { fileName: 'tsconfig.json' },
		doNotFollow: { path: 'node_modules' },
		exclude: { path: '(^|/)(node_modules|dist)/|\\.test\\.ts$' },
		includeOnly: '^(bot|shared|nodes|credentials|n8n-push|simulator)/',
	},
};
