// Names to ids: the rules a user expects when they type "pump 3" where an id is asked for.
// Pure and endpoint-free, so the node, the tool path and the bot can share one behaviour.

/** One thing a name can point at: an asset, an asset group or an organization. */
export interface Named {
	id: number;
	name: string | null;
	/** Assets only: a serial number matches like a name. */
	serialNumber?: string | null;
	/** Where it sits, as the spec names it (plant, group or organization); shown beside a candidate. */
	place?: string;
}

export type Kind = 'Asset' | 'Asset group' | 'Organization';

export type Resolution<T extends Named> =
	| { kind: 'one'; target: T }
	| { kind: 'ambiguous'; candidates: T[]; total: number }
	| { kind: 'none' };

/** How many candidates an ambiguity message lists; the total is always given. */
export const CANDIDATES_SHOWN = 10;

const fold = (text: string | null | undefined): string => (text ?? '').trim().toLowerCase();

/**
 * Resolves a typed reference against what the credentials can see: an id (digits) matches its id
 * only; otherwise a whole name or serial match (case-insensitive) wins over a partial one, and
 * more than one match of the winning kind is ambiguous.
 */
export function resolveName<T extends Named>(query: string, items: readonly T[]): Resolution<T> {
	const needle = fold(query);
	if (needle === '') return { kind: 'none' };
	if (/^\d+$/.test(needle)) {
		const byId = items.filter((item) => String(item.id) === needle);
		if (byId.length === 1) return { kind: 'one', target: byId[0] };
	}
	const exact = items.filter(
		(item) => fold(item.name) === needle || fold(item.serialNumber) === needle,
	);
	if (exact.length > 0) return decide(exact);
	const partial = items.filter(
		(item) => fold(item.name).includes(needle) || fold(item.serialNumber).includes(needle),
	);
	return partial.length > 0 ? decide(partial) : { kind: 'none' };
}

function decide<T extends Named>(found: T[]): Resolution<T> {
	if (found.length === 1) return { kind: 'one', target: found[0] };
	const sorted = [...found].sort((a, b) => fold(a.name).localeCompare(fold(b.name)) || a.id - b.id);
	return { kind: 'ambiguous', candidates: sorted.slice(0, CANDIDATES_SHOWN), total: found.length };
}

function plural(kind: Kind, count: number): string {
	return count === 1 ? kind.toLowerCase() : `${kind.toLowerCase()}s`;
}

function describe(item: Named): string {
	const serial = item.serialNumber ? `, serial ${item.serialNumber}` : '';
	const place = item.place ? `, ${item.place}` : '';
	return `${item.name ?? '(no name)'} (id ${item.id}${serial}${place})`;
}

/** The refusal a person or a model can act on: who matched, and what to send instead. */
export function ambiguityMessage(
	kind: Kind,
	query: string,
	candidates: readonly Named[],
	total: number,
): string {
	const more = total > candidates.length ? `; ${total - candidates.length} more not shown` : '';
	return (
		`${kind} "${query}" matches ${total} ${plural(kind, total)}: ${candidates.map(describe).join('; ')}${more}. ` +
		'Send the id or a longer name.'
	);
}

/** The refusal for a name nothing matches, with how to see what exists. */
export function unknownMessage(kind: Kind, query: string, listHint: string): string {
	return `${kind} "${query}" matches no ${kind.toLowerCase()} these credentials can see. Send an id or a name; ${listHint}.`;
}

/** Whether any of the texts contains the filter, case-insensitively; an empty filter matches everything. */
export function mentions(
	filter: string | undefined,
	...texts: Array<string | number | null | undefined>
): boolean {
	const needle = fold(filter);
	return (
		needle === '' ||
		texts.some((text) =>
			fold(text === null || text === undefined ? null : String(text)).includes(needle),
		)
	);
}
