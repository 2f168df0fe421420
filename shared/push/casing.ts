/**
 * `EventType` -> `eventType`, `KPI` -> `kpi`, `DeviceDayKPIs` -> `deviceDayKPIs`, `SIMICCID` -> `simiccid`:
 * the leading capitals are lowered, keeping the last one when a lowercase word follows.
 */
export function camelKey(key: string): string {
	const lead = /^[A-Z]+/.exec(key)?.[0];
	if (!lead) return key;
	if (lead.length === key.length) return key.toLowerCase();
	if (lead.length === 1) return key[0].toLowerCase() + key.slice(1);
	const rest = key.slice(lead.length);
	return /^[a-z]/.test(rest)
		? lead.slice(0, -1).toLowerCase() + lead.slice(-1) + rest
		: lead.toLowerCase() + rest;
}

/** A deep copy with camelCase keys; arrays and scalars kept. */
export function camelizeKeys(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(camelizeKeys);
	if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
		const out: Record<string, unknown> = {};
		for (const [k, v] of Object.entries(value)) out[camelKey(k)] = camelizeKeys(v);
		return out;
	}
	return value;
}
