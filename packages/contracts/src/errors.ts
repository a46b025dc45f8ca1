import { z } from 'zod';

export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'UNAUTHORIZED',
  'INVALID_CREDENTIALS',
  'ACCOUNT_LOCKED',
  'TOO_MANY_REQUESTS',
  'FORBIDDEN',
  'PASSWORD_CHANGE_REQUIRED',
  'TWO_FACTOR_SETUP_REQUIRED',
  'CSRF_REJECTED',
  'NOT_FOUND',
  'GONE',
  'CONFLICT',
  'INVALID_STATE',
  'DUPLICATE',
  'IDEMPOTENCY_CONFLICT',
  'INVALID_SIGNATURE',
  'NO_ACCOUNT_AVAILABLE',
  'AMOUNT_OUT_OF_RANGE',
  'INSUFFICIENT_BALANCE',
  'WRONG_PASSWORD',
  'PAYLOAD_TOO_LARGE',
  'URI_TOO_LONG',
  'HEADERS_TOO_LARGE',
  'TIMEOUT',
  'SERVICE_BUSY',
  'INTERNAL',
  'NOT_READY',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const errorBodySchema = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** The HTTP status each error code is sent with (the server's one table; the OpenAPI document reads it too). */
export const ERROR_STATUS = {
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
} as const satisfies Record<ErrorCode, number>;
