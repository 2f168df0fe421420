// `npm run lint` checks the direction of imports and that nothing imports in a cycle, with dependency-cruiser
// (depcruise): over bot/, shared/, nodes/, credentials/, n8n-push/ and simulator/, type-only imports included.
//
// The bot's folders show who runs what (docs/architecture.md): bot/kernel is the shared vocabulary; bot/state the
// SQL interface and stores' plumbing; bot/cluster what replicas share (leadership, the fence, Slack payload claims);
// bot/features what every replica reads and enqueues; bot/leader what only the leader runs; bot/app composes them.

/**
 * Import cycles that exist outside the bot today, each left to its owner's change: every other cycle fails.
 * Files: shared/push/index.ts <-> shared/push/listen.ts. Folders: simulator/http with simulator/files and
 * simulator/api; shared/core with shared/transport and shared/auth (and shared/auth -> shared/transport); and
 * nodes/DriveMonitoring/actions <-> nodes/DriveMonitoring/helpers.
 */
const KNOWN_FILE_CYCLES = {
	'^shared/push/index\\.ts$': '^shared/push/listen\\.ts$',
	'^shared/push/listen\\.ts$': '^shared/push/index\\.ts$',
};
const KNOWN_FOLDER_CYCLES = {
	'^simulator/http$': '^simulator/(files|api)$',
	'^simulator/files$': '^simulator/http$',
	'^simulator/api$': '^simulator/http$',
	'^shared/core$': '^shared/(transport|auth)$',
	'^shared/transport$': '^shared/core$',
	'^shared/auth$': '^shared/(core|transport)$',
	'^nodes/DriveMonitoring/helpers$': '^nodes/DriveMonitoring/actions$',
	'^nodes/DriveMonitoring/actions$': '^nodes/DriveMonitoring/helpers$',
};

const any = (patterns) => `(${patterns.map((p) => p.replace(/^\^|\$$/g, '')).join('|')})`;
const exact = (patterns) => `^${any(patterns)}$`;

/** One rule for every `from` outside the known cycles, and one per known member, allowing only its known partner. */
function cycleRules(name, comment, known, scope) {
	return [
		{
			name,
			comment,
			severity: 'error',
			...(scope ? { scope } : {}),
			from: { pathNot: exact(Object.keys(known)) },
			to: { circular: true },
		},
		...Object.entries(known).map(([member, partners]) => ({
			name,
			comment: `${comment} (a known cycle of ${member} is allowed, no other)`,
			severity: 'error',
			...(scope ? { scope } : {}),
			from: { path: member },
			to: { circular: true, pathNot: partners },
		})),
	];
}

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
		...cycleRules(
			'no-file-cycle',
			'Files must not import each other in a cycle.',
			KNOWN_FILE_CYCLES,
		),
		...cycleRules(
			'no-folder-cycle',
			'Folders must not import each other in a cycle.',
			KNOWN_FOLDER_CYCLES,
			'folder',
		),
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
