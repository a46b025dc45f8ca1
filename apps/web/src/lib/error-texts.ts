import type { ErrorCode } from '@paydesk/contracts/errors';

/** Codes of the server's error catalogue plus the transport failures the HTTP layer raises itself. */
export type ApiErrorCode = ErrorCode | 'NETWORK_ERROR' | 'TIMEOUT' | 'HTTP_ERROR';

/** What the back-office says for each error code: the one place an error becomes words. */
export const ERROR_TEXTS: Record<ApiErrorCode, string> = {
  VALIDATION_ERROR: 'Some of the values are not valid. Check them and try again.',
  UNAUTHORIZED: 'Your session has ended. Sign in again.',
  INVALID_CREDENTIALS: 'Invalid username or password',
  ACCOUNT_LOCKED: 'This user is locked after too many failed sign-in attempts. Try again later.',
  TOO_MANY_REQUESTS: 'Too many requests. Wait a moment and try again.',
  FORBIDDEN: 'Your role does not allow this.',
  PASSWORD_CHANGE_REQUIRED: 'Choose a new password before you continue.',
  TWO_FACTOR_SETUP_REQUIRED: 'Set up two-factor sign-in before you continue.',
  CSRF_REJECTED: 'The request was refused for your security. Reload the page and try again.',
  NOT_FOUND: 'This no longer exists, or it is not yours to see.',
  GONE: 'This is no longer available.',
  CONFLICT: 'Someone changed this at the same time. Reload and try again.',
  INVALID_STATE: 'This cannot be done in the current state. Reload to see the latest.',
  DUPLICATE: 'This already exists.',
  IDEMPOTENCY_CONFLICT: 'This request was already sent with different values.',
  INVALID_SIGNATURE: 'The request signature is not valid.',
  NO_ACCOUNT_AVAILABLE: 'No account is available to take this payment.',
  AMOUNT_OUT_OF_RANGE: 'The amount is outside the allowed range.',
  INSUFFICIENT_BALANCE: 'The balance is not enough for this.',
  WRONG_PASSWORD: 'The current password is not correct.',
  PAYLOAD_TOO_LARGE: 'This is too large to send.',
  URI_TOO_LONG: 'The request is too long. Use fewer filters and try again.',
  HEADERS_TOO_LARGE: 'The request is too large. Sign in again and retry.',
  TIMEOUT: 'The server did not answer in time. Try again.',
  SERVICE_BUSY: 'The service is busy, or this took too long. Try again in a moment, or narrow the filters.',
  INTERNAL: 'Something went wrong on our side. Try again; if it persists, contact support.',
  NOT_READY: 'The service is starting. Try again in a moment.',
  NETWORK_ERROR: 'Network error: check your connection and try again.',
  HTTP_ERROR: 'Something went wrong. Try again.',
};

/**
 * Codes whose server message is written for the user and names what is wrong ("The username 'anna' is taken",
 * "Settlement exceeds the available balance (1,000.00 UZS)", "Your role does not allow you to manage the team.").
 * Every other message (schema errors such as "Invalid params: id: Invalid UUID", route and internal texts) is
 * replaced by the app's own words.
 */
const SERVER_WORDS_FOR_PEOPLE: ReadonlySet<ApiErrorCode> = new Set<ApiErrorCode>([
  'UNAUTHORIZED',
  'INVALID_CREDENTIALS',
  'ACCOUNT_LOCKED',
  'FORBIDDEN',
  'CONFLICT',
  'INVALID_STATE',
  'DUPLICATE',
  'AMOUNT_OUT_OF_RANGE',
  'INSUFFICIENT_BALANCE',
  'WRONG_PASSWORD',
]);

/** zod's built-in texts and the server's unknown-field note: about a request the app built, not for people. */
/** The schema validator's summary line (apps/server/src/plugins/error-handler.ts). */
const SCHEMA_REFUSAL = /^Invalid (body|querystring|params|headers)\b/;

const SCHEMA_DEFAULT =
  /^(Invalid (UUID|input|option|string|number|uuid|email|url|type)\b|Required$|Too (small|big):|Unknown field|Unrecognized key)/;

/**
 * The text shown for a failed call. A validation error speaks through its field messages, which the server words
 * for people ("Reason must be at least 3 characters long"); a refusal that explains itself keeps the server's words.
 */
export function errorText(code: ApiErrorCode, serverMessage: string, fields?: Record<string, string>): string {
  if (code === 'VALIDATION_ERROR') {
    // a service's refusal is a sentence for people ("Account 9 takes another currency"); the schema validator's
    // starts "Invalid body|querystring|params: …" and speaks through its fields instead
    if (serverMessage && !SCHEMA_REFUSAL.test(serverMessage)) return serverMessage;
    const first = fields ? Object.values(fields)[0] : undefined;
    return first && !SCHEMA_DEFAULT.test(first) ? first : ERROR_TEXTS.VALIDATION_ERROR;
  }
  if (SERVER_WORDS_FOR_PEOPLE.has(code) && serverMessage) return serverMessage;
  return ERROR_TEXTS[code] ?? ERROR_TEXTS.HTTP_ERROR;
}
