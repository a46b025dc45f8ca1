import { secondFactorCode } from '@paydesk/contracts/auth';
import { isApiError } from '../../../lib/api';

/** What the code step asks for: the authenticator app's 6-digit code, or one of the recovery codes. */
export type CodeMode = 'app' | 'recovery';

/**
 * Why the typed code cannot be sent yet, or null when it can. Either kind of code is accepted in either mode
 * (the server takes both); the message speaks of the one the user chose.
 */
export function codeProblem(mode: CodeMode, value: string): string | null {
  if (secondFactorCode.safeParse(value).success) return null;
  if (!value.trim()) return mode === 'app' ? 'Enter the 6-digit code from your app' : 'Enter a recovery code';
  return mode === 'app'
    ? 'The code is 6 digits, as your authenticator app shows it'
    : 'A recovery code has 10 letters and digits, like abcde-fgh23';
}

export type SecondFactorFailure =
  /** wrong or already used: said under the input, try another */
  | { kind: 'code'; message: string }
  /** locked, refused or unreachable: said above the form */
  | { kind: 'alert'; message: string }
  /** the challenge expired (5 minutes): back to the password step, with the reason */
  | { kind: 'restart'; message: string };

export const CHALLENGE_EXPIRED = 'This sign-in has expired. Enter your password again.';

/** What a refused second step means for the screen. */
export function secondFactorFailure(error: unknown): SecondFactorFailure {
  if (isApiError(error)) {
    const fieldMessage = error.fields?.code;
    if (error.code === 'INVALID_CREDENTIALS' || (error.code === 'VALIDATION_ERROR' && fieldMessage)) {
      return { kind: 'code', message: fieldMessage ?? error.message };
    }
    if (error.status === 401) return { kind: 'restart', message: error.message || CHALLENGE_EXPIRED };
    if (error.status >= 400 && error.status < 500 && error.message) return { kind: 'alert', message: error.message };
    if (error.status === 0) return { kind: 'alert', message: error.message };
  }
  return { kind: 'alert', message: 'Could not check the code. Try again.' };
}
