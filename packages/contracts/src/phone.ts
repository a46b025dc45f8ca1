/**
 * Phone helpers of the payment form (SPEC §5): the requisites formatter for by_mobile
 * credentials and the Russian input mask +7 (999) 999-99-99.
 */

export const INVALID_PHONE_FORMAT = 'Invalid phone number format';

type PhoneShape = { currency: string; prefix: string; length: number; groups: readonly number[] };

/**
 * Requisite phone shapes: prefix, total length with the plus, and group sizes (the rest of the
 * number forms the last group). SPEC lists AZN as 4-2-3-2-1, which would drop the 13th character;
 * the last group takes the rest instead so no digit is ever hidden.
 */
export const REQUISITE_PHONE_SHAPES: readonly PhoneShape[] = [
  { currency: 'KGS', prefix: '+996', length: 13, groups: [4, 3] },
  { currency: 'UZS', prefix: '+998', length: 13, groups: [4, 2, 3, 2] },
  { currency: 'AZN', prefix: '+994', length: 13, groups: [4, 2, 3, 2] },
  { currency: 'RUB', prefix: '+7', length: 12, groups: [2, 3, 3, 2] },
];

/**
 * Formats a requisite phone number by its shape ('+998901234567' → '+998 90 123 45 67').
 * Spaces, brackets and dashes are ignored and a missing plus is added.
 * @throws Error('Invalid phone number format') for any other shape.
 */
export function formatRequisitePhone(value: string): string {
  const compact = value.replace(/[\s()-]/g, '');
  const v = compact.startsWith('+') ? compact : `+${compact}`;
  const shape = /^\+\d+$/.test(v)
    ? REQUISITE_PHONE_SHAPES.find((s) => v.startsWith(s.prefix) && v.length === s.length)
    : undefined;
  if (!shape) throw new Error(INVALID_PHONE_FORMAT);
  const parts: string[] = [];
  let at = 0;
  for (const size of shape.groups) {
    parts.push(v.slice(at, at + size));
    at += size;
  }
  if (at < v.length) parts.push(v.slice(at));
  return parts.join(' ');
}

/* ---- Russian phone mask: +7 (999) 999-99-99 ---- */

export const RU_PHONE_MASK = '+7 (999) 999-99-99';
export const RU_PHONE_NATIONAL_LENGTH = 10;

/**
 * The national digits (at most 10) of whatever the customer typed or pasted: the masked prefix
 * '+7' is dropped, and so is a leading 7 or 8 of an 11-digit number ('8 999 123-45-67').
 */
export function ruPhoneNationalDigits(input: string): string {
  const s = input.trim();
  let digits = (s.startsWith('+7') ? s.slice(2) : s).replace(/\D/g, '');
  if (!s.startsWith('+7') && digits.length > RU_PHONE_NATIONAL_LENGTH && /^[78]/.test(digits)) digits = digits.slice(1);
  return digits.slice(0, RU_PHONE_NATIONAL_LENGTH);
}

/** National digits → masked display, filled progressively ('99912' → '+7 (999) 12'); '' stays ''. */
export function formatRuPhoneMask(national: string): string {
  const d = national.replace(/\D/g, '').slice(0, RU_PHONE_NATIONAL_LENGTH);
  if (d === '') return '';
  let out = `+7 (${d.slice(0, 3)}`;
  if (d.length > 3) out += `) ${d.slice(3, 6)}`;
  if (d.length > 6) out += `-${d.slice(6, 8)}`;
  if (d.length > 8) out += `-${d.slice(8, 10)}`;
  return out;
}

/**
 * The next masked value of a phone input after an edit. Deleting only mask characters
 * (a bracket, space or dash) deletes the digit before them, so backspace never gets stuck.
 */
export function nextRuPhoneInput(previous: string, typed: string): string {
  const prevDigits = ruPhoneNationalDigits(previous);
  let digits = ruPhoneNationalDigits(typed);
  if (typed.length < previous.length && digits === prevDigits) digits = digits.slice(0, -1);
  return formatRuPhoneMask(digits);
}

export type RuPhoneCheck = { ok: true; value: string } | { ok: false; reason: 'incomplete' | 'mustStartWithNine' };

/**
 * A Russian mobile number: 10 national digits starting with 9, stored with the country digit
 * in front ('+79991234567').
 */
export function checkRuPhone(input: string): RuPhoneCheck {
  const d = ruPhoneNationalDigits(input);
  if (d.length < RU_PHONE_NATIONAL_LENGTH) return { ok: false, reason: 'incomplete' };
  if (!d.startsWith('9')) return { ok: false, reason: 'mustStartWithNine' };
  return { ok: true, value: `+7${d}` };
}

/** The credential as sent to complete a payment: trimmed, leading plus removed (SPEC §5). */
export function phoneCredentialForComplete(credential: string): string {
  return credential.trim().replace(/^\+/, '');
}

/** Minimum length of a phone credential after trimming (SPEC §9). */
export const PHONE_CREDENTIAL_MIN_LENGTH = 9;
