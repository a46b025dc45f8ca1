import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { exactInt } from './exact-int';
import { parseJson, stringifyJson, toExactInt } from './exact-json';

describe('exact JSON integers', () => {
  it('parses integers past 2^53 as bigints and everything else as JSON.parse does', () => {
    expect(parseJson('{"limit":9007199254740993,"n":12,"f":1.5,"s":"12345678901234567890"}')).toEqual({
      limit: 9_007_199_254_740_993n,
      n: 12,
      f: 1.5,
      s: '12345678901234567890',
    });
    expect(parseJson('[9007199254740991,-9223372036854775808]')).toEqual([
      9_007_199_254_740_991,
      -9_223_372_036_854_775_808n,
    ]);
    expect(() => parseJson('{"a":')).toThrow();
  });

  it('writes bigints as plain integers, and a string that looks like one stays a string', () => {
    expect(stringifyJson({ a: 9_223_372_036_854_775_807n, b: [1n, -2n], c: 'exact-1' })).toBe(
      '{"a":9223372036854775807,"b":[1,-2],"c":"exact-1"}',
    );
    expect(stringifyJson({ a: 1 })).toBe(JSON.stringify({ a: 1 }));
  });

  it('round-trips every int8 exactly', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (v) => {
        const back = (parseJson(stringifyJson({ v: toExactInt(v) })) as { v: number | bigint }).v;
        expect(BigInt(back)).toBe(v);
        expect(typeof back).toBe(Number.isSafeInteger(Number(v)) && BigInt(Number(v)) === v ? 'number' : 'bigint');
      }),
    );
  });

  it('the schema takes whole numbers in int8 range, as the smallest exact type', () => {
    const s = exactInt();
    expect(s.parse(5)).toBe(5);
    expect(s.parse(5n)).toBe(5);
    expect(s.parse(9_007_199_254_740_993n)).toBe(9_007_199_254_740_993n);
    for (const bad of [1.5, '5', 2n ** 63n, Number.MAX_SAFE_INTEGER + 2, null]) {
      expect(s.safeParse(bad).success, String(bad)).toBe(false);
    }
  });
});
