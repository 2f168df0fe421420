import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import type { DriveMonitoringClient } from '../transport';
import { LIMITS } from '../../../shared/spec';
import { formatUtc } from '../../../shared/time';

/**
 * When a temporary link handed out now stops working (the spec: valid 10 minutes), as ISO 8601
 * UTC, so that a workflow using the link later can tell it is dead. Counted from when the link
 * was received: the platform may have issued it a moment earlier.
 */
export function linkExpiresAt(receivedAt: number = Date.now()): string {
	return formatUtc(new Date(receivedAt + LIMITS.temporaryLinkMinutes * 60_000));
}

/** Fetch a temporary link (E15, E23) and return it as an item with a binary file. */
export async function downloadAsItem(
	this: IExecuteFunctions,
	client: DriveMonitoringClient,
	url: string,
	binaryPropertyName: string,
	json: IDataObject,
): Promise<INodeExecutionData> {
	const file = await client.files.download(url);
	const binary = await this.helpers.prepareBinaryData(file.data, file.fileName, file.mimeType);
	return {
		json: { ...json, fileName: file.fileName, mimeType: file.mimeType, fileSize: file.data.length },
		binary: { [binaryPropertyName]: binary },
	};
}
