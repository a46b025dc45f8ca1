/**
 * Card numbers, free of zod so the payment form's bundle can use them: Luhn, grouping in
 * fours, and the withdrawal card rule (16–19 digits passing Luhn).
 */

const CARD_MIN_DIGITS = 16;
const CARD_MAX_DIGITS = 19;

/** Luhn check over a digit string. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Digits of a typed card number, at most 19. */
export function cardDigits(input: string): string {
  return input.replace(/\D/g, '').slice(0, CARD_MAX_DIGITS);
}

/** Groups of four, as shown on requisites and typed into a card input ('4111 1111 1111 1111'). */
export function groupCardNumber(input: string): string {
  return (input.replace(/\s/g, '').match(/.{1,4}/g) ?? []).join(' ');
}

export type CardCheck = { ok: true; value: string } | { ok: false; reason: 'length' | 'luhn' };

/** A withdrawal card: 16–19 digits (spaces and dashes ignored) passing the Luhn check. */
export function checkCardNumber(input: string): CardCheck {
  const d = input.replace(/[\s-]/g, '');
  if (!/^\d+$/.test(d) || d.length < CARD_MIN_DIGITS || d.length > CARD_MAX_DIGITS)
    return { ok: false, reason: 'length' };
  if (!luhnValid(d)) return { ok: false, reason: 'luhn' };
  return { ok: true, value: d };
}
