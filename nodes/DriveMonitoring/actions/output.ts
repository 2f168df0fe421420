import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

/** One output item per record (n8n's convention for lists); a single record gives one item. */
export function toItems(records: unknown): INodeExecutionData[] {
	const list = Array.isArray(records) ? records : [records];
	return list.map((record) => ({ json: toJson(record) }));
}

/** Records as plain JSON objects (a non-object record, e.g. a string, is wrapped). */
export function toJson(record: unknown): IDataObject {
	if (record !== null && typeof record === 'object' && !Array.isArray(record))
		return record as IDataObject;
	return { value: record as IDataObject[keyof IDataObject] };
}

/** The item of an operation that returns nothing: says what was done to what. */
export function doneItem(fields: IDataObject): INodeExecutionData[] {
	return [{ json: { success: true, ...fields } }];
}

/** Pick some fields of a record, in the given order (Simplify). */
export function pick<T extends object>(record: T, keys: Array<keyof T & string>): IDataObject {
	const out: IDataObject = {};
	for (const key of keys) out[key] = record[key] as IDataObject[string];
	return out;
}
