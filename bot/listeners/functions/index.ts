/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../deps';
import { registerAcknowledgeSteps } from './acknowledge';
import { registerAssetStatusStep } from './asset-status';
import { registerOpenFaultsStep } from './open-faults';
import { registerReportStep } from './report';
import { STEP_LIMITS } from './run';

/** The Workflow Builder steps the manifest declares (`functions`), one listener each. */
export function registerFunctions(app: App, deps: ListenerDeps): void {
	const limits = { ...STEP_LIMITS, ...deps.stepLimits };
	registerAssetStatusStep(app, deps, limits);
	registerOpenFaultsStep(app, deps, limits);
	registerAcknowledgeSteps(app, deps, limits);
	registerReportStep(app, deps, limits);
}
