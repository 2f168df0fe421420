// Temporary links (E15 logger files, E23 reports) are signed and need no bearer token (A7).
import type { ApiCore } from './core/request';
import { DownloadError, ValidationError } from './errors';
import type { RequestOptions } from './endpoints/context';
import { headerValue } from './transport/types';

export interface DownloadedFile {
	data: Buffer;
	fileName: string;
	mimeType: string;
}

/** The file name of a Content-Disposition header (RFC 6266: filename* wins over filename). */
export function fileNameOf(contentDisposition: string | undefined): string | undefined {
	if (!contentDisposition) return undefined;
	const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(contentDisposition);
	if (extended) {
		try {
			return decodeURIComponent(extended[2].trim().replace(/^"|"$/g, ''));
		} catch {
			// fall through to the plain parameter
		}
	}
	const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/i.exec(contentDisposition);
	if (!plain) return undefined;
	return (plain[2] ?? plain[1]).replace(/\\(.)/g, '$1').trim();
}

export function filesApi(core: ApiCore) {
	return {
		/** Fetch a temporary link: `{ data, fileName, mimeType }`. No bearer token is sent. */
		async download(url: string, options?: RequestOptions): Promise<DownloadedFile> {
			if (typeof url !== 'string' || !URL.canParse(url)) {
				throw new ValidationError({
					field: 'url',
					value: url,
					rule: 'must be an absolute http(s) URL (a link from E15 or E23)',
				});
			}
			const parsed = new URL(url);
			if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
				throw new ValidationError({
					field: 'url',
					value: url,
					rule: 'must be an http or https URL',
				});
			}
			const response = await core.exchange({
				method: 'GET',
				url,
				idempotent: true,
				authenticate: false,
				signal: options?.signal,
			});
			if (response.status < 200 || response.status >= 300)
				throw new DownloadError({
					httpStatus: response.status,
					body: response.body.toString('utf8'),
				});
			const mimeType = (headerValue(response.headers, 'content-type') ?? 'application/octet-stream')
				.split(';')[0]
				.trim();
			const fallback = decodeURIComponent(
				parsed.pathname.split('/').filter(Boolean).pop() ?? 'download',
			);
			return {
				data: response.body,
				fileName: fileNameOf(headerValue(response.headers, 'content-disposition')) ?? fallback,
				mimeType,
			};
		},
	};
}
