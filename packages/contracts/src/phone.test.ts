import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  INVALID_PHONE_FORMAT,
  checkRuPhone,
  formatRequisitePhone,
  formatRuPhoneMask,
  editRuPhone,
  RU_PHONE_PREFIX,
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

/** A field that behaves like the browser's: the value, the caret, and the selection when there is one. */
type Field = { value: string; caret: number; selEnd?: number };

/** The browser's part of an edit (replace the selection or insert at the caret), then the mask's. */
function edit(f: Field, inserted: string, how: 'insert' | 'backspace' | 'delete' = 'insert'): Field {
  let start = f.caret;
  let end = f.selEnd ?? f.caret;
  if (start === end && how === 'backspace') start = Math.max(0, start - 1);
  if (start === end && how === 'delete') end = Math.min(f.value.length, end + 1);
  const next = f.value.slice(0, start) + inserted + f.value.slice(end);
  const r = editRuPhone(f.value, next, start + inserted.length, how === 'delete');
  return { value: r.value, caret: r.caret };
}

/** Types the keys one by one into an empty field, as a customer on a phone does. */
function typeInto(keys: string, from: Field = { value: '', caret: 0 }): Field {
  let f = from;
  for (const key of keys) f = edit(f, key);
  return f;
}
const type = (keys: string) => typeInto(keys).value;
const press = (f: Field, how: 'backspace' | 'delete', times = 1): Field => {
  for (let i = 0; i < times; i++) f = edit(f, '', how);
  return f;
};
const at = (value: string, caret: number, selEnd?: number): Field => ({ value, caret, selEnd });

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

  it('fills the mask as ten national digits are typed', () => {
    expect(type('9991234567')).toBe('+7 (999) 123-45-67');
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

describe('Russian phone input, edit by edit', () => {
  const full = '+7 (916) 123-45-67';

  it('typed key by key: +7…, 8… and ten national digits all give the same number', () => {
    for (const keys of ['+79161234567', '89161234567', '9161234567', '79161234567']) {
      const f = typeInto(keys);
      expect(f, keys).toEqual({ value: full, caret: full.length });
      expect(checkRuPhone(f.value), keys).toEqual({ ok: true, value: '+79161234567' });
      expect(phoneCredentialForComplete((checkRuPhone(f.value) as { value: string }).value)).toBe('79161234567');
    }
  });

  it('shows what was typed at every key, the country code as soon as it is typed', () => {
    const shown: string[] = [];
    let f: Field = { value: '', caret: 0 };
    for (const key of '+7916') shown.push((f = edit(f, key)).value);
    expect(shown).toEqual(['+', RU_PHONE_PREFIX, '+7 (9', '+7 (91', '+7 (916']);
    expect(type('8')).toBe(RU_PHONE_PREFIX);
    expect(type('7')).toBe(RU_PHONE_PREFIX);
    expect(type('9')).toBe('+7 (9');
  });

  it('after the country code a 7 or an 8 is a national digit (and the nine rule says so)', () => {
    expect(type('+78991234567')).toBe('+7 (899) 123-45-67');
    expect(type('88991234567')).toBe('+7 (899) 123-45-67');
    expect(checkRuPhone(type('+78991234567'))).toEqual({ ok: false, reason: 'mustStartWithNine' });
    expect(type('+77')).toBe('+7 (7');
  });

  it('ignores what is not a digit and refuses an eleventh digit', () => {
    expect(type('+7 (916) 123-45-67')).toBe(full);
    expect(type('9a1b6')).toBe('+7 (916');
    expect(typeInto('91612345678')).toEqual({ value: full, caret: full.length });
    // a digit typed into the middle of a full number changes nothing, and the caret stays
    expect(edit(at(full, 5), '0')).toEqual({ value: full, caret: 5 });
  });

  it('pasted or filled in: with +7, 8 or 7 in front, spaced or not, or ten national digits', () => {
    for (const text of ['+7 916 123-45-67', '+7 (916) 123-45-67', '89161234567', '8 916 123 45 67', '79161234567'])
      expect(edit(at('', 0), text), text).toEqual({ value: full, caret: full.length });
    expect(edit(at('', 0), '9161234567').value).toBe(full);
    // ten digits are a whole national number, even with 8 in front
    expect(edit(at('', 0), '8991234567').value).toBe('+7 (899) 123-45-67');
    // pasted after the country code the customer typed, or over the whole number
    expect(edit(at(RU_PHONE_PREFIX, 4), '+7 916 123-45-67').value).toBe(full);
    expect(edit(at(RU_PHONE_PREFIX, 4), '8 916 123 45 67').value).toBe(full);
    expect(edit(at('+7 (999) 888-77-66', 0, 18), '+7 916 123-45-67').value).toBe(full);
    // a longer paste keeps its first ten digits
    expect(edit(at('', 0), '+7 916 123 45 67 89').value).toBe(full);
  });

  it('backspace removes one digit at a time, over mask characters too, then the country code', () => {
    const steps: string[] = [];
    let f = typeInto('9161234567');
    while (f.value !== '') {
      f = press(f, 'backspace');
      steps.push(f.value);
      expect(steps.length).toBeLessThan(20);
    }
    expect(steps).toEqual([
      '+7 (916) 123-45-6',
      '+7 (916) 123-45',
      '+7 (916) 123-4',
      '+7 (916) 123',
      '+7 (916) 12',
      '+7 (916) 1',
      '+7 (916',
      '+7 (91',
      '+7 (9',
      RU_PHONE_PREFIX,
      '',
    ]);
    expect(press(typeInto('+'), 'backspace').value).toBe('');
  });

  it('backspace right after a bracket, space or dash deletes the digit before it', () => {
    expect(press(at(full, 9), 'backspace')).toEqual({ value: '+7 (911) 234-56-7', caret: 6 });
    expect(press(at(full, 13), 'backspace')).toEqual({ value: '+7 (916) 124-56-7', caret: 11 });
    // as the browser deletes only the mask character: still the digit before it goes
    expect(editRuPhone('+7 (916) 1', '+7 (916 1', 7)).toEqual({ value: '+7 (911', caret: 6 });
  });

  it('edits in the middle keep the other digits and the caret where the edit is', () => {
    // backspace on the 6 of 916
    expect(press(at(full, 7), 'backspace')).toEqual({ value: '+7 (911) 234-56-7', caret: 6 });
    // Delete on the 1 of 123, and Delete just before a dash deletes the digit after it
    expect(press(at(full, 9), 'delete')).toEqual({ value: '+7 (916) 234-56-7', caret: 9 });
    expect(press(at(full, 12), 'delete')).toEqual({ value: '+7 (916) 123-56-7', caret: 13 });
    // a missing digit typed in the middle
    const missing = edit(at('+7 (916) 123-45-7', 15), '6');
    expect(missing).toEqual({ value: full, caret: 17 });
    // a selection replaced by a digit; a selection deleted
    expect(edit(at(full, 9, 12), '5')).toEqual({ value: '+7 (916) 545-67', caret: 10 });
    expect(press(at(full, 9, 12), 'backspace')).toEqual({ value: '+7 (916) 456-7', caret: 7 });
    // everything selected and deleted, or typed over
    expect(press(at(full, 0, full.length), 'backspace').value).toBe('');
    expect(typeInto('89', at(full, 0, full.length)).value).toBe('+7 (9');
  });

  it('backspace at the start of the digits keeps the country code while digits remain', () => {
    expect(press(at('+7 (916', 4), 'backspace')).toEqual({ value: '+7 (916', caret: 4 });
    expect(press(at(RU_PHONE_PREFIX, 4), 'backspace')).toEqual({ value: '', caret: 0 });
  });

  it('every typed digit lands where the caret was, and the value always reads back', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^9\d{0,8}$/), fc.nat(), fc.constantFrom(...'0123456789'), (d, pos, digit) => {
        const value = formatRuPhoneMask(d);
        const i = pos % (d.length + 1);
        // the caret just after the i-th national digit, as a customer would put it
        const caret =
          i === 0
            ? 4
            : [...value].findIndex(
                (_, k) => k >= 2 && /\d/.test(value[k]!) && ruPhoneNationalDigits(value.slice(0, k + 1)).length === i,
              ) + 1;
        const r = editRuPhone(value, value.slice(0, caret) + digit + value.slice(caret), caret + 1);
        expect(ruPhoneNationalDigits(r.value)).toBe(d.slice(0, i) + digit + d.slice(i));
        expect(ruPhoneNationalDigits(r.value.slice(0, r.caret))).toBe(d.slice(0, i) + digit);
      }),
    );
  });

  it('whatever the customer does, the field holds a well-formed value of at most ten digits', () => {
    const action = fc.record({
      how: fc.constantFrom('insert', 'backspace', 'delete') as fc.Arbitrary<'insert' | 'backspace' | 'delete'>,
      text: fc.stringMatching(/^[0-9+() -]{1,3}$/),
      caret: fc.nat(),
      length: fc.nat({ max: 4 }),
    });
    fc.assert(
      fc.property(fc.array(action, { maxLength: 30 }), (actions) => {
        let f: Field = { value: '', caret: 0 };
        for (const a of actions) {
          const caret = a.caret % (f.value.length + 1);
          const selEnd = Math.min(f.value.length, caret + a.length);
          f = edit(at(f.value, caret, selEnd), a.how === 'insert' ? a.text : '', a.how);
          const national = ruPhoneNationalDigits(f.value);
          expect(national.length).toBeLessThanOrEqual(10);
          expect(['', '+', national === '' ? RU_PHONE_PREFIX : formatRuPhoneMask(national)]).toContain(f.value);
          expect(f.caret).toBeGreaterThanOrEqual(0);
          expect(f.caret).toBeLessThanOrEqual(f.value.length);
        }
      }),
    );
  });
});
