import type { ErrorCode } from '@paydesk/contracts';

const STATUS: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  WRONG_PASSWORD: 400,
  AMOUNT_OUT_OF_RANGE: 400,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  INVALID_SIGNATURE: 401,
  FORBIDDEN: 403,
  PASSWORD_CHANGE_REQUIRED: 403,
  TWO_FACTOR_SETUP_REQUIRED: 403,
  CSRF_REJECTED: 403,
  NOT_FOUND: 404,
  GONE: 410,
  CONFLICT: 409,
  INVALID_STATE: 409,
  DUPLICATE: 409,
  IDEMPOTENCY_CONFLICT: 409,
  NO_ACCOUNT_AVAILABLE: 409,
  INSUFFICIENT_BALANCE: 409,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  HEADERS_TOO_LARGE: 431,
  TIMEOUT: 408,
  SERVICE_BUSY: 503,
  ACCOUNT_LOCKED: 429,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
  NOT_READY: 503,
};

/** A typed error the handler turns into `{ error: { code, message, fields? } }`. */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.statusCode = STATUS[code];
  }
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const forbidden = (message = 'You do not have permission to do this') => new AppError('FORBIDDEN', message);
export const invalidState = (message: string) => new AppError('INVALID_STATE', message);
export const badRequest = (message: string, fields?: Record<string, string>) =>
  new AppError('VALIDATION_ERROR', message, fields);
