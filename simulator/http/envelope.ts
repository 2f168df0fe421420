import { ERROR_CODES, SUCCESS_CODE, httpStatusOfCode, type ErrorCode } from '../../shared/spec';

/** A refusal in the spec's terms: answered as the envelope with this code (status per A3). */
export class ApiError extends Error {
	constructor(
		readonly code: ErrorCode,
		detail?: string,
	) {
		super(detail ? `${ERROR_CODES[code]}: ${detail}` : ERROR_CODES[code]);
	}
}

export interface Envelope {
	payload: unknown;
	message: string | null;
	success: boolean;
	code: number;
}

export function success(payload: unknown): Envelope {
	return { payload, message: 'success', success: true, code: SUCCESS_CODE };
}

export function failure(code: number, message: string): Envelope {
	return { payload: null, message, success: false, code };
}

/** An answer before it is written, so a fault can still corrupt it. */
export interface Reply {
	status: number;
	headers: Record<string, string>;
	body: Buffer | string;
}

export function jsonReply(
	status: number,
	body: unknown,
	headers: Record<string, string> = {},
): Reply {
	return {
		status,
		headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
		body: JSON.stringify(body),
	};
}

export function textReply(status: number, text: string): Reply {
	return { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: text };
}

export function envelopeReply(
	envelope: Envelope,
	status = httpStatusOfCode(envelope.code),
	headers: Record<string, string> = {},
): Reply {
	return jsonReply(status, envelope, headers);
}
