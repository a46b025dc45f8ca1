import { dictionary } from '@zxcvbn-ts/language-common';
import { PASSWORD_MAX, PASSWORD_MIN } from '@paydesk/contracts';

/**
 * NIST SP 800-63B §3.1.1.2 for passwords a person chooses: at least PASSWORD_MIN characters, no composition
 * rules, and refused when it is a known common or breached password (zxcvbn-ts's list of ~49,000, built from
 * leaked password corpora), a repeated or sequential pattern, or built from the user's own name or the
 * product's. Applies wherever a person sets a password (change password, create-admin); one-time passwords
 * the server generates are random and long.
 */
const COMMON = new Set((dictionary['passwords-common'] as string[]).map((p) => p.toLowerCase()));
const PRODUCT_WORDS = ['paydesk'];

export type PasswordContext = { username?: string; firstName?: string; lastName?: string };

/** Why this password may not be used, in words for the person choosing it; null when it is fine. */
export function passwordProblem(password: string, context: PasswordContext = {}): string | null {
  // counted as the hash sees it: NFKC-normalised code points (a decomposed "é" is one character, not two)
  const normalized = password.normalize('NFKC');
  const length = [...normalized].length;
  if (length < PASSWORD_MIN) return `Use at least ${PASSWORD_MIN} characters`;
  if (length > PASSWORD_MAX) return `Use at most ${PASSWORD_MAX} characters`;
  const lower = normalized.toLowerCase();
  // the password itself, or with the digits and symbols people add around a word ("password2026!")
  const core = lower.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
  if (COMMON.has(lower) || (core.length >= 4 && COMMON.has(core))) {
    return 'This password is on a list of common or leaked passwords; choose another';
  }
  const unit = /^(.+?)\1+$/su.exec(lower)?.[1];
  if (unit && (unit.length <= 4 || COMMON.has(unit))) return 'Avoid repeated patterns such as "abcabcabc"';
  if (isSequence(lower)) return 'Avoid sequences such as "123456789012" or "abcdefghijkl"';
  const words = [context.username, context.firstName, context.lastName, ...PRODUCT_WORDS]
    .map((w) => w?.trim().toLowerCase() ?? '')
    .filter((w) => w.length >= 3);
  for (const w of words) {
    // the name is most of the password: what remains is shorter than the minimum
    if (lower.includes(w) && [...lower.replace(w, '')].length < PASSWORD_MIN - 2) {
      return 'Do not build the password from your name, your username or the product name';
    }
  }
  return null;
}

/** Every character one step above or below the one before it (keyboard-free ascending/descending runs). */
function isSequence(s: string): boolean {
  const codes = [...s].map((c) => c.codePointAt(0)!);
  const step = codes[1]! - codes[0]!;
  if (Math.abs(step) !== 1) return false;
  // digits wrap (…7890…), letters do not
  return codes.every(
    (c, i) => i === 0 || c - codes[i - 1]! === step || (step === 1 && s[i - 1] === '9' && s[i] === '0'),
  );
}
