import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { createNodeClient } from '../transport';
import { errorOutput, toNodeError } from '../helpers/errors';
import { findOperation } from './resources';

/** Runs the chosen operation once per input item; every output item is paired with its input. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = findOperation(resource, operationName);
	if (!operation) {
		throw new NodeOperationError(this.getNode(), `The operation "${operationName}" is not known for resource "${resource}"`);
	}
	const client = await createNodeClient.call(this);

	const returnData: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const output = await operation.execute.call(this, client, itemIndex);
			for (const item of output) returnData.push({ ...item, pairedItem: { item: itemIndex } });
		} catch (error) {
			const nodeError = await toNodeError.call(this, client, error, itemIndex);
			if (!this.continueOnFail()) throw nodeError;
			returnData.push({ json: errorOutput(nodeError), pairedItem: { item: itemIndex } });
		}
	}
	return [returnData];
}
