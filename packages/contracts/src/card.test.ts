import { describe, expect, it } from 'vitest';
import { cardDigits, checkCardNumber, groupCardNumber, luhnValid } from './card';

describe('card numbers', () => {
  it('checks Luhn', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('')).toBe(false);
    expect(luhnValid('41x1')).toBe(false);
  });

  it('groups in fours while typing', () => {
    expect(groupCardNumber(cardDigits('4111-1111 11'))).toBe('4111 1111 11');
    expect(groupCardNumber('8600123412341234')).toBe('8600 1234 1234 1234');
    expect(groupCardNumber(cardDigits('1234567890123456789999'))).toBe('1234 5678 9012 3456 789');
    expect(groupCardNumber('')).toBe('');
  });

  it('accepts 16 to 19 digits passing Luhn', () => {
    expect(checkCardNumber('4111 1111 1111 1111')).toEqual({ ok: true, value: '4111111111111111' });
    expect(checkCardNumber('4111 1111 1111 111')).toEqual({ ok: false, reason: 'length' });
    expect(checkCardNumber('4111 1111 1111 1112')).toEqual({ ok: false, reason: 'luhn' });
    expect(checkCardNumber('6011 0009 9013 9424 0')).toEqual({ ok: false, reason: 'luhn' });
    expect(checkCardNumber('4111 1111 1111 1111 111').ok).toBe(false);
  });
});
