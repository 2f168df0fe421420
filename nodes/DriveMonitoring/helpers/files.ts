import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import type { DriveMonitoringClient } from '../transport';

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
	return { json: { ...json, fileName: file.fileName, mimeType: file.mimeType, fileSize: file.data.length }, binary: { [binaryPropertyName]: binary } };
}
