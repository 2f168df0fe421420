import type {
	ICredentialDataDecryptedObject,
	ICredentialTestRequest,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
	Icon,
} from 'n8n-workflow';
import '../shared/runtime/n8n';
import { fetchAccessToken, tokenUrl } from '../shared/auth/token';
import { DriveMonitoringError, TransportError, UnexpectedResponseError } from '../shared/errors';
import { API_PREFIX } from '../shared/spec';
import { apiCredentialsOf } from '../nodes/DriveMonitoring/transport/credentials';
import { n8nTransport } from '../nodes/DriveMonitoring/transport/n8nTransport';

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

	documentationUrl =
		'https://github.com/n8n-nodes-drive-monitoring/n8n-nodes-drive-monitoring#credentials';

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
			description:
				'Address of the token service; the tenant ID and /oauth2/v2.0/token are appended',
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
		const apiCredentials = apiCredentialsOf(credentials);
		const problem = credentialProblem(apiCredentials);
		if (problem) throw new DriveMonitoringError(problem);
		// Through n8n's own HTTP helper: proxies, SSRF rules and allowed domains apply to the token too.
		const transport = n8nTransport(async (options) => await this.helpers.httpRequest(options));
		try {
			return { accessToken: (await fetchAccessToken(apiCredentials, { transport })).accessToken };
		} catch (error) {
			// Messages for the credential test and the node: say which field to check. (No `cause`:
			// n8n would show its generic text for a network code found inside it instead.)
			if (error instanceof TransportError) {
				throw new DriveMonitoringError(
					`Cannot reach the auth server at ${tokenUrl(apiCredentials)}: ${networkProblem(error.reason)}. Check the Auth URL and that n8n can reach that host.`,
				);
			}
			if (error instanceof UnexpectedResponseError) {
				throw new DriveMonitoringError(
					`${tokenUrl(apiCredentials)} is not a token endpoint (HTTP ${error.httpStatus}). Check the Auth URL (without the tenant and /oauth2/v2.0/token) and the Tenant ID.`,
				);
			}
			throw error;
		}
	}

	// A function rather than the declarative `{ type: 'generic' }` form: the header is the same, but
	// n8n then does not run its expression engine on every request (measured in bench/suites/nodes.ts).
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	) {
		requestOptions.headers = {
			...requestOptions.headers,
			Authorization: `Bearer ${String(credentials.accessToken)}`,
		};
		return requestOptions;
	}

	// The Test button: n8n runs preAuthentication first (a failed token request shows its own
	// message, naming the refused part: tenant, API key, API secret or scope; or the unreachable
	// auth server), then E1 with the token.
	test: ICredentialTestRequest = {
		request: {
			baseURL: `={{$credentials.baseUrl.trim().replace(/\\/+$/, '')}}${API_PREFIX}`,
			url: '/organization',
			method: 'GET',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The auth server issued a token, but the API refused it. The API Scope ID (or the Tenant ID) probably belongs to another API: use the scope of the Drive Monitoring Open API.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						'The API refused the request (operation forbidden). API access may not be enabled for this organization: ask the platform operator.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'The Base URL does not lead to the Drive Monitoring Open API. Give the address without /devcenter/extapi/v1.',
				},
			},
		],
	};
}

const REQUIRED = [
	['baseUrl', 'Base URL'],
	['authUrl', 'Auth URL'],
	['tenantId', 'Tenant ID'],
	['apiKey', 'API Key'],
	['apiSecret', 'API Secret'],
	['apiScopeId', 'API Scope ID'],
] as const;

/** What is missing or malformed in the fields, in words; undefined when they can be used. */
function credentialProblem(credentials: ReturnType<typeof apiCredentialsOf>): string | undefined {
	const missing = REQUIRED.filter(([key]) => credentials[key] === '').map(([, label]) => label);
	if (missing.length > 0) return `Fill in ${missing.join(', ')}.`;
	for (const [key, label] of [REQUIRED[0], REQUIRED[1]]) {
		if (!/^https?:\/\/[^/\s]+/i.test(credentials[key])) {
			return `${label} "${credentials[key]}" is not an http(s) address such as https://api.example.com.`;
		}
	}
	return undefined;
}

/** A network failure in words (n8n would replace a message holding the bare code by a generic text). */
function networkProblem(reason: string): string {
	if (reason === 'ECONNREFUSED') return 'the connection was refused';
	if (reason === 'ENOTFOUND' || reason === 'EAI_AGAIN') return 'the host name was not found';
	if (/TIMEOUT|TIMEDOUT/.test(reason)) return 'it did not answer in time';
	if (reason === 'ECONNRESET') return 'the connection was reset';
	return 'the network request failed';
}
