/**
 * Phone helpers of the payment form: the requisites formatter for by_mobile
 * credentials and the Russian input mask +7 (999) 999-99-99.
 */

export const INVALID_PHONE_FORMAT = 'Invalid phone number format';

type PhoneShape = { currency: string; prefix: string; length: number; groups: readonly number[] };

/**
 * Requisite phone shapes: prefix, total length with the plus, and group sizes (the rest of the
 * number forms the last group). AZN written as 4-2-3-2-1 would drop the 13th character;
 * the last group takes the rest instead so no digit is ever hidden.
 */
const REQUISITE_PHONE_SHAPES: readonly PhoneShape[] = [
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
const RU_PHONE_NATIONAL_LENGTH = 10;

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

/** What the field shows once the country code is there and no national digit yet. */
export const RU_PHONE_PREFIX = '+7 (';

export type RuPhoneEdit = { value: string; caret: number };

const onlyDigits = (s: string) => s.replace(/\D/g, '');

/** The national digits a masked value holds: whatever follows its country code '+7'. */
function maskedNational(masked: string): string {
  return masked.startsWith('+7') ? onlyDigits(masked.slice(2)) : '';
}

/** How many national digits of a masked value lie before the position `pos`. */
function nationalBefore(masked: string, pos: number): number {
  return masked.startsWith('+7') ? onlyDigits(masked.slice(2, Math.max(2, pos))).length : 0;
}

/** The masked value of the national digits, the country code shown even before the first of them. */
function showRuPhone(national: string): string {
  return national === '' ? RU_PHONE_PREFIX : formatRuPhoneMask(national);
}

/** The position just after the `count`-th national digit of a masked value (after '+7 (' for none). */
function caretAfterDigits(masked: string, count: number): number {
  if (count <= 0) return Math.min(RU_PHONE_PREFIX.length, masked.length);
  let seen = 0;
  for (let i = 2; i < masked.length; i++) {
    if (/\d/.test(masked[i]!) && ++seen === count) return i + 1;
  }
  return masked.length;
}

/** The position just before national digit number `index` (from 0), or the end when there is none. */
function caretBeforeDigit(masked: string, index: number): number {
  let seen = 0;
  for (let i = 2; i < masked.length; i++) {
    if (/\d/.test(masked[i]!) && seen++ === index) return i;
  }
  return masked.length;
}

/**
 * The beginning of a number as the customer writes it, before the field shows a country code.
 * '+7' is the country code; so is a leading 7 or 8 (the trunk prefix Russians dial) unless exactly ten
 * digits come with it, which is a whole national number pasted or filled in ('8991234567').
 * Typed key by key, the first 7 or 8 is therefore the country code: a Russian mobile number never
 * starts with either, and taking it for the first national digit shifts every digit that follows.
 */
function readNumberStart(text: string): { plus: boolean; country: boolean; national: string } {
  const plus = text.trim().startsWith('+');
  let national = onlyDigits(text);
  let country = false;
  if (plus && national.startsWith('7')) {
    country = true;
    national = national.slice(1);
  } else if (/^[78]/.test(national) && national.length !== RU_PHONE_NATIONAL_LENGTH) {
    country = true;
    national = national.slice(1);
  }
  return { plus: plus && !country && national === '', country, national };
}

/**
 * Digits inserted after the country code (typed, pasted, filled in): a pasted whole number brings its
 * own country code or trunk prefix ('+7 916 …', '8 916 …'), which is dropped; a single digit is a digit.
 */
function insertedNational(text: string): string {
  const d = onlyDigits(text);
  if (text.trim().startsWith('+')) return d.startsWith('7') ? d.slice(1) : d;
  return d.length > RU_PHONE_NATIONAL_LENGTH && /^[78]/.test(d) ? d.slice(1) : d;
}

/**
 * The Russian phone input after one edit by the customer, with where the caret goes.
 *
 * `previous` is what the field showed (a value this function returned); `next` and `caret` are the
 * input's value and caret position once the browser applied the edit (a key, a paste, autofill, a
 * deletion, anywhere in the field); `forward` tells a Delete from a Backspace. The edit is read as
 * "the characters between `a` and `b` of `previous` replaced by the inserted text", and applied to the
 * national digits, so editing in the middle keeps every other digit where it was. The masked value is
 * '' (nothing entered), '+' (a plus typed, the country code to come) or '+7 (' and the national digits.
 * - Deleting only mask characters (a bracket, space or dash) deletes the digit before them (Backspace)
 *   or after them (Delete), so deleting never gets stuck; deleting into '+7 (' with no digit left
 *   clears the field.
 * - A typed digit that would make more than ten is refused, as a full field with a length limit does;
 *   a longer paste keeps its first ten digits.
 */
export function editRuPhone(previous: string, next: string, caret: number, forward = false): RuPhoneEdit {
  const at = Math.max(0, Math.min(caret, next.length));
  // what follows the caret is the untouched end of the previous value
  let b = previous.length - (next.length - at);
  let a = 0;
  if (b < 0 || next.slice(at) !== previous.slice(b)) b = previous.length;
  else while (a < Math.min(at, b) && previous[a] === next[a]) a++;
  const inserted = next.slice(a, at);
  const digits = maskedNational(previous);
  const refuse = (): RuPhoneEdit => ({ value: previous, caret: Math.min(a, previous.length) });

  if (!previous.startsWith('+7') || a < RU_PHONE_PREFIX.length) {
    // the edit starts before any national digit: read the field's start afresh as the customer wrote it
    const rest = digits.slice(nationalBefore(previous, b));
    if (inserted === '') {
      return rest === '' ? { value: '', caret: 0 } : { value: showRuPhone(rest), caret: RU_PHONE_PREFIX.length };
    }
    const start = readNumberStart(previous.slice(0, Math.min(a, 2)) + inserted);
    if (!start.country && start.national === '' && rest === '')
      return start.plus ? { value: '+', caret: 1 } : { value: '', caret: 0 };
    let national = start.national + rest;
    if (national.length > RU_PHONE_NATIONAL_LENGTH) {
      if (inserted.length === 1) return refuse();
      national = national.slice(0, RU_PHONE_NATIONAL_LENGTH);
    }
    const value = showRuPhone(national);
    return { value, caret: caretAfterDigits(value, start.national.length) };
  }

  let from = nationalBefore(previous, a);
  let to = nationalBefore(previous, b);
  if (inserted === '' && from === to) {
    if (forward) to = Math.min(to + 1, digits.length);
    else from = Math.max(from - 1, 0);
  }
  const added = insertedNational(inserted);
  let national = digits.slice(0, from) + added + digits.slice(to);
  if (national.length > RU_PHONE_NATIONAL_LENGTH) {
    if (inserted.length === 1) return refuse();
    national = national.slice(0, RU_PHONE_NATIONAL_LENGTH);
  }
  const value = showRuPhone(national);
  // Backspace leaves the caret after the digit before the deletion, Delete before the digit after it:
  // the next press of the same key deletes the next digit
  if (forward && inserted === '') return { value, caret: caretBeforeDigit(value, from) };
  return { value, caret: caretAfterDigits(value, Math.min(from + added.length, national.length)) };
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

/** The credential as sent to complete a payment: trimmed, leading plus removed. */
export function phoneCredentialForComplete(credential: string): string {
  return credential.trim().replace(/^\+/, '');
}

/** Minimum length of a phone credential after trimming. */
export const PHONE_CREDENTIAL_MIN_LENGTH = 9;
