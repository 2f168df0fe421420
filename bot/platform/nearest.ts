/* eslint-disable @n8n/community-nodes/no-restricted-imports -- the Slack bot, a Node program, not code n8n loads: n8n Cloud's rules govern the pack (nodes/, credentials/ and the shared/ modules they import) */
// "Did you mean": the names nearest to one that matched nothing. The bot's own (the pack has no
// runtime dependencies, so the node refuses with how to list instead), with fastest-levenshtein
// for the edit distance.
import { distance } from 'fastest-levenshtein';

const fold = (text: string | null | undefined) => (text ?? '').trim().toLowerCase();

/** How far a text is from what was written: 0 when one contains the other, else the edit distance. */
function gap(written: string, text: string | null | undefined): number {
	const candidate = fold(text);
	if (candidate === '') return Number.POSITIVE_INFINITY;
	if (candidate.includes(written) || written.includes(candidate)) return 0;
	return distance(written, candidate);
}

/**
 * The items nearest to what was written, nearest first, at most `count`: each item by the nearest
 * of its texts (a name, a serial number), case-insensitive, and no further than half the length
 * of what was written (at least 3 edits).
 */
export function nearest<T>(
	written: string,
	items: readonly T[],
	textsOf: (item: T) => ReadonlyArray<string | null | undefined>,
	count: number,
): T[] {
	const query = fold(written);
	if (query === '') return [];
	const furthest = Math.max(3, Math.floor(query.length / 2));
	return items
		.map((item) => ({ item, d: Math.min(...textsOf(item).map((text) => gap(query, text))) }))
		.filter((x) => x.d <= furthest)
		.sort((a, b) => a.d - b.d)
		.slice(0, count)
		.map((x) => x.item);
}

/** The names nearest to what was written, nearest first, at most three, each once: for "did you mean". */
export function nearestNames(written: string, names: readonly string[]): string[] {
	return nearest(written, [...new Set(names)], (name) => [name], 3);
}
