import type { ICredentialsDecrypted, IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';
import { createClient, DEFAULT_DEADLINE_MS, formatDuration, type DriveMonitoringClient } from '../../../shared';
import { apiCredentialsOf } from './credentials';
import { n8nTransport } from './n8nTransport';

export type { DriveMonitoringClient };

export const CREDENTIAL_TYPE = 'driveMonitoringApi';

/**
 * The core client for one node execution. Requests go through n8n's
 * httpRequestWithAuthentication: n8n runs the credential's preAuthentication (token) and
 * authenticate (bearer header) and refreshes the token on a 401, so the core holds no token here.
 */
export async function createNodeClient(this: IExecuteFunctions | ILoadOptionsFunctions, options: { concurrency?: number } = {}): Promise<DriveMonitoringClient> {
	const data = await this.getCredentials(CREDENTIAL_TYPE);
	const credentials = apiCredentialsOf(data);
	// Every request of this execution hands n8n the credential decrypted once here: without it, n8n
	// reads the credential from its database and decrypts it again for each request (a fifth of
	// the node's CPU per item in bench:n8n). n8n writes a fetched or refreshed token into this same
	// object, so the requests after it use the new token.
	const stored = this.getNode().credentials?.[CREDENTIAL_TYPE];
	const credentialsDecrypted: ICredentialsDecrypted = { id: stored?.id ?? '', name: stored?.name ?? '', type: CREDENTIAL_TYPE, data };
	const authenticatedTransport = n8nTransport(
		async (request) => await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, request, { credentialsDecrypted }),
	);
	// Temporary download links must not carry the bearer token: they go through n8n's plain helper.
	const transport = n8nTransport(async (options) => await this.helpers.httpRequest(options));
	const signal = 'getExecutionCancelSignal' in this ? this.getExecutionCancelSignal() : undefined;
	const { deadlineMs, deadlineSetting } = callDeadline(this);
	return createClient({ ...credentials, authenticatedTransport, transport, signal, deadlineMs, deadlineSetting, concurrency: options.concurrency });
}

/**
 * Each call's deadline (a ranged read of many requests is one call): the workflow's own timeout
 * (Workflow Settings > Timeout Workflow, in seconds) when it is on, so no call outlives the
 * workflow and a long read can be given more time there; the core's 90 s otherwise. A deadline
 * error names that setting as the way to allow more time.
 */
function callDeadline(context: IExecuteFunctions | ILoadOptionsFunctions): { deadlineMs: number; deadlineSetting: string } {
	const seconds = Number(context.getWorkflowSettings?.()?.executionTimeout);
	if (Number.isFinite(seconds) && seconds > 0) {
		return { deadlineMs: seconds * 1000, deadlineSetting: `raise Timeout Workflow in the workflow settings (now ${formatDuration(seconds * 1000)})` };
	}
	return {
		deadlineMs: DEFAULT_DEADLINE_MS,
		deadlineSetting: `turn on Timeout Workflow in the workflow settings and set it above ${formatDuration(DEFAULT_DEADLINE_MS)} (without it, each request of this node may take ${formatDuration(DEFAULT_DEADLINE_MS)})`,
	};
}
