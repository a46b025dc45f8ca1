/**
 * Masking of requisites (card and phone numbers) for screens, audit records and log lines. Free of zod, like card.ts,
 * so any bundle may use it. Masking only hides digits: it never validates a value.
 *
 * Rules:
 * - Card ('CARD'): the first 6 digits (BIN), '******', the last 4 — '9860123456789015' → '986012******9015'. The
 *   asterisks are always six, whatever the length, so a masked card does not tell how long the number is. A value of
 *   fewer than 12 digits is no real card: only its last 4 stay ('1234567' → '***4567').
 * - Phone ('PHONE'): the last 7 digits are the subscriber's number; they are hidden except their last 2, and what
 *   comes before them (country code and operator or area code, at most 6 digits) stays:
 *   '998901234567' → '99890*****67', '+79161234567' → '+7916*****67'. A leading '+' is kept. Numbers of fewer than
 *   10 digits show only their last 2.
 * - Any other type: everything but the last 4 characters hidden ('ABCDEF1234' → '******1234').
 * Spaces, dashes and brackets inside card and phone numbers are dropped from the masked value.
 */
import { luhnValid } from './card';

const MASK = '*';
const CARD_SHOWN_HEAD = 6;
const CARD_SHOWN_TAIL = 4;
/** Below this many digits a "card" is not a card number: no BIN is shown. */
const CARD_MIN_FOR_BIN = 12;
const PHONE_SUBSCRIBER_DIGITS = 7;
const PHONE_SHOWN_TAIL = 2;
const PHONE_MAX_SHOWN_HEAD = 6;
const PHONE_MIN_FOR_HEAD = 10;

/** Everything but the last `keep` characters as asterisks; a value of `keep` or fewer characters is hidden whole. */
function maskAllButLast(value: string, keep: number): string {
  if (value.length <= keep) return MASK.repeat(value.length);
  return MASK.repeat(value.length - keep) + value.slice(-keep);
}

/** A card or phone number without the separators people type into it. */
const compact = (value: string) => value.trim().replace(/[\s()-]/g, '');

/** '9860 1234 5678 9015' → '986012******9015'; fewer than 12 digits: only the last 4 ('***4567'). */
export function maskCard(value: string): string {
  const v = compact(value);
  if (v.length < CARD_MIN_FOR_BIN) return maskAllButLast(v, CARD_SHOWN_TAIL);
  return `${v.slice(0, CARD_SHOWN_HEAD)}${MASK.repeat(6)}${v.slice(-CARD_SHOWN_TAIL)}`;
}

/** '998901234567' → '99890*****67', '+7 916 123-45-67' → '+7916*****67'; under 10 digits only the last 2 stay. */
export function maskPhone(value: string): string {
  const v = compact(value);
  const plus = v.startsWith('+') ? '+' : '';
  const digits = plus ? v.slice(1) : v;
  if (digits.length < PHONE_MIN_FOR_HEAD) return plus + maskAllButLast(digits, PHONE_SHOWN_TAIL);
  const head = Math.min(digits.length - PHONE_SUBSCRIBER_DIGITS, PHONE_MAX_SHOWN_HEAD);
  const hidden = digits.length - head - PHONE_SHOWN_TAIL;
  return `${plus}${digits.slice(0, head)}${MASK.repeat(hidden)}${digits.slice(-PHONE_SHOWN_TAIL)}`;
}

/** The masked form of a requisite by its credential type ('CARD', 'PHONE'; any other: all but the last 4). */
export function maskRequisite(credentialType: string, value: string): string {
  if (credentialType === 'CARD') return maskCard(value);
  if (credentialType === 'PHONE') return maskPhone(value);
  return maskAllButLast(value.trim(), 4);
}

/* ---- Card numbers inside free text ---- */

const PAN_MIN_DIGITS = 13;
const PAN_MAX_DIGITS = 19;
/** The longest group of digits a card number typed in groups has. */
const MAX_GROUP = 6;
/**
 * Digit groups joined by single spaces or dashes ('4111 1111-1111 1111', or one plain run of digits) that stand on
 * their own: no letter or digit right before or after (the digits inside 'ab12-3456' or a hex id are not a number),
 * a JSON or C escape before them ('\n4111…' in a log line) counting as a separator.
 * A UUID is matched first, whole, so that none of its all-digit groups is ever read as part of a number.
 */
const DIGIT_RUN =
  /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?<![0-9]|(?<!\\)[A-Za-z])\d+(?:[ -]\d+)*(?![A-Za-z0-9])/gi;
const UUID_START = /^[0-9a-f]{8}-/i;

type Group = { start: number; end: number; digits: string };

/** Replaces the digits of text[start, end) past the first 6 and before the last 4 with asterisks; separators stay. */
function maskSpan(text: string, start: number, end: number, digitCount: number): string {
  let seen = 0;
  let out = '';
  for (let i = start; i < end; i++) {
    const ch = text[i]!;
    if (ch >= '0' && ch <= '9') {
      out += seen >= CARD_SHOWN_HEAD && seen < digitCount - CARD_SHOWN_TAIL ? MASK : ch;
      seen++;
    } else out += ch;
  }
  return out;
}

/**
 * Masks every card number in a text: a run of 13–19 digits, in groups joined by single spaces or dashes, that
 * starts with 2–9 and passes the Luhn check keeps its first 6 and last 4 digits and its separators, the rest become
 * asterisks ('card 4111 1111 1111 1111 paid' → 'card 4111 11** **** 1111 paid'). Whole groups only: a run of digits
 * longer than 19 (an id, a long reference) is not a card and stays. Within a longer sequence of groups, the longest
 * Luhn-valid stretch of whole groups from the left is masked first; groups of more than 6 digits are never joined.
 * For log lines and audit records; a value already known to be a card is masked with maskCard instead.
 */
export function maskPansInText(text: string): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(DIGIT_RUN)) {
    if (m[0].length === 36 && UUID_START.test(m[0])) continue;
    const runStart = m.index;
    const groups: Group[] = [];
    for (const g of m[0].matchAll(/\d+/g)) {
      groups.push({ start: runStart + g.index, end: runStart + g.index + g[0].length, digits: g[0] });
    }
    let i = 0;
    while (i < groups.length) {
      // cards' major industry identifiers are 2–9: a number starting 0 or 1 (a time in ms, an id) is none of ours
      if (groups[i]!.digits[0]! < '2') {
        i++;
        continue;
      }
      // the longest stretch of whole groups from group i that is a Luhn-valid 13–19 digit number
      let digits = '';
      let best = -1;
      let bestCount = 0;
      for (let j = i; j < groups.length; j++) {
        // a card typed in groups has short ones (4 4 4 4, 4 6 5): '12345-1764400000000' is an id and a time
        if (j > i && (groups[i]!.digits.length > MAX_GROUP || groups[j]!.digits.length > MAX_GROUP)) break;
        digits += groups[j]!.digits;
        if (digits.length > PAN_MAX_DIGITS) break;
        if (digits.length >= PAN_MIN_DIGITS && luhnValid(digits)) {
          best = j;
          bestCount = digits.length;
        }
      }
      if (best < 0) {
        i++;
        continue;
      }
      const start = groups[i]!.start;
      const end = groups[best]!.end;
      out += text.slice(last, start) + maskSpan(text, start, end, bestCount);
      last = end;
      i = best + 1;
    }
  }
  return out + text.slice(last);
}

/** A phone number in international form: '+', then 10–15 digits, single spaces, dashes or brackets between them. */
const PHONE_IN_TEXT = /(?<![0-9]|(?<!\\)[A-Za-z])\+\d(?:[ ()-]?\d){9,14}(?![A-Za-z0-9])/g;

/**
 * Masks the card numbers (maskPansInText) and the international phone numbers ('+998 90 123 45 67' →
 * '+99890*****67', as maskPhone) in a text: what every log line goes through before it is written.
 */
export function maskRequisitesInText(text: string): string {
  return maskPansInText(text.replace(PHONE_IN_TEXT, (m) => maskPhone(m)));
}
