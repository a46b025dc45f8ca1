import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { luhnValid } from './card';
import { maskCard, maskPansInText, maskPhone, maskRequisite, maskRequisitesInText } from './masking';

describe('maskCard', () => {
  it('keeps the BIN and the last four, six asterisks between', () => {
    expect(maskCard('9860123456789015')).toBe('986012******9015');
    expect(maskCard('4111 1111-1111 1111')).toBe('411111******1111');
    // the asterisks do not tell the length
    expect(maskCard('6200000000000000000')).toBe('620000******0000');
    expect(maskCard('123456789012')).toBe('123456******9012');
  });

  it('shows only the last four of a value too short to be a card', () => {
    expect(maskCard('12345678901')).toBe('*******8901');
    expect(maskCard('9015')).toBe('****');
    expect(maskCard('15')).toBe('**');
    expect(maskCard('')).toBe('');
  });

  it('never shows more than 10 digits of a 12–19 digit number', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{12,19}$/), (pan) => {
        const masked = maskCard(pan);
        expect(masked.replace(/\*/g, '')).toBe(pan.slice(0, 6) + pan.slice(-4));
        expect(masked).toContain('******');
      }),
    );
  });
});

describe('maskPhone', () => {
  it('keeps country and operator code and the last two; the subscriber number is hidden', () => {
    expect(maskPhone('998901234567')).toBe('99890*****67');
    expect(maskPhone('79161234567')).toBe('7916*****67');
    expect(maskPhone('+79161234567')).toBe('+7916*****67');
    expect(maskPhone('+7 (916) 123-45-67')).toBe('+7916*****67');
    expect(maskPhone('+998 90 123 45 67')).toBe('+99890*****67');
    expect(maskPhone('9161234567')).toBe('916*****67');
  });

  it('shows at most six leading digits of a long number', () => {
    expect(maskPhone('+123456789012345')).toBe('+123456*******45');
  });

  it('shows only the last two of a number under ten digits', () => {
    expect(maskPhone('1234567')).toBe('*****67');
    expect(maskPhone('+12')).toBe('+**');
    expect(maskPhone('')).toBe('');
  });

  it('always hides at least five digits of a number of ten or more', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\+?\d{10,15}$/), (phone) => {
        const masked = maskPhone(phone);
        expect(masked.length).toBe(phone.length);
        expect((masked.match(/\*/g) ?? []).length).toBeGreaterThanOrEqual(5);
        expect(masked.slice(-2)).toBe(phone.slice(-2));
      }),
    );
  });
});

describe('maskRequisite', () => {
  it('dispatches on the credential type', () => {
    expect(maskRequisite('CARD', '9860123456789015')).toBe('986012******9015');
    expect(maskRequisite('PHONE', '+998901234567')).toBe('+99890*****67');
    expect(maskRequisite('IBAN', 'GB82WEST12345698765432')).toBe('******************5432');
    expect(maskRequisite('OTHER', 'abc')).toBe('***');
  });
});

describe('maskPansInText', () => {
  it('masks Luhn-valid card numbers, plain or grouped, keeping separators', () => {
    expect(maskPansInText('paid from 4111111111111111 ok')).toBe('paid from 411111******1111 ok');
    expect(maskPansInText('card 4111 1111 1111 1111, again 4111-1111-1111-1111.')).toBe(
      'card 4111 11** **** 1111, again 4111-11**-****-1111.',
    );
    expect(maskPansInText('{"value":"9860123456789015"}')).toBe('{"value":"986012******9015"}');
    // 13 and 19 digits
    expect(maskPansInText('a 4222222222222 b')).toBe('a 422222***2222 b');
    expect(maskPansInText('6200000000000000000')).toBe('620000*********0000');
  });

  it('leaves numbers that fail Luhn, or are too short or too long, as they are', () => {
    for (const text of [
      'card 4111111111111112',
      'phone +998901234567',
      'amount 100000.00 at 2024-01-15 10:00:00',
      'id 41111111111111110000000',
      'invoice 123456789012',
      // a time in ms that happens to pass Luhn: no card starts with 1
      '{"time":1764400000006}',
    ])
      expect(maskPansInText(text)).toBe(text);
  });

  it('finds a card among other digit groups', () => {
    expect(maskPansInText('order 77 4111 1111 1111 1111 12')).toBe('order 77 4111 11** **** 1111 12');
  });

  it('never leaves a Luhn-valid 13–19 digit number starting 2–9 whole, in any grouping', () => {
    const pan = fc
      .stringMatching(/^[2-9]\d{11,17}$/)
      .map((body) => {
        for (let d = 0; d <= 9; d++) if (luhnValid(body + d)) return body + d;
        return body;
      })
      .filter((p) => luhnValid(p));
    fc.assert(
      fc.property(pan, fc.array(fc.integer({ min: 1, max: 18 })), fc.constantFrom(' ', '-'), (p, cuts, sep) => {
        const at = [...new Set(cuts.filter((c) => c < p.length))].sort((a, b) => a - b);
        let grouped = '';
        let prev = 0;
        for (const c of at) {
          grouped += p.slice(prev, c) + sep;
          prev = c;
        }
        grouped += p.slice(prev);
        // typed in groups, a card's groups are short (4 4 4 4, 4 6 5); longer ones are never joined
        const groups = grouped.split(sep);
        fc.pre(groups.length === 1 || groups.every((g) => g.length <= 6));
        const masked = maskPansInText(`x ${grouped} y`);
        expect(masked.replace(/[^\d]/g, '')).toBe(p.slice(0, 6) + p.slice(-4));
        expect(masked.length).toBe(grouped.length + 4);
      }),
    );
  });
});

describe('maskRequisitesInText', () => {
  it('masks international phone numbers and card numbers; leaves times, amounts and ids', () => {
    expect(maskRequisitesInText('to +998901234567 and +7 916 123-45-67')).toBe('to +99890*****67 and +7916*****67');
    expect(maskRequisitesInText('{"card":"9860 1234 5678 9015","time":1764400000006,"amount":"100000.00"}')).toBe(
      '{"card":"9860 12** **** 9015","time":1764400000006,"amount":"100000.00"}',
    );
    expect(maskRequisitesInText('id 123456789 at 2026-11-29')).toBe('id 123456789 at 2026-11-29');
    // after an escape of a JSON log line (a line break, a tab): still a number of its own
    expect(maskRequisitesInText('{"msg":"row 3:\\n4111111111111111"}')).toBe('{"msg":"row 3:\\n411111******1111"}');
    expect(maskRequisitesInText('{"msg":"to\\t+998901234567"}')).toBe('{"msg":"to\\t+99890*****67"}');
  });

  it('never touches the digits of a UUID or of a hex id, whatever they add up to', () => {
    fc.assert(
      fc.property(fc.uuid(), (id) => {
        const line = `{"invoiceId":"${id}","path":"/api/v1/invoice/${id}"}`;
        expect(maskRequisitesInText(line)).toBe(line);
      }),
    );
    // all-digit groups, a Luhn-valid 16 digits among them
    const id = '47465212-3912-4000-8000-986012345678';
    expect(maskRequisitesInText(`invoice ${id} ok`)).toBe(`invoice ${id} ok`);
    expect(maskRequisitesInText('key ab4111111111111111cd')).toBe('key ab4111111111111111cd');
    // a merchant's id of a process id and a time in ms, whatever they add up to
    for (const id of ['inv-23456-1764400000000-5', 'inv-23459-1764400000001-12']) {
      expect(maskRequisitesInText(id)).toBe(id);
    }
  });
});
