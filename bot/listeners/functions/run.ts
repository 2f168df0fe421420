/* eslint-disable @n8n/community-nodes/no-restricted-globals -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { BotLogger } from '../../log';
import { errorText } from '../../log';
import { platformErrorText } from '../../render/errors';

/**
 * How long a step may take before it fails with a sentence instead of holding its workflow:
 * Slack waits for a remote step until it completes, so the bot sets the limits itself.
 */
export interface StepLimits {
	/** Status, list and acknowledge steps: one platform read or a state change. */
	readMs: number;
	/** Request report: as long as the platform takes to make the PDF (minutes, usually). */
	reportMs: number;
	/** How often the report step looks whether its PDF was posted. */
	reportCheckMs: number;
}

export const STEP_LIMITS: StepLimits = {
	readMs: 45_000,
	reportMs: 60 * 60_000,
	reportCheckMs: 2_000,
};

/** A step's own failure: a sentence for the workflow's person, never a stack. */
export class StepFailure extends Error {}

export type StepOutputs = Record<string, string | number | undefined>;

function seconds(ms: number): string {
	return ms >= 120_000 ? `${Math.round(ms / 60_000)} minutes` : `${Math.round(ms / 1000)} s`;
}

/** The sentence a step fails with when its limit passed. */
export function overLimit(what: string, ms: number): string {
	return `${what} took longer than ${seconds(ms)}, so the step stopped instead of holding up the workflow. The Drive Monitoring platform may be slow or unreachable: run the workflow again in a few minutes, and check \`/drive health\` if it keeps happening.`;
}

/**
 * Runs a step's work within its limit, then completes it with the outputs (undefined ones left
 * out, as Slack wants optional outputs absent) or fails it with one actionable sentence. Bolt
 * has acknowledged the event already (within Slack's 3 s), so the work may take its time.
 */
export async function runStep(
	step: string,
	limitMs: number,
	/** The sentence the step fails with when its limit passes (overLimit's, or the step's own). */
	limitSentence: string,
	work: () => Promise<StepOutputs>,
	finish: {
		complete: (outputs: Record<string, unknown>) => Promise<unknown>;
		fail: (error: string) => Promise<unknown>;
		logger: BotLogger;
	},
): Promise<void> {
	let timer: NodeJS.Timeout | undefined;
	const limit = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new StepFailure(limitSentence)), limitMs);
	});
	const started = Date.now();
	try {
		const outputs = await Promise.race([work(), limit]);
		const present = Object.fromEntries(
			Object.entries(outputs).filter(([, v]) => v !== undefined && v !== ''),
		);
		await finish.complete(present);
		finish.logger.info(`slack: step ${step} completed in ${Date.now() - started} ms`);
	} catch (error) {
		const sentence = error instanceof StepFailure ? error.message : platformErrorText(error);
		finish.logger.warn(
			`slack: step ${step} failed after ${Date.now() - started} ms (${error instanceof StepFailure ? sentence : errorText(error)})`,
		);
		await finish
			.fail(sentence)
			.catch((e: unknown) =>
				finish.logger.error(`slack: failure of step ${step} not delivered (${errorText(e)})`),
			);
	} finally {
		clearTimeout(timer);
	}
}
