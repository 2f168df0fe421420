/**
 * The V8 flags the bot runs with: the shebang of bot/cli.ts (the installed `drive-monitoring-bot`
 * command), `npm start`, and the scale benchmark, which runs the bot as they do.
 *
 * Why: under polling the bot allocates steadily (about 2 MiB/s at 10,000 assets) while its live
 * heap stays near 45 MiB. Node's default young generation then grows to two 64 MiB semi-spaces,
 * which alone made about half of the process's RSS (measured: 128 MiB new space, 43 MiB old
 * space). Capped at 16 MiB each, the young generation stays at 32 MiB; scavenges get more
 * frequent, the old space stays the same size.
 */
export const BOT_NODE_FLAGS = ['--max-semi-space-size=16'] as const;

/** The flags of BOT_NODE_FLAGS the process was started without (command line or NODE_OPTIONS). */
export function missingNodeFlags(execArgv: readonly string[], nodeOptions = ''): string[] {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)].map((flag) => flag.split('=')[0].replace(/_/g, '-'));
  return BOT_NODE_FLAGS.filter((flag) => !given.includes(flag.split('=')[0]));
}
