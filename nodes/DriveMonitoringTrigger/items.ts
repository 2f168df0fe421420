import {
	type IDataObject,
	type INode,
	type INodeExecutionData,
	NodeOperationError,
} from 'n8n-workflow';

/** The data types the platform pushes (shared/push names the same four). */
export type PushedDataType = 'AssetEvent' | 'AssetState' | 'AssetReport' | 'AssetCBM';

/** A pushed message, or one the poll trigger found; `AssetCondition` exists only when polling (E18). */
export interface TriggerMessage {
	id: string;
	dataType: PushedDataType | 'AssetCondition';
	assetId?: number;
	orgId?: number;
	time: string;
	record: unknown;
	raw?: unknown;
}

export interface TriggerFilters {
	eventTypes: string[];
	assetIds: number[];
	cbmStatuses: string[];
}

/** Whether a message passes the node's filters (an empty filter lets everything through). */
export function passesFilters(filters: TriggerFilters, message: TriggerMessage): boolean {
	if (
		filters.assetIds.length > 0 &&
		(message.assetId === undefined || !filters.assetIds.includes(message.assetId))
	) {
		return false;
	}
	if (message.dataType === 'AssetEvent' && filters.eventTypes.length > 0) {
		return filters.eventTypes.includes(
			String((message.record as { eventType?: unknown }).eventType),
		);
	}
	if (message.dataType === 'AssetCBM' && filters.cbmStatuses.length > 0) {
		const units = message.record as Array<{ deviceUnitStatus?: unknown }>;
		return units.some((unit) => filters.cbmStatuses.includes(String(unit.deviceUnitStatus)));
	}
	return true;
}

/**
 * One output item per message: the record's fields plus dataType, messageId, assetId, orgId and
 * time (CBM results, a list, under `results`); the delivery as received under `raw` on request.
 */
export function toItem(message: TriggerMessage, includeRaw: boolean): INodeExecutionData {
	const fields = Array.isArray(message.record)
		? { results: message.record }
		: (message.record as IDataObject);
	const json: IDataObject = {
		...fields,
		dataType: message.dataType,
		messageId: message.id,
		assetId: message.assetId,
		orgId: message.orgId,
		time: message.time,
	};
	if (includeRaw) json.raw = message.raw as IDataObject;
	return { json };
}

/** "12, 14,15" -> [12, 14, 15]; names the field and the value it cannot read. */
export function parseIdList(field: string, value: unknown): number[] {
	const text = Array.isArray(value) ? value.join(',') : String(value ?? '');
	const parts = text
		.split(/[\s,;]+/)
		.map((p) => p.trim())
		.filter(Boolean);
	const bad = parts.find((p) => !/^\d+$/.test(p));
	if (bad !== undefined)
		throw new Error(
			`${field} "${text}" is not a list of asset IDs: "${bad}" is not a whole number`,
		);
	return parts.map(Number);
}

export function readFilters(context: {
	getNodeParameter(name: string, fallback: unknown): unknown;
	getNode(): INode;
}): TriggerFilters {
	const filters = context.getNodeParameter('filters', {}) as IDataObject;
	try {
		return {
			eventTypes: (filters.eventTypes as string[] | undefined) ?? [],
			assetIds: parseIdList('Filters > Asset IDs', filters.assetIds),
			cbmStatuses: (filters.cbmStatuses as string[] | undefined) ?? [],
		};
	} catch (error) {
		// A wrong filter is the workflow's to fix: said on the node, before anything is received.
		throw new NodeOperationError(context.getNode(), (error as Error).message);
	}
}
