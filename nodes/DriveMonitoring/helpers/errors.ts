// The core's errors as n8n errors: NodeOperationError for input refused before any request,
// NodeApiError for everything the platform (or the way to it) answered. Messages come from the
// core already redacted; a 102403 also says which level the asset has and which it needs.
import type { IDataObject, IExecuteFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import {
	AuthError,
	DownloadError,
	DriveMonitoringApiError,
	DriveMonitoringError,
	TransportError,
	UnexpectedResponseError,
	ValidationError,
} from '../../../shared/errors';
import { explainEndpointDenial, toLevel } from '../../../shared/levels';
import type { Level } from '../../../shared/spec';
import type { DriveMonitoringClient } from '../transport';

const LEVEL_DENIED = 102403;

const credentialFailures = new WeakSet<object>();

/** True for errors of the credential itself (token refused, auth server unreachable): every item would fail alike. */
export function isCredentialFailure(error: unknown): boolean {
	return typeof error === 'object' && error !== null && credentialFailures.has(error);
}

export async function toNodeError(
	this: IExecuteFunctions,
	client: DriveMonitoringClient,
	error: unknown,
	itemIndex: number,
): Promise<NodeApiError | NodeOperationError> {
	// The core reports whatever the transport throws as a TransportError. A core error other than a
	// network failure inside it comes from the credential's preAuthentication (the token step).
	const cause = error instanceof TransportError ? error.cause : undefined;
	if (cause instanceof DriveMonitoringError && !(cause instanceof TransportError)) {
		const nodeError = new NodeApiError(this.getNode(), cause.toJSON() as JsonObject, {
			message: cause.message,
			description: 'Check the Drive Monitoring API credential: its Test button says which field to fix.',
			...(cause instanceof AuthError ? { httpCode: String(cause.httpStatus) } : {}),
			itemIndex,
		});
		credentialFailures.add(nodeError);
		return nodeError;
	}
	return await platformError.call(this, client, error, itemIndex);
}

async function platformError(
	this: IExecuteFunctions,
	client: DriveMonitoringClient,
	error: unknown,
	itemIndex: number,
): Promise<NodeApiError | NodeOperationError> {
	const node = this.getNode();
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	if (error instanceof ValidationError) {
		return new NodeOperationError(node, error.message, {
			itemIndex,
			description: `Field "${error.field}" ${error.rule}. Nothing was sent to the platform.`,
		});
	}
	if (error instanceof DriveMonitoringApiError) {
		let description = error.apiMessage ? `The platform said: ${error.apiMessage}` : undefined;
		if (error.code === LEVEL_DENIED) {
			const level = await assetLevel.call(this, client, itemIndex);
			const explanation = explainEndpointDenial(error.endpoint.id, level);
			if (explanation) description = [explanation, description].filter(Boolean).join(' ');
		}
		return new NodeApiError(node, error.toJSON() as JsonObject, {
			message: `${capitalize(error.meaning)} (code ${error.code})`,
			description: description ?? `${error.endpoint.id} ${error.endpoint.name} failed with HTTP ${error.httpStatus}.`,
			httpCode: String(error.httpStatus),
			itemIndex,
		});
	}
	if (error instanceof AuthError) {
		return new NodeApiError(node, error.toJSON() as JsonObject, {
			message: error.message,
			description: 'Check the Drive Monitoring API credentials (the credential test says which part is refused).',
			httpCode: String(error.httpStatus),
			itemIndex,
		});
	}
	if (error instanceof TransportError) {
		return new NodeApiError(node, error.toJSON() as JsonObject, {
			message: `The Drive Monitoring platform could not be reached (${error.reason})`,
			description: `${error.message}. Check the Base URL and Auth URL of the credentials and the network between n8n and the platform.`,
			itemIndex,
		});
	}
	if (error instanceof UnexpectedResponseError) {
		return new NodeApiError(node, error.toJSON() as JsonObject, {
			message: 'The Drive Monitoring platform sent an unexpected answer',
			description: error.message,
			httpCode: String(error.httpStatus),
			itemIndex,
		});
	}
	if (error instanceof DownloadError) {
		return new NodeApiError(node, error.toJSON() as JsonObject, {
			message: error.linkRefused ? 'The download link has expired or was refused' : 'The file could not be downloaded',
			description: error.message,
			httpCode: String(error.httpStatus),
			itemIndex,
		});
	}
	if (error instanceof DriveMonitoringError) return new NodeOperationError(node, error.message, { itemIndex });
	return new NodeOperationError(node, error instanceof Error ? error : String(error), { itemIndex });
}

/** The level of the asset the failed item was about (its Activated subscription), if it can be read. */
async function assetLevel(
	this: IExecuteFunctions,
	client: DriveMonitoringClient,
	itemIndex: number,
): Promise<Level | undefined> {
	try {
		const assetId = Number(this.getNodeParameter('asset', itemIndex, undefined, { extractValue: true }));
		if (!Number.isSafeInteger(assetId) || assetId < 1) return undefined;
		const subscriptions = await client.assets.listSubscriptions({ assetId });
		return toLevel(subscriptions.find((s) => s.status === 'Activated')?.level);
	} catch {
		// The explanation is a courtesy: without the level it names the levels that are needed.
		return undefined;
	}
}

/**
 * The JSON of a failed item under Continue On Fail: what failed and why, never a secret. Only the
 * keys n8n reads as an error item (`error`, `details`), so "On Error: Continue (using error
 * output)" routes it to the error output.
 */
export function errorOutput(error: NodeApiError | NodeOperationError): IDataObject {
	const code = apiCode(error);
	const details: IDataObject = {
		...(error.description ? { description: error.description } : {}),
		...(error instanceof NodeApiError && error.httpCode ? { httpCode: error.httpCode } : {}),
		...(typeof code === 'number' ? { code } : {}),
	};
	return { error: error.message, ...(Object.keys(details).length > 0 ? { details } : {}) };
}

/** The platform's error code, kept in the NodeApiError's error response (the core error's JSON). */
function apiCode(error: NodeApiError | NodeOperationError): unknown {
	return (error.errorResponse as { code?: unknown } | undefined)?.code;
}

function capitalize(text: string): string {
	return text.charAt(0).toUpperCase() + text.slice(1);
}
