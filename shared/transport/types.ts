/**
 * What the core needs from an HTTP client. The core builds requests and reads answers; a
 * transport only moves bytes. The default is the undici transport; the n8n node plugs in its own
 * helpers (an "authenticated transport" when n8n adds the bearer itself).
 */
export interface TransportRequest {
	method: 'GET' | 'POST' | 'PUT' | 'DELETE';
	/** Absolute URL. */
	url: string;
	headers: Record<string, string>;
	/** Already serialized (JSON or form). */
	body?: string;
	signal?: AbortSignal;
	/** Whole-request deadline in milliseconds (connect + headers + body). */
	timeoutMs?: number;
}

export interface TransportResponse {
	status: number;
	/** Lower-case header names. */
	headers: Record<string, string | string[] | undefined>;
	body: Buffer;
}

export interface Transport {
	request(request: TransportRequest): Promise<TransportResponse>;
	/** Release pooled connections (optional). */
	close?(): Promise<void>;
}

export function headerValue(
	headers: TransportResponse['headers'],
	name: string,
): string | undefined {
	const value = headers[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
}
