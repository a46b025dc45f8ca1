import { describe, expect, it } from 'vitest';
import { decimalsOf, makeSettlementSchema, numberToDecimalString, numberToMinor, settlementBody } from './settlements';

const terminalId = '00000000-0000-4000-8000-000000000000';

describe('settlement amounts', () => {
  it('converts through the decimal string, never float math', () => {
    expect(numberToMinor(1500.5, 2)).toBe(150050);
    expect(numberToMinor(0.1 + 0.2, 2)).toBeNull(); // 0.30000000000000004 has too many decimals
    expect(numberToMinor(19.99, 2)).toBe(1999); // 19.99 * 100 = 1998.9999999999998 in floats
    expect(numberToMinor(12.345678, 6)).toBe(12345678);
    expect(numberToMinor(1.005, 2)).toBeNull();
    expect(numberToMinor(1e21, 2)).toBeNull();
    expect(numberToDecimalString(1e-7)).toBeNull();
    expect(decimalsOf(1.25)).toBe(2);
    expect(decimalsOf(7)).toBe(0);
  });

  it('the API body takes JSON numbers only: a number in quotes is refused, naming the field', () => {
    expect(settlementBody.parse({ baseAmount: 1500.5, settlementAmount: 12, terminalId })).toEqual({
      baseAmount: 1500.5,
      settlementAmount: 12,
      terminalId,
    });
    const msg = (v: object) =>
      settlementBody.safeParse({ terminalId, ...v }).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(msg({ baseAmount: '1', settlementAmount: 1 })).toEqual([
      'baseAmount: Base amount must be a number, not a string',
    ]);
    expect(msg({ baseAmount: 1, settlementAmount: '0.1' })).toEqual([
      'settlementAmount: Settlement amount must be a number, not a string',
    ]);
    expect(msg({ baseAmount: '', settlementAmount: 1 })).toEqual([
      'baseAmount: Base amount must be a number, not a string',
    ]);
    expect(msg({ settlementAmount: 1 })).toEqual(['baseAmount: Base amount is required']);
    // an integer past 2^53 arrives exactly, as a bigint (exact-json.ts): too large, never rounded
    expect(msg({ baseAmount: 9_007_199_254_740_993n, settlementAmount: 1 })).toEqual([
      'baseAmount: Base amount is too large',
    ]);
  });

  it('the web form coerces its text inputs and explains what is wrong', () => {
    const form = makeSettlementSchema();
    expect(form.parse({ baseAmount: ' 1500,5 ', settlementAmount: '12', terminalId })).toEqual({
      baseAmount: 1500.5,
      settlementAmount: 12,
      terminalId,
    });
    const msg = (v: object) =>
      form.safeParse({ terminalId, ...v }).error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    expect(msg({ baseAmount: '', settlementAmount: 1 })).toEqual(['baseAmount: Base amount is required']);
    expect(msg({ baseAmount: 'abc', settlementAmount: 1 })).toEqual(['baseAmount: Base amount must be a number']);
    expect(msg({ baseAmount: 1, settlementAmount: '1.1234567' })).toEqual([
      'settlementAmount: Settlement amount must have at most 6 decimals',
    ]);
    expect(msg({ baseAmount: -1, settlementAmount: 1 })).toEqual(['baseAmount: Base amount must be greater than 0']);
    expect(
      makeSettlementSchema(2).safeParse({ baseAmount: '1.234', settlementAmount: 1, terminalId }).error?.issues[0]
        ?.message,
    ).toBe('Base amount must have at most 2 decimals');
    expect(makeSettlementSchema(2).safeParse({ baseAmount: '1e3', settlementAmount: 1, terminalId }).success).toBe(
      false,
    );
  });
});
