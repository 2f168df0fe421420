// Building blocks of the response schemas: casing-tolerant objects that keep unknown fields
// (assumptions A1, A2), numerals read as numbers, `-` points as null, missing values as null.
//
// Speed: a response is parsed on every call, so the lenient reading (numerals, enum numbers,
// "-" points, missing fields) is done once per object in plain code (`prepare`/`fallback`,
// applied by `model`), and the zod schemas left to check are simple ones. Field helpers below
// are meant for use inside `model()`.
import { z } from 'zod/v4';

type Shape = Record<string, z.ZodType>;

interface FieldMeta {
  /** Turns a present, non-null value into the form the schema checks. */
  prepare?: (value: unknown) => unknown;
  /** The value of an absent field (and of null, when `nullToFallback`). */
  fallback?: () => unknown;
  nullToFallback?: boolean;
}

const fieldMeta = new WeakMap<z.ZodType, FieldMeta>();

function lenient<T extends z.ZodType>(schema: T, meta: FieldMeta): T {
  fieldMeta.set(schema, meta);
  return schema;
}

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
  const lenientFields = Object.entries(shape)
    .map(([key, schema]) => [key, fieldMeta.get(schema)] as const)
    .filter((entry): entry is readonly [string, FieldMeta] => entry[1] !== undefined);
  return z.preprocess((input) => {
    if (input === null || typeof input !== 'object' || Array.isArray(input)) return input;
    const out = canonicalKeys(input as Record<string, unknown>, lookup);
    for (const [key, meta] of lenientFields) {
      const value = out[key];
      if (value === undefined || (value === null && meta.nullToFallback)) {
        if (meta.fallback) out[key] = meta.fallback();
      } else if (value !== null && meta.prepare) {
        out[key] = meta.prepare(value);
      }
    }
    return out;
  }, z.looseObject(shape));
}

/** A copy with canonical key names; the canonical spelling wins over an alias or another casing. */
function canonicalKeys(input: Record<string, unknown>, lookup: Map<string, string>): Record<string, unknown> {
  let renamed = false;
  for (const key in input) {
    const canonical = lookup.get(key) ?? lookup.get(key.toLowerCase());
    if (canonical !== undefined && canonical !== key) {
      renamed = true;
      break;
    }
  }
  // The usual case: keys already canonical (A1); a plain copy, no bookkeeping.
  if (!renamed) return { ...input };
  const out: Record<string, unknown> = {};
  const exact = new Set<string>();
  for (const key in input) {
    const value = input[key];
    const canonical = lookup.get(key) ?? lookup.get(key.toLowerCase());
    if (canonical === undefined) {
      if (!(key in out)) out[key] = value;
    } else if (key === canonical) {
      out[canonical] = value;
      exact.add(canonical);
    } else if (!exact.has(canonical) && !(canonical in out && value === null)) {
      out[canonical] = value;
    }
  }
  return out;
}

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?\d+(\.\d+)?([eE][-+]?\d+)?$/;
const toInteger = (v: unknown): unknown => (typeof v === 'string' && INTEGER.test(v.trim()) ? Number(v) : v);
const toNumber = (v: unknown): unknown => (typeof v === 'string' && NUMBER.test(v.trim()) ? Number(v) : v);
const asNull = (): null => null;

const integerSchema = () => z.number({ error: 'expected an integer' }).int({ error: 'expected an integer' });
const numberSchema = () => z.number({ error: 'expected a number' });

/** An integer, also when sent as a numeral string. */
export const int = lenient(integerSchema(), { prepare: toInteger });
/** A double, also when sent as a numeral string. */
export const num = lenient(numberSchema(), { prepare: toNumber });
/** Optional text: absent or null both read as null. */
export const text = lenient(z.string({ error: 'expected a text' }).nullable(), { fallback: asNull });
/** Text that arrives as a string or a number (ids, parameter values). */
export const textish = lenient(z.string({ error: 'expected a text' }).nullable(), {
  fallback: asNull,
  prepare: (v) => (typeof v === 'number' ? String(v) : v),
});
/** Required text that may arrive as a number (ids). */
export const idText = lenient(z.string({ error: 'expected a text id' }), { prepare: (v) => (typeof v === 'number' ? String(v) : v) });
export const optInt = lenient(integerSchema().nullable(), { prepare: toInteger, fallback: asNull });
export const optNum = lenient(numberSchema().nullable(), { prepare: toNumber, fallback: asNull });
/** Empty strings mean "none" in several fields (CBM dates, created-user fields). */
export const textOrEmpty = lenient(z.string({ error: 'expected a text' }).nullable(), {
  fallback: asNull,
  prepare: (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
});
export const optIntOrEmpty = lenient(integerSchema().nullable(), {
  fallback: asNull,
  prepare: (v) => (v === '' ? null : toInteger(v)),
});
/** Epoch milliseconds; `-1` (none, A6) and absent read as null. */
export const epochOrNone = lenient(integerSchema().nullable(), {
  fallback: asNull,
  prepare: (v) => {
    const n = toInteger(v);
    return typeof n === 'number' && n < 0 ? null : n;
  },
});
const toBoolean = (v: unknown): unknown => (typeof v === 'string' && /^(true|false)$/i.test(v) ? v.toLowerCase() === 'true' : v);
export const bool = lenient(z.boolean({ error: 'expected true or false' }), { prepare: toBoolean });
/** A flag that is false when absent. */
export const flag = lenient(z.boolean({ error: 'expected true or false' }), { prepare: toBoolean, fallback: () => false, nullToFallback: true });

/**
 * A date-time: kept as the ISO text the API sent; an epoch-millisecond numeral (number or
 * string) is turned into ISO 8601 UTC; empty reads as null.
 */
export const dateTime = lenient(z.string({ error: 'expected an ISO 8601 date-time' }).nullable(), {
  fallback: asNull,
  prepare: (v) => {
    if (v === '') return null;
    if (typeof v === 'number' || (typeof v === 'string' && /^\d{10,}$/.test(v))) return new Date(Number(v)).toISOString().replace('.000Z', 'Z');
    return v;
  },
});

/** A list that may arrive as null or be absent: read as empty. */
export function list<T extends z.ZodType>(item: T) {
  const prepareItem = fieldMeta.get(item)?.prepare;
  return lenient(z.array(item), {
    fallback: () => [],
    nullToFallback: true,
    prepare: prepareItem && ((v) => (Array.isArray(v) ? v.map((x) => (x === null || x === undefined ? x : prepareItem(x))) : v)),
  });
}

/** A series: each point a double, or null where the API wrote `-` (no value at that collection point). */
export const series = lenient(
  z.custom<Array<number | null>>((v) => Array.isArray(v) && v.every((p) => p === null || (typeof p === 'number' && Number.isFinite(p))), {
    error: 'expected a list of numbers or "-"',
  }),
  {
    fallback: () => [],
    nullToFallback: true,
    prepare: (v) => (Array.isArray(v) ? v.map((p) => (p === '-' || p === '' ? null : toNumber(p))) : v),
  },
);

/** Epoch-millisecond timestamps, sent as integer numerals (A6). */
export const timestamps = lenient(
  z.custom<number[]>((v) => Array.isArray(v) && v.every((t) => Number.isSafeInteger(t)), { error: 'expected a list of integer timestamps' }),
  { fallback: () => [], nullToFallback: true, prepare: (v) => (Array.isArray(v) ? v.map(toInteger) : v) },
);

/**
 * An enum kept open: the spec's names type-check, and a value the platform adds later still
 * parses instead of failing the whole response. Numbers map through `byNumber` when given.
 */
export function openEnum<const T extends readonly string[]>(values: T, byNumber?: Record<number, T[number]>) {
  return lenient(z.custom<T[number] | (string & {})>((v) => typeof v === 'string', { error: `expected one of ${values.join(', ')}` }), {
    prepare: (v) => (typeof v === 'number' ? (byNumber?.[v] ?? String(v)) : v),
  });
}

/** The same, null when absent. */
export function optionalEnum<const T extends readonly string[]>(values: T, byNumber?: Record<number, T[number]>) {
  return lenient(
    z.custom<T[number] | (string & {}) | null>((v) => v === null || typeof v === 'string', { error: `expected one of ${values.join(', ')}` }),
    { fallback: asNull, prepare: (v) => (typeof v === 'number' ? (byNumber?.[v] ?? String(v)) : v) },
  );
}

/** A nested object that may be absent or null: null then. */
export function optionalObject<T extends z.ZodType>(schema: T) {
  return lenient(schema.nullable(), { fallback: asNull });
}
