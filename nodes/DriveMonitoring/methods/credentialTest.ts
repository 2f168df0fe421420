// The "Test" button of the Drive Monitoring API credential. It takes the two steps every
// execution takes (a token from the auth server, then E1 with it) and, when one fails, says
// which field to fix. A declarative test could only report the HTTP status of the second step.
import type { ICredentialsDecrypted, ICredentialTestFunctions, INodeCredentialTestResult } from 'n8n-workflow';
import { createClient } from '../../../shared';
import { fetchAccessToken, tokenUrl } from '../../../shared/auth/token';
import {
	AuthError,
	DriveMonitoringApiError,
	TransportError,
	UnexpectedResponseError,
} from '../../../shared/errors';
import { defaultTransport } from '../../../shared/transport/default';
import type { Transport } from '../../../shared/transport/types';
import { apiCredentialsOf } from '../transport/credentials';

const REQUIRED: Array<[keyof ReturnType<typeof apiCredentialsOf>, string]> = [
	['baseUrl', 'Base URL'],
	['authUrl', 'Auth URL'],
	['tenantId', 'Tenant ID'],
	['apiKey', 'API Key'],
	['apiSecret', 'API Secret'],
	['apiScopeId', 'API Scope ID'],
];

export async function driveMonitoringApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const credentials = apiCredentialsOf(credential.data ?? {});
	const missing = REQUIRED.filter(([key]) => credentials[key] === '').map(([, label]) => label);
	if (missing.length > 0) return fail(`Fill in ${missing.join(', ')}.`);
	for (const [key, label] of [['baseUrl', 'Base URL'], ['authUrl', 'Auth URL']] as const) {
		if (!/^https?:\/\/[^/\s]+/i.test(credentials[key])) {
			return fail(`${label} "${credentials[key]}" is not an http(s) address such as https://api.example.com.`);
		}
	}

	let accessToken: string;
	try {
		accessToken = (await fetchAccessToken(credentials, { timeoutMs: 15_000 })).accessToken;
	} catch (error) {
		if (error instanceof TransportError) {
			return fail(
				`Cannot reach the auth server at ${tokenUrl(credentials)} (${error.reason}). Check the Auth URL and that n8n can reach that host.`,
			);
		}
		if (error instanceof AuthError) return fail(error.message);
		if (error instanceof UnexpectedResponseError) {
			return fail(
				`${tokenUrl(credentials)} is not a token endpoint (HTTP ${error.httpStatus}). Check the Auth URL (without the tenant and /oauth2/v2.0/token) and the Tenant ID.`,
			);
		}
		return fail(`The token request failed: ${(error as Error).message}`);
	}

	const base = defaultTransport();
	const withToken: Transport = {
		request: async (request) =>
			await base.request({ ...request, headers: { ...request.headers, authorization: `Bearer ${accessToken}` } }),
	};
	try {
		const org = await createClient({ ...credentials, authenticatedTransport: withToken, retry: false }).organization.get();
		return { status: 'OK', message: `Connection successful: ${org.name ?? org.id} (${org.orgType ?? 'organization'})` };
	} catch (error) {
		if (error instanceof TransportError) {
			return fail(
				`The auth server issued a token, but the API at ${credentials.baseUrl} cannot be reached (${error.reason}). Check the Base URL.`,
			);
		}
		if (error instanceof DriveMonitoringApiError && error.httpStatus === 401) {
			return fail(
				'The auth server issued a token, but the API refused it. The API Scope ID (or the Tenant ID) probably belongs to another API: use the scope of the Drive Monitoring Open API.',
			);
		}
		if (error instanceof DriveMonitoringApiError) {
			return fail(
				`The API refused the request: ${error.meaning} (code ${error.code}). API access may not be enabled for this organization; ask the platform operator.`,
			);
		}
		if (error instanceof UnexpectedResponseError) {
			return fail(
				`${credentials.baseUrl} answered, but not as the Drive Monitoring API (HTTP ${error.httpStatus}). Check the Base URL (without /devcenter/extapi/v1).`,
			);
		}
		return fail(`The test request failed: ${(error as Error).message}`);
	}
}

function fail(message: string): INodeCredentialTestResult {
	return { status: 'Error', message };
}
