import { describe, expect, it } from 'vitest';
import { formatMoney } from '@paydesk/contracts/money';
import { languageFromSearch } from './i18n';
import en from './locales/en';
import ru from './locales/ru';
import uz from './locales/uz';

type Tree = { [k: string]: string | Tree };
const keys = (t: Tree, p = ''): string[] =>
  Object.entries(t).flatMap(([k, v]) => (typeof v === 'string' ? [`${p}${k}`] : keys(v, `${p}${k}.`)));
const get = (t: Tree, key: string) =>
  key.split('.').reduce<string | Tree | undefined>((n, k) => (typeof n === 'object' ? n[k] : undefined), t);

describe('payment form languages', () => {
  it('chooses the language from ?lang=, English otherwise', () => {
    expect(languageFromSearch('')).toBe('en');
    expect(languageFromSearch('?lang=ru')).toBe('ru');
    expect(languageFromSearch('?x=1&lang=UZ')).toBe('uz');
    expect(languageFromSearch('?lang=de')).toBe('en');
    expect(languageFromSearch('?lang=')).toBe('en');
  });

  it('has every key, with the English wording', () => {
    expect(get(en, 'form.header.fail')).toBe('Fail');
    expect(get(en, 'form.text.fail')).toBe('Something went wrong');
    expect(get(en, 'form.text.processing')).toBe('Wait. Payment in progress...');
    expect(get(en, 'form.text.success')).toBe('Your balance will be updated soon');
    expect(get(en, 'form.button.continue')).toBe('Continue');
    expect(get(en, 'form.field.phoneNumberError')).toBe('Phone number must start with nine');
    expect(get(en, 'form.text.withdrawal_sbp.nothing_found')).toBe('Nothing found');
    expect(get(en, 'form.text.payment_id_note')).toBe('Save your Payment ID until the money arrives in your account');
  });

  it('translates every key into Russian and Uzbek, keeping the placeholders', () => {
    const all = keys(en);
    for (const [name, messages] of [
      ['ru', ru],
      ['uz', uz],
    ] as const) {
      expect(keys(messages).sort(), name).toEqual([...all].sort());
      for (const key of all) {
        const source = get(en, key) as string;
        const text = get(messages, key) as string;
        expect(text.trim(), `${name} ${key}`).not.toBe('');
        const vars = (s: string) => (s.match(/{{\w+}}/g) ?? []).sort();
        expect(vars(text), `${name} ${key}`).toEqual(vars(source));
      }
    }
  });

  it('Uzbek is written in Latin script', () => {
    for (const key of keys(uz)) expect(get(uz, key), key).not.toMatch(/[\u0400-\u04FF]/);
  });
});

describe('amounts by dimension and locale', () => {
  it('formats minor units with the dimension as fraction digits', () => {
    expect(formatMoney(5_000_000, 2, 'en', 'UZS')).toBe('50,000.00 UZS');
    expect(formatMoney(100_000, 2, 'en')).toBe('1,000.00');
    expect(formatMoney(1_234, 0, 'en', 'KRW')).toBe('1,234 KRW');
    expect(formatMoney(1_234_567, 3, 'en')).toBe('1,234.567');
    expect(formatMoney(5_000_000, 2, 'ru', 'RUB').replace(/\s/g, ' ')).toBe('50 000,00 RUB');
  });
});
