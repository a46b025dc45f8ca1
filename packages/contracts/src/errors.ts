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
