/**
 * The V8 flags the bot runs with: the shebang of bot/cli.ts (the installed `drive-monitoring-bot`
 * command), `npm start`, and the scale benchmark, which runs the bot as they do.
 *
 * Why: under polling the bot allocates steadily (about 2 MiB/s at 10,000 assets) while its live
 * heap stays near 35 MiB. Node's default young generation then grows to two 64 MiB semi-spaces,
 * which alone made about half of the process's RSS (measured: 128 MiB new space, 43 MiB old
 * space). Capped at 8 MiB each, the young generation stays at 16 MiB: scavenges come twice as
 * often as at 16 MiB (one every 2.4 s) but take 2 ms (p50; p95 4 ms) instead of 7 (p95 19), so
 * less time in all; the live heap after mark-compact stays the same (31 to 35 MiB); and
 * the RSS peak of a 30-minute poll soak at 10,000 assets fell from 179 to 166 MiB (push at 10,000
 * assets: 150 to 138 MiB).
 */
export const BOT_NODE_FLAGS = ['--max-semi-space-size=8'] as const;

/** The flags of BOT_NODE_FLAGS the process was started without (command line or NODE_OPTIONS). */
export function missingNodeFlags(execArgv: readonly string[], nodeOptions = ''): string[] {
	const given = [...execArgv, ...nodeOptions.split(/\s+/)].map((flag) =>
		flag.split('=')[0].replace(/_/g, '-'),
	);
	return BOT_NODE_FLAGS.filter((flag) => !given.includes(flag.split('=')[0]));
}
