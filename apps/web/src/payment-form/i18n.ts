import i18next, { type TOptions } from 'i18next';
import { formatMoney } from '@paydesk/contracts/money';
import en, { type Messages } from './locales/en';

const LANGUAGES = ['en', 'ru', 'uz'] as const;
export type Language = (typeof LANGUAGES)[number];

/** `?lang=` chooses the language; anything else (or nothing) is English. */
export function languageFromSearch(search: string): Language {
  const lang = new URLSearchParams(search).get('lang')?.trim().toLowerCase();
  return (LANGUAGES as readonly string[]).includes(lang ?? '') ? (lang as Language) : 'en';
}

// English ships in the entry chunk; the other languages load only for the customers who asked.
const loaders: Record<Exclude<Language, 'en'>, () => Promise<{ default: Messages }>> = {
  ru: () => import('./locales/ru'),
  uz: () => import('./locales/uz'),
};

let current: Language = 'en';

export async function initI18n(lang: Language): Promise<void> {
  const resources: Record<string, { translation: Messages }> = { en: { translation: en } };
  if (lang !== 'en') resources[lang] = { translation: (await loaders[lang]()).default };
  current = lang;
  await i18next.init({
    lng: lang,
    fallbackLng: 'en',
    resources,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
}

type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];
/** Every translation key, e.g. 'form.button.continue'. */
export type MessageKey = Leaves<Messages>;

export function t(key: MessageKey, options?: TOptions): string {
  return i18next.t(key, options) as string;
}

export function language(): Language {
  return current;
}

/** An amount in minor units, formatted for the chosen language with the currency dimension. */
export function money(minor: number, dimension: number, currency?: string): string {
  return formatMoney(minor, dimension, numberLocale(), currency);
}

let numbers: string | undefined;
/**
 * Some Chromium builds claim Uzbek but carry no Uzbek number data and format it as English.
 * Uzbek separators are the Russian ones (space groups, decimal comma), so borrow those then.
 */
function numberLocale(): string {
  numbers ??= current === 'uz' && new Intl.NumberFormat('uz').format(1.5) !== '1,5' ? 'ru' : current;
  return numbers;
}
