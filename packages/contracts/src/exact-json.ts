import { parse } from 'lossless-json';

/**
 * Exact integers on the wire (JSON carries amounts as integers, in minor units). A figure that can grow
 * past 2^53 (an account limit, a balance, a sum) is a JS `bigint` where it exceeds
 * Number.MAX_SAFE_INTEGER and a `number` below; JSON carries it as a plain integer either way, so
 * clients in any language read the same digits. The server and the back-office parse and write
 * JSON with these two functions; JSON.parse would round such a figure silently.
 */
export type ExactInt = number | bigint;

const INTEGER = /^-?\d+$/;
/** An integer that does not fit a double exactly becomes a bigint; everything else a number. */
const parseNumber = (v: string): number | bigint => {
  const n = Number(v);
  return INTEGER.test(v) && !Number.isSafeInteger(n) ? BigInt(v) : n;
};
/** 16 or more digits in a row: the only texts in which a number could exceed 2^53. */
const LONG_NUMBER = /\d{16}/;

export function parseJson(text: string): unknown {
  return LONG_NUMBER.test(text) ? parse(text, null, parseNumber) : JSON.parse(text);
}

/** A marker no payload contains (random per process), unquoted after JSON.stringify. */
const MARK = `\u0001exact-${Array.from(globalThis.crypto.getRandomValues(new Uint32Array(4)), (n) => n.toString(36)).join('')}:`;
const MARKED = new RegExp(`"${MARK.replace('\u0001', '\\\\u0001')}(-?\\d+)"`, 'g');
/** A JSON.stringify replacer that marks bigints; `unmarkJson` then writes them as plain integers. */
export const bigintReplacer = (_key: string, value: unknown) => (typeof value === 'bigint' ? `${MARK}${value}` : value);
export const unmarkJson = (out: string) => (out.includes('exact-') ? out.replace(MARKED, '$1') : out);

/** JSON.stringify that writes bigints as exact integers. */
export function stringifyJson(value: unknown, space?: number): string {
  const out = JSON.stringify(value, bigintReplacer, space) as string | undefined;
  return out === undefined ? (out as unknown as string) : unmarkJson(out);
}

/** A bigint as the smallest exact JS value: a number when it is safe. */
export const toExactInt = (v: bigint | number | string): ExactInt => {
  const b = BigInt(v);
  return b >= BigInt(Number.MIN_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(b) : b;
};

/** A bounded amount (checked to ±(2^53 − 1) where it is stored) as a number; out of range throws, never rounds. */
export function toSafeInt(v: string | number | bigint): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n) || (typeof v === 'string' && !INTEGER.test(v))) {
    throw new RangeError(`${String(v)} is not an integer a JS number holds exactly`);
  }
  return n;
}

/** PostgreSQL bigint's range. */
