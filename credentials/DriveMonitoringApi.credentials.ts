import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';
import { fetchAccessToken } from '../shared/auth/token';
import { n8nTransport } from '../nodes/DriveMonitoring/transport/n8nTransport';
import { apiCredentialsOf } from '../nodes/DriveMonitoring/transport/credentials';

/**
 * Drive Monitoring API: an OAuth 2.0 client-credentials token from
 * `{authUrl}/{tenantId}/oauth2/v2.0/token`, sent as a bearer token.
 *
 * Why preAuthentication with a hidden expirable `accessToken`, and not n8n's OAuth2 credential:
 * the token request carries a field n8n's OAuth2 client cannot send (`Type=oauth2`), its URL is
 * built from two fields (auth URL and tenant id), and the core's `fetchAccessToken` is the one
 * implementation of the flow (the bot and the simulator tests use it too), with errors that say
 * which part of the credentials was refused. n8n calls preAuthentication when the stored token
 * is empty, stores the result encrypted with the credential so every item and execution reuses
 * it, and when the API answers 401 (token expired or revoked) calls it again with
 * `credentialsExpired` and retries the request once. The token never appears in the UI.
 */
export class DriveMonitoringApi implements ICredentialType {
	name = 'driveMonitoringApi';

	displayName = 'Drive Monitoring API';

	icon: Icon = {
		light: 'file:../nodes/DriveMonitoring/driveMonitoring.svg',
		dark: 'file:../nodes/DriveMonitoring/driveMonitoring.dark.svg',
	};

	documentationUrl = 'https://github.com/n8n-nodes-drive-monitoring/n8n-nodes-drive-monitoring#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com',
			description: 'Address of the Drive Monitoring Open API, without /devcenter/extapi/v1',
		},
		{
			displayName: 'Auth URL',
			name: 'authUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://login.example.com',
			description: 'Address of the token service; the tenant ID and /oauth2/v2.0/token are appended',
		},
		{
			displayName: 'Tenant ID',
			name: 'tenantId',
			type: 'string',
			default: '',
			required: true,
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'From the API access tab of the organization management page',
		},
		{
			displayName: 'API Secret',
			name: 'apiSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'From the API access tab; regenerating it there invalidates the old one',
		},
		{
			displayName: 'API Scope ID',
			name: 'apiScopeId',
			type: 'string',
			default: '',
			required: true,
			description: 'The token is requested for the scope "<API Scope ID>/.default"',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
	];

	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		const transport = n8nTransport(async (options) => await this.helpers.httpRequest(options));
		const token = await fetchAccessToken(apiCredentialsOf(credentials), { transport });
		return { accessToken: token.accessToken };
	}

	// A function rather than the declarative `{ type: 'generic' }` form: the header is the same, but
	// n8n then does not run its expression engine on every request (measured in bench/suites/nodes.ts).
	async authenticate(credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions) {
		requestOptions.headers = { ...requestOptions.headers, Authorization: `Bearer ${String(credentials.accessToken)}` };
		return requestOptions;
	}
}
