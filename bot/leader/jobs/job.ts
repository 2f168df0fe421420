/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
/** A leader's job: started when this replica starts to lead, stopped when it stops. */
export interface Job {
	/** No run starts any more; resolves once the run under way (if any) has ended. */
	stop(): Promise<void>;
}

/**
 * Runs `run` every `everyMs` (and once at the start with `atStart`), one run at a time: a slow database or platform
 * never stacks runs up. `run` is given `stopped`, which turns true once the job is stopped, so a long run can end
 * early. A run's failure goes to `failed`; the next run comes as usual.
 */
export function repeat(
	everyMs: number,
	run: (stopped: () => boolean) => Promise<unknown>,
	failed: (error: unknown) => void,
	options: { atStart?: boolean } = {},
): Job {
	let stopped = false;
	let running: Promise<void> | undefined;
	const tick = () => {
		if (stopped) return;
		running ??= run(() => stopped)
			.then(
				() => undefined,
				(error: unknown) => failed(error),
			)
			.finally(() => (running = undefined));
	};
	if (options.atStart) tick();
	const timer = setInterval(tick, everyMs);
	timer.unref();
	return {
		async stop() {
			stopped = true;
			clearInterval(timer);
			await running;
		},
	};
}
