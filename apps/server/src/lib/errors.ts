import { ERROR_STATUS, type ErrorCode } from '@paydesk/contracts';

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
    this.statusCode = ERROR_STATUS[code];
  }
}

export const notFound = (what: string) => new AppError('NOT_FOUND', `${what} not found`);
export const forbidden = (message = 'You do not have permission to do this') => new AppError('FORBIDDEN', message);
export const invalidState = (message: string) => new AppError('INVALID_STATE', message);
export const badRequest = (message: string, fields?: Record<string, string>) =>
  new AppError('VALIDATION_ERROR', message, fields);
