import type { ICredentialDataDecryptedObject } from 'n8n-workflow';
import type { ApiCredentials } from '../../../shared/auth/token';

export interface DriveMonitoringCredentials extends ApiCredentials {
	baseUrl: string;
}

/** The credential's fields as the core names them (trimmed: pasted values often carry spaces). */
export function apiCredentialsOf(data: ICredentialDataDecryptedObject): DriveMonitoringCredentials {
	const text = (name: string) => String(data[name] ?? '').trim();
	return {
		baseUrl: text('baseUrl').replace(/\/+$/, ''),
		authUrl: text('authUrl').replace(/\/+$/, ''),
		tenantId: text('tenantId'),
		apiKey: text('apiKey'),
		apiSecret: text('apiSecret'),
		apiScopeId: text('apiScopeId'),
	};
}
