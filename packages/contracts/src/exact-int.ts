import { z } from 'zod';
import { toExactInt, type ExactInt } from './exact-json';

// Apart from exact-json.ts, which the web app's API client loads on every page: zod stays out of that first chunk.

const INT8_MAX = 9_223_372_036_854_775_807n;
const INT8_MIN = -9_223_372_036_854_775_808n;

const isWhole = (v: unknown): v is ExactInt =>
  (typeof v === 'number' && Number.isSafeInteger(v)) || typeof v === 'bigint';

/** A wire integer in PostgreSQL's bigint range, exact at any size (a JSON integer in the API document). */
export const exactInt = (message = 'Must be a whole number', required = message) =>
  z
    .custom<ExactInt>(isWhole, {
      // a missing value or one of another type: "required"; a number that is not whole: `message`
      error: (iss) => (typeof iss.input === 'number' || typeof iss.input === 'bigint' ? message : required),
    })
    .refine((v) => BigInt(v) <= INT8_MAX && BigInt(v) >= INT8_MIN, 'Must fit a 64-bit integer')
    .transform(toExactInt)
    .meta({ type: 'integer', format: 'int64' });
