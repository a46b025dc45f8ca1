import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  INVALID_PHONE_FORMAT,
  checkRuPhone,
  formatRequisitePhone,
  formatRuPhoneMask,
  nextRuPhoneInput,
  phoneCredentialForComplete,
  ruPhoneNationalDigits,
} from './phone';

describe('formatRequisitePhone', () => {
  it('groups each supported country by its shape', () => {
    expect(formatRequisitePhone('+996555123456')).toBe('+996 555 123456');
    expect(formatRequisitePhone('+998901234567')).toBe('+998 90 123 45 67');
    expect(formatRequisitePhone('+994501234567')).toBe('+994 50 123 45 67');
    expect(formatRequisitePhone('+79991234567')).toBe('+7 999 123 45 67');
  });

  it('adds a missing plus and ignores separators', () => {
    expect(formatRequisitePhone('998901234567')).toBe('+998 90 123 45 67');
    expect(formatRequisitePhone('+7 (999) 123-45-67')).toBe('+7 999 123 45 67');
  });

  it('throws for any other shape', () => {
    for (const bad of ['', '+1234567890123', '+99890123456', '+7999123456789', '+7999abc4567', '+380501234567'])
      expect(() => formatRequisitePhone(bad), bad).toThrow(INVALID_PHONE_FORMAT);
  });

  it('never loses or adds a digit', () => {
    fc.assert(
      fc.property(fc.constantFrom('+996', '+998', '+994'), fc.stringMatching(/^\d{9}$/), (prefix, rest) => {
        expect(formatRequisitePhone(prefix + rest).replace(/ /g, '')).toBe(prefix + rest);
      }),
    );
  });
});

describe('Russian phone mask', () => {
  it('fills the mask progressively', () => {
    expect(formatRuPhoneMask('')).toBe('');
    expect(formatRuPhoneMask('9')).toBe('+7 (9');
    expect(formatRuPhoneMask('999')).toBe('+7 (999');
    expect(formatRuPhoneMask('9991')).toBe('+7 (999) 1');
    expect(formatRuPhoneMask('9991234')).toBe('+7 (999) 123-4');
    expect(formatRuPhoneMask('999123456')).toBe('+7 (999) 123-45-6');
    expect(formatRuPhoneMask('9991234567')).toBe('+7 (999) 123-45-67');
    expect(formatRuPhoneMask('99912345678')).toBe('+7 (999) 123-45-67');
  });

  it('reads national digits from typed, masked and pasted input', () => {
    expect(ruPhoneNationalDigits('+7 (999) 123-45-67')).toBe('9991234567');
    expect(ruPhoneNationalDigits('+7 (')).toBe('');
    expect(ruPhoneNationalDigits('8 999 123 45 67')).toBe('9991234567');
    expect(ruPhoneNationalDigits('79991234567')).toBe('9991234567');
    expect(ruPhoneNationalDigits('999 123 45 67 89')).toBe('9991234567');
  });

  it('typing digit by digit produces the mask', () => {
    let value = '';
    for (const ch of '9991234567') value = nextRuPhoneInput(value, value + ch);
    expect(value).toBe('+7 (999) 123-45-67');
  });

  it('backspace over mask characters removes the digit before them', () => {
    expect(nextRuPhoneInput('+7 (999) 1', '+7 (999) ')).toBe('+7 (999');
    expect(nextRuPhoneInput('+7 (999) 123-4', '+7 (999) 123-')).toBe('+7 (999) 123');
    expect(nextRuPhoneInput('+7 (9', '+7 (')).toBe('');
  });

  it('round-trips any national number', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{0,10}$/), (d) => {
        expect(ruPhoneNationalDigits(formatRuPhoneMask(d))).toBe(d);
      }),
    );
  });

  it('validates: ten digits starting with nine, stored with 7 in front', () => {
    expect(checkRuPhone('+7 (999) 123-45')).toEqual({ ok: false, reason: 'incomplete' });
    expect(checkRuPhone('+7 (899) 123-45-67')).toEqual({ ok: false, reason: 'mustStartWithNine' });
    expect(checkRuPhone('+7 (999) 123-45-67')).toEqual({ ok: true, value: '+79991234567' });
  });

  it('removes the leading plus before completing', () => {
    expect(phoneCredentialForComplete(' +79991234567 ')).toBe('79991234567');
    expect(phoneCredentialForComplete('79991234567')).toBe('79991234567');
  });
});
