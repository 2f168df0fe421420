import type { ICredentialsDecrypted, IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';
import { createClient, DEFAULT_DEADLINE_MS, type DriveMonitoringClient } from '../../../shared';
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
	return createClient({ ...credentials, authenticatedTransport, transport, signal, deadlineMs: callDeadlineMs(this), concurrency: options.concurrency });
}

/**
 * The workflow's own timeout (Workflow Settings > Timeout Workflow, in seconds) bounds each call
 * too: no call outlives the workflow. Without it, the core's default deadline applies.
 */
function callDeadlineMs(context: IExecuteFunctions | ILoadOptionsFunctions): number {
	const seconds = Number(context.getWorkflowSettings?.()?.executionTimeout);
	return Number.isFinite(seconds) && seconds > 0 ? Math.min(DEFAULT_DEADLINE_MS, seconds * 1000) : DEFAULT_DEADLINE_MS;
}
