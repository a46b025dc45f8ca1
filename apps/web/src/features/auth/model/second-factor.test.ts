import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api';
import { CHALLENGE_EXPIRED, codeProblem, secondFactorFailure } from './second-factor';

describe('the code a user types on the second sign-in step', () => {
  it('accepts a 6-digit code or a recovery code in either mode, with spaces, hyphens and capitals', () => {
    for (const mode of ['app', 'recovery'] as const) {
      expect(codeProblem(mode, '123456')).toBeNull();
      expect(codeProblem(mode, ' 123 456 ')).toBeNull();
      expect(codeProblem(mode, 'abcde-fgh23')).toBeNull();
      expect(codeProblem(mode, 'ABCDE FGH23')).toBeNull();
    }
  });

  it('explains what is missing in the words of the chosen mode', () => {
    expect(codeProblem('app', '')).toBe('Enter the 6-digit code from your app');
    expect(codeProblem('recovery', '  ')).toBe('Enter a recovery code');
    expect(codeProblem('app', '12345')).toBe('The code is 6 digits, as your authenticator app shows it');
    expect(codeProblem('app', '1234567')).toMatch(/6 digits/);
    // 0, 1, 8 and 9 are not in the recovery codes' alphabet (base32)
    expect(codeProblem('recovery', 'abcde-fgh10')).toMatch(/^A recovery code has 10 letters and digits/);
  });
});

describe('a refused second step', () => {
  it('a wrong or reused code stays on the code step, said under the input', () => {
    const wrong = new ApiError(401, 'INVALID_CREDENTIALS', 'The code is wrong or was already used', {
      code: 'The code is wrong or was already used',
    });
    expect(secondFactorFailure(wrong)).toEqual({ kind: 'code', message: 'The code is wrong or was already used' });
  });

  it('an expired challenge goes back to the password step with the reason', () => {
    expect(secondFactorFailure(new ApiError(401, 'UNAUTHORIZED', CHALLENGE_EXPIRED))).toEqual({
      kind: 'restart',
      message: CHALLENGE_EXPIRED,
    });
  });

  it('a lock, a disabled user or a network failure is said above the form', () => {
    const locked = new ApiError(429, 'ACCOUNT_LOCKED', 'This user is locked after 10 failed sign-in attempts.');
    expect(secondFactorFailure(locked)).toEqual({ kind: 'alert', message: locked.message });
    const disabled = new ApiError(403, 'FORBIDDEN', 'This user is disabled.');
    expect(secondFactorFailure(disabled)).toEqual({ kind: 'alert', message: disabled.message });
    const offline = new ApiError(0, 'NETWORK_ERROR', 'Network error: check your connection and try again.');
    expect(secondFactorFailure(offline)).toEqual({ kind: 'alert', message: offline.message });
    expect(secondFactorFailure(new ApiError(500, 'INTERNAL', 'boom'))).toEqual({
      kind: 'alert',
      message: 'Could not check the code. Try again.',
    });
  });
});
