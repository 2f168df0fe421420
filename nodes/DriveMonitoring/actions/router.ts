import type { IExecuteFunctions, INodeExecutionData, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { mapLimit } from '../../../shared/core/limiter';
import { createNodeClient } from '../transport';
import { errorOutput, isCredentialFailure, toNodeError } from './errors';
import { getParallelRequests } from './common';
import { findOperation } from './resources';
import { compactAnswer, toolAnswerSettings } from './compact';

type ItemResult = { output: INodeExecutionData[] } | { error: NodeApiError | NodeOperationError };

/**
 * Runs the chosen operation once per input item. Output keeps item order and every output item
 * is paired with its input. Read-only operations run several items at a time; operations that
 * change something run one item after the other and stop at the first failure (unless Continue
 * On Fail), so nothing after a failed item is changed.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operationName = this.getNodeParameter('operation', 0) as string;
	const operation = findOperation(resource, operationName);
	if (!operation) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operationName}" is not known for resource "${resource}"`,
		);
	}
	// Read operations: Options > Parallel Requests bounds the requests in flight, across items and
	// the pieces of a long range alike (the client's limiter). Changes run one at a time anyway.
	const parallelRequests = operation.readOnly ? getParallelRequests.call(this) : undefined;
	const toolAnswer = operation.readOnly ? toolAnswerSettings.call(this) : undefined;
	const client = await createNodeClient.call(this, { concurrency: parallelRequests });
	const continueOnFail = this.continueOnFail();
	const runItem = async (itemIndex: number): Promise<ItemResult> => {
		try {
			return { output: await operation.execute.call(this, client, itemIndex) };
		} catch (error) {
			return { error: await toNodeError.call(this, error, itemIndex, operation) };
		}
	};

	const results = operation.readOnly
		? await runConcurrently(items.length, runItem, parallelRequests!)
		: await runInOrder(items.length, runItem, continueOnFail);
	// Refused credentials fail every item alike: the items after the first are not tried again.
	const refused = results.find(
		(r): r is { error: NodeApiError } => 'error' in r && isCredentialFailure(r.error),
	);
	if (refused)
		results.push(...Array.from({ length: items.length - results.length }, () => refused));

	const returnData: INodeExecutionData[] = [];
	results.forEach((result, itemIndex) => {
		if ('error' in result) {
			if (!continueOnFail) throw result.error;
			returnData.push({ json: errorOutput(result.error), pairedItem: { item: itemIndex } });
			return;
		}
		for (const item of result.output) returnData.push({ ...item, pairedItem: { item: itemIndex } });
	});
	// An AI tool call gets an answer sized for a model (see compact.ts); workflows get every item.
	if (toolAnswer?.compact)
		return [
			compactAnswer(returnData, toolAnswer.maxBytes).map((item) => ({
				...item,
				pairedItem: { item: 0 },
			})),
		];
	return [returnData];
}

/**
 * The first item runs alone: it makes n8n fetch the token (preAuthentication) once and store it,
 * so the items after it reuse that token instead of each fetching one at the same time.
 */
async function runConcurrently(
	count: number,
	runItem: (itemIndex: number) => Promise<ItemResult>,
	limit: number,
): Promise<ItemResult[]> {
	if (count === 0) return [];
	const first = await runItem(0);
	if ('error' in first && isCredentialFailure(first.error)) return [first];
	const rest = await mapLimit(
		Array.from({ length: count - 1 }, (_, i) => i + 1),
		limit,
		async (itemIndex) => await runItem(itemIndex),
	);
	return [first, ...rest];
}

async function runInOrder(
	count: number,
	runItem: (itemIndex: number) => Promise<ItemResult>,
	continueOnFail: boolean,
): Promise<ItemResult[]> {
	const results: ItemResult[] = [];
	for (let itemIndex = 0; itemIndex < count; itemIndex++) {
		const result = await runItem(itemIndex);
		results.push(result);
		if ('error' in result && (!continueOnFail || isCredentialFailure(result.error))) break;
	}
	return results;
}
