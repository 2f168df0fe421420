import type {
	ICredentialsDecrypted,
	IExecuteFunctions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';
import {
	createClient,
	DEFAULT_DEADLINE_MS,
	formatDuration,
	type DriveMonitoringClient,
} from '../../../shared';
import { apiCredentialsOf } from './credentials';
import { n8nTransport } from './n8nTransport';

export type { DriveMonitoringClient };

export const CREDENTIAL_TYPE = 'driveMonitoringApi';

type NodeContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

/**
 * The core client for one node execution, one editor lookup or one poll of the trigger. Requests
 * go through n8n's httpRequestWithAuthentication: n8n runs the credential's preAuthentication
 * (token) and authenticate (bearer header) and refreshes the token on a 401, so the core holds no
 * token here.
 */
export async function createNodeClient(
	this: NodeContext,
	options: {
		concurrency?: number;
		/** The core's deadline, not one drawn from the workflow's timeout: for a poll, which is no execution. */
		coreDeadline?: boolean;
	} = {},
): Promise<DriveMonitoringClient> {
	const data = await this.getCredentials(CREDENTIAL_TYPE);
	const credentials = apiCredentialsOf(data);
	// Every request of this execution hands n8n the credential decrypted once here: without it, n8n
	// reads the credential from its database and decrypts it again for each request (a fifth of
	// the node's CPU per item in bench:n8n). n8n writes a fetched or refreshed token into this same
	// object, so the requests after it use the new token.
	const stored = this.getNode().credentials?.[CREDENTIAL_TYPE];
	const credentialsDecrypted: ICredentialsDecrypted = {
		id: stored?.id ?? '',
		name: stored?.name ?? '',
		type: CREDENTIAL_TYPE,
		data,
	};
	const authenticatedTransport = n8nTransport(
		async (request) =>
			await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, request, {
				credentialsDecrypted,
			}),
	);
	// Temporary download links must not carry the bearer token: they go through n8n's plain helper.
	const transport = n8nTransport(async (options) => await this.helpers.httpRequest(options));
	const signal = 'getExecutionCancelSignal' in this ? this.getExecutionCancelSignal() : undefined;
	const { deadlineMs, deadlineSetting } = options.coreDeadline
		? { deadlineMs: undefined, deadlineSetting: false as const }
		: callDeadline(this);
	return createClient({
		...credentials,
		authenticatedTransport,
		transport,
		signal,
		deadlineMs,
		deadlineSetting,
		concurrency: options.concurrency,
	});
}

/**
 * Each call's deadline (a ranged read of many requests is one call). With the workflow's own
 * timeout on (Workflow Settings > Timeout Workflow, in seconds), 90% of it: n8n cancels the
 * execution at that timeout, so the call ends first, with its own error saying what ran out and
 * where to allow more; a long read can be given more time there, also above the 90 s default.
 * Without it, the core's 90 s.
 */
function callDeadline(context: NodeContext): {
	deadlineMs: number;
	deadlineSetting: string;
} {
	const seconds = Number(context.getWorkflowSettings?.()?.executionTimeout);
	if (Number.isFinite(seconds) && seconds > 0) {
		return {
			deadlineMs: seconds * 1000 * WORKFLOW_SHARE,
			deadlineSetting: `raise Timeout Workflow in the workflow settings (now ${formatDuration(seconds * 1000)}, of which a call of this node gets 90%)`,
		};
	}
	return {
		deadlineMs: DEFAULT_DEADLINE_MS,
		deadlineSetting: `turn on Timeout Workflow in the workflow settings with more than ${formatDuration(DEFAULT_DEADLINE_MS / WORKFLOW_SHARE)} (without it, each call of this node, a long time range included, has ${formatDuration(DEFAULT_DEADLINE_MS)})`,
	};
}

/** The share of the workflow's timeout a call gets, so that it ends before n8n cancels the execution. */
const WORKFLOW_SHARE = 0.9;
