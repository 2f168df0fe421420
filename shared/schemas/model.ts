// Building blocks of the response schemas: casing-tolerant objects that keep unknown fields
// (assumptions A1, A2), numerals read as numbers, `-` points as null.
import { z } from 'zod/v4';

type Shape = Record<string, z.ZodType>;

/**
 * An object schema whose keys match in any casing (`AssetGroupId`, `assetGroupId`,
 * `assetgroupid`), with aliases (`SubDevices` -> `subAssets`). Output keys are the canonical
 * camelCase names of `shape`; keys the shape does not know are kept verbatim.
 */
export function model<S extends Shape>(shape: S, aliases: Record<string, keyof S & string> = {}) {
  const lookup = new Map<string, string>();
  for (const key of Object.keys(shape)) {
    lookup.set(key, key);
    lookup.set(key.toLowerCase(), key);
  }
  for (const [alias, key] of Object.entries(aliases)) lookup.set(alias.toLowerCase(), key);
  return z.preprocess((input) => canonicalKeys(input, lookup), z.looseObject(shape));
}

function canonicalKeys(input: unknown, lookup: Map<string, string>): unknown {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return input;
  // Fast path: every key already canonical (or unknown), as the platform sends them (A1).
  let canonicalAlready = true;
  for (const key in input) {
    const canonical = lookup.get(key) ?? lookup.get(key.toLowerCase());
    if (canonical !== undefined && canonical !== key) {
      canonicalAlready = false;
      break;
    }
  }
  if (canonicalAlready) return input;
  const out: Record<string, unknown> = {};
  const exact = new Set<string>();
  for (const [key, value] of Object.entries(input)) {
    const canonical = lookup.get(key.toLowerCase());
    if (canonical === undefined) {
      if (!(key in out)) out[key] = value;
      continue;
    }
    // The canonical spelling wins over an alias or another casing of the same field.
    if (key === canonical) {
      out[canonical] = value;
      exact.add(canonical);
    } else if (!exact.has(canonical) && !(canonical in out && value === null)) {
      out[canonical] = value;
    }
  }
  return out;
}

/** An integer, also when sent as a numeral string. */
export const int = z.union([z.number().int(), z.string().regex(/^-?\d+$/).transform(Number)], { error: 'expected an integer' });
/** A double, also when sent as a numeral string. */
export const num = z.union([z.number(), z.string().trim().regex(/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/).transform(Number)], { error: 'expected a number' });
/** Optional text: absent or null both read as null. */
export const text = z.string().nullable().default(null);
/** Text that arrives as a string or a number (ids, parameter values). */
export const textish = z.union([z.string(), z.number().transform(String)]).nullish().transform((v) => v ?? null);
export const optInt = int.nullable().default(null);
export const optNum = num.nullable().default(null);
/** Empty strings mean "none" in several fields (CBM dates, created-user fields). */
export const textOrEmpty = z.string().nullish().transform((v) => (v === undefined || v === null || v.trim() === '' ? null : v));
export const optIntOrEmpty = z
  .union([int, z.literal('')])
  .nullish()
  .transform((v) => (v === '' || v === undefined ? null : v));
export const bool = z.union([z.boolean(), z.enum(['true', 'false', 'True', 'False']).transform((v) => v.toLowerCase() === 'true')]);

/**
 * A date-time: kept as the ISO text the API sent; an epoch-millisecond numeral (number or
 * string) is turned into ISO 8601 UTC.
 */
export const dateTime = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) => {
    if (v === undefined || v === null || v === '') return null;
    if (typeof v === 'number' || /^\d{10,}$/.test(v)) return new Date(Number(v)).toISOString().replace('.000Z', 'Z');
    return v;
  });

/** A series point: a double, or null where the API wrote `-` (no value at that collection point). */
export const point = z.union([num, z.literal('-').transform(() => null), z.null()]);

/** A list that may arrive as null: read as empty. */
export function list<T extends z.ZodType>(item: T) {
  return z.array(item).nullish().transform((v) => v ?? []);
}

/**
 * An enum kept open: the spec's names type-check, and a value the platform adds later still
 * parses instead of failing the whole response. Numbers map through `byNumber` when given.
 */
export function openEnum<const T extends readonly string[]>(values: T, byNumber?: Record<number, T[number]>) {
  return z
    .union([z.string(), z.number()], { error: `expected one of ${values.join(', ')}` })
    .transform((v): T[number] | (string & {}) => (typeof v === 'number' ? (byNumber?.[v] ?? String(v)) : v));
}
