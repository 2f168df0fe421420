// The core's errors as n8n errors. The first line says what went wrong in the user's terms (the
// field label they see in the node, never an endpoint number), the description says what to do
// (the core's hint), and the core error's redacted JSON (the platform's or token server's own
// words, the code, the endpoint) goes to the details only.
import type { IDataObject, IExecuteFunctions, INodeProperties, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import {
	AuthError,
	DeadlineError,
	DownloadError,
	DriveMonitoringApiError,
	DriveMonitoringError,
	RateLimitedError,
	showValue,
	TransportError,
	UnexpectedResponseError,
	ValidationError,
} from '../../../shared/errors';
import type { Operation } from './types';

const credentialFailures = new WeakSet<object>();

/** True for errors of the credential itself (token refused, auth server unreachable): every item would fail alike. */
export function isCredentialFailure(error: unknown): boolean {
	return typeof error === 'object' && error !== null && credentialFailures.has(error);
}

export async function toNodeError(
	this: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
	operation?: Operation,
): Promise<NodeApiError | NodeOperationError> {
	// The core reports whatever the transport throws as a TransportError. A core error other than a
	// network failure inside it comes from the credential's preAuthentication (the token step).
	const cause = error instanceof TransportError ? error.cause : undefined;
	if (cause instanceof DriveMonitoringError && !(cause instanceof TransportError)) {
		const nodeError = new NodeApiError(this.getNode(), cause.toJSON() as JsonObject, {
			message: cause.message,
			description: `${cause.hint ? `${cause.hint} ` : ''}The credential's Test button says which field to fix.`,
			...(cause instanceof AuthError ? { httpCode: String(cause.httpStatus) } : {}),
			itemIndex,
		});
		credentialFailures.add(nodeError);
		return nodeError;
	}
	return platformError.call(this, error, itemIndex, operation);
}

function platformError(
	this: IExecuteFunctions,
	error: unknown,
	itemIndex: number,
	operation: Operation | undefined,
): NodeApiError | NodeOperationError {
	const node = this.getNode();
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		error.context.itemIndex ??= itemIndex;
		return error;
	}
	if (error instanceof ValidationError) {
		const label = fieldLabel(operation, error.field);
		return new NodeOperationError(
			node,
			`${label}${/^(must|is|are)\b/.test(error.rule) ? ' ' : ': '}${nodeRule(error.rule, operation)}`,
			{
				itemIndex,
				description: `Given: ${givenValue(error)}. Nothing was sent to the platform: correct "${label}" and run again.`,
			},
		);
	}
	const details =
		error instanceof DriveMonitoringError ? (error.toJSON() as JsonObject) : undefined;
	if (error instanceof DriveMonitoringApiError) {
		return new NodeApiError(node, details!, {
			message: error.summary,
			description: error.hint,
			httpCode: String(error.httpStatus),
			itemIndex,
		});
	}
	if (error instanceof AuthError) {
		return new NodeApiError(node, details!, {
			message: error.message,
			description: error.hint,
			httpCode: String(error.httpStatus),
			itemIndex,
		});
	}
	if (error instanceof DeadlineError && error.range) {
		// Which read and how long in the message; how far it came, then what to do, below it.
		return new NodeApiError(node, details!, {
			message: error.summary,
			description: `${capitalized(error.detail)}. ${error.hint}`,
			itemIndex,
		});
	}
	if (error instanceof TransportError) {
		return new NodeApiError(node, details!, {
			message: error.summary,
			description: error.hint,
			itemIndex,
		});
	}
	if (error instanceof RateLimitedError) {
		return new NodeApiError(node, details!, {
			message: 'The Drive Monitoring platform is limiting the request rate',
			description: error.hint,
			httpCode: '429',
			itemIndex,
		});
	}
	if (error instanceof UnexpectedResponseError) {
		return new NodeApiError(node, details!, {
			message: 'The Drive Monitoring platform sent an unexpected answer',
			// The answer's own text (an HTML page, a body excerpt) stays in the details.
			description: `${capitalized(error.problem)} (HTTP ${error.httpStatus}). ${error.hint}`,
			httpCode: String(error.httpStatus),
			itemIndex,
		});
	}
	if (error instanceof DownloadError) {
		return new NodeApiError(node, details!, {
			message: error.linkRefused
				? 'The download link has expired or was refused'
				: 'The file could not be downloaded',
			description: error.hint,
			httpCode: String(error.httpStatus),
			itemIndex,
		});
	}
	if (error instanceof DriveMonitoringError)
		return new NodeOperationError(node, error.message, {
			itemIndex,
			description: error.hint || undefined,
		});
	return new NodeOperationError(node, error instanceof Error ? error : String(error), {
		itemIndex,
	});
}

function capitalized(text: string): string {
	return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** The refused value; its length only where the rule counts characters. */
function givenValue(error: ValidationError): string {
	const shown = showValue(error.value);
	return /characters/.test(error.rule) ? shown : shown.replace(/ \(\d+ characters\)$/, '');
}

/** Core input names whose node field has another name (the label is read from the node's fields). */
const NODE_FIELD: Record<string, string> = {
	id: 'asset',
	assetId: 'asset',
	orgId: 'organization',
	assetGroupId: 'assetGroup',
	plantId: 'plant',
	reportId: 'report',
	subCustomerId: 'subscriber',
	subDataTypes: 'dataTypes',
	'assetReference.gatewaySN': 'gatewaySerialNumber',
	'assetReference.deviceNodeId': 'deviceNodeId',
	'assetReference.driveModel': 'driveModel',
	'assetReference.simiccid': 'simIccid',
};

/** The label the user sees in the node for a core input field ("name" of Rename is "New Name"). */
export function fieldLabel(operation: Operation | undefined, field: string): string {
	const explicit = operation?.fieldLabels?.[field];
	if (explicit) return explicit;
	const top = field.replace(/\[\d+\]$/, '');
	const wanted = [NODE_FIELD[top], top, top.split('.').pop()].filter(
		(n): n is string => n !== undefined,
	);
	for (const name of wanted) {
		const found = operation && findProperty(operation.properties, name);
		if (found) return found.displayName;
	}
	return field;
}

function findProperty(properties: INodeProperties[], name: string): INodeProperties | undefined {
	for (const property of properties) {
		if (property.name === name) return property;
		const nested = (property.options ?? []).filter(
			(o): o is INodeProperties => typeof o === 'object' && 'displayName' in o,
		);
		const found = nested.length > 0 ? findProperty(nested, name) : undefined;
		if (found) return found;
	}
	return undefined;
}

/**
 * The core's rule in the node's words: other fields it names (`must be after startTime`) by
 * their labels, and no mention of the core's `clip: true` option, which a node user cannot set.
 */
function nodeRule(rule: string, operation: Operation | undefined): string {
	return rule
		.replace(/\. Start later, or pass clip: true to fetch from (\S+)$/, '. Start at $1 or later')
		.replace(/\b(startTime|endTime|startDate|endDate)\b/g, (name) => fieldLabel(operation, name));
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
