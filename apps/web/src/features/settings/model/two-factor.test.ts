import { describe, expect, it } from 'vitest';
import { groupSecret, recoveryCodesFileName, recoveryCodesText } from './two-factor';

describe('the setup key shown for typing', () => {
  it('is cut into groups of four, the last one shorter when the length does not divide', () => {
    expect(groupSecret('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    expect(groupSecret('ABCDEFGHIJ')).toBe('ABCD EFGH IJ');
    expect(groupSecret('AB CD EF')).toBe('ABCD EF');
    expect(groupSecret('')).toBe('');
  });

  it('reads back to the same secret without its spaces', () => {
    const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    expect(groupSecret(secret).replace(/ /g, '')).toBe(secret);
  });
});

describe('the recovery codes file', () => {
  const codes = 'abcdefghij'.split('').map((c) => `${c}bcd2-fghi7`);

  it('says whose codes they are and when they were made, then one code a line', () => {
    const text = recoveryCodesText(codes, 'finance', new Date('2026-03-01T09:05:00Z'));
    const lines = text.split('\n');
    expect(lines[0]).toBe('Paydesk recovery codes for finance');
    expect(lines[1]).toBe('Made 01 Mar 2026 09:05:00 UTC');
    expect(lines.filter((l) => /^[a-z2-7]{5}-[a-z2-7]{5}$/.test(l))).toEqual(codes);
    expect(text.endsWith('\n')).toBe(true);
  });

  it('is named after the user, with only safe characters', () => {
    expect(recoveryCodesFileName('e2e.user-1')).toBe('paydesk-recovery-codes-e2e.user-1.txt');
    expect(recoveryCodesFileName('a/b c')).toBe('paydesk-recovery-codes-a_b_c.txt');
  });
});
