import type { IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';
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
export async function createNodeClient(this: IExecuteFunctions | ILoadOptionsFunctions): Promise<DriveMonitoringClient> {
	const credentials = apiCredentialsOf(await this.getCredentials(CREDENTIAL_TYPE));
	const authenticatedTransport = n8nTransport(
		async (options) => await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, options),
	);
	// Temporary download links must not carry the bearer token: they go through n8n's plain helper.
	const transport = n8nTransport(async (options) => await this.helpers.httpRequest(options));
	const signal = 'getExecutionCancelSignal' in this ? this.getExecutionCancelSignal() : undefined;
	return createClient({ ...credentials, authenticatedTransport, transport, signal, deadlineMs: callDeadlineMs(this) });
}

/**
 * The workflow's own timeout (Workflow Settings > Timeout Workflow, in seconds) bounds each call
 * too: no call outlives the workflow. Without it, the core's default deadline applies.
 */
function callDeadlineMs(context: IExecuteFunctions | ILoadOptionsFunctions): number {
	const seconds = Number(context.getWorkflowSettings?.()?.executionTimeout);
	return Number.isFinite(seconds) && seconds > 0 ? Math.min(DEFAULT_DEADLINE_MS, seconds * 1000) : DEFAULT_DEADLINE_MS;
}
