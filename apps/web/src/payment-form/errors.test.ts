import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { ErrorCode } from '@paydesk/contracts/errors';
import { errorText } from './errors';
import { initI18n, type Language } from './i18n';
import en from './locales/en';
import ru from './locales/ru';
import uz from './locales/uz';

const CODES = Object.keys(en.form.error) as ErrorCode[];
const LOCALES = { en, ru, uz } as const;

describe('API error codes in the payment form', () => {
  it('has a text for every code of contracts ERROR_CODES, and for nothing else', () => {
    // the locale is `satisfies Record<ErrorCode, string>`: a code added to contracts fails typecheck until translated
    expectTypeOf<keyof typeof en.form.error>().toEqualTypeOf<ErrorCode>();
    expect(CODES.length).toBeGreaterThanOrEqual(27);
    for (const lang of ['ru', 'uz'] as const)
      expect(Object.keys(LOCALES[lang].form.error).sort()).toEqual([...CODES].sort());
  });

  for (const lang of ['en', 'ru', 'uz'] as const satisfies readonly Language[]) {
    describe(lang, () => {
      beforeAll(() => initI18n(lang));

      it.each(CODES)('%s reads as a sentence in the language', (code) => {
        const text = errorText(code);
        expect(text).toBe(LOCALES[lang].form.error[code]);
        expect(text).toMatch(/\.$/);
        expect(text).not.toContain(code);
        if (lang === 'ru') expect(text).toMatch(/[а-яё]/i);
        else expect(text).not.toMatch(/[а-яё]/i);
        if (lang !== 'en') expect(text).not.toBe(en.form.error[code]);
      });

      it('reads an unknown code or a transport failure as the generic failure', () => {
        expect(errorText('HTTP_ERROR')).toBe(LOCALES[lang].form.text.fail);
        expect(errorText(undefined)).toBe(LOCALES[lang].form.text.fail);
        expect(errorText('toString')).toBe(LOCALES[lang].form.text.fail);
      });
    });
  }
});
