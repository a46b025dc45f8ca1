import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { DrizzleQueryError } from 'drizzle-orm';
import { ERROR_STATUS } from '@paydesk/contracts';
import { databaseUnavailable } from '../lib/db-unavailable';
import { AppError } from '../lib/errors';

type Issue = { keyword?: string; instancePath?: string; message?: string; params?: { keys?: string[] } };

function fieldsOf(issues: Issue[]) {
  const fields: Record<string, string> = {};
  for (const i of issues) {
    let key = (i.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
    if (i.keyword === 'unrecognized_keys' && i.params?.keys?.length) {
      for (const k of i.params.keys) fields[key ? `${key}.${k}` : k] = `Unknown field '${k}'`;
      continue;
    }
    key ||= '_';
    fields[key] ??= i.message ?? 'Invalid value';
  }
  return fields;
}

/**
 * A failed query's error carries its bind parameters (card numbers, phone numbers, keys…): log the statement and
 * the database's own error, never the values.
 */
export function redacted(err: unknown) {
  if (err instanceof DrizzleQueryError) {
    const cause = err.cause as { message?: string; code?: string; constraint?: string } | undefined;
    return {
      type: 'DrizzleQueryError',
      query: err.query,
      message: cause?.message,
      code: cause?.code,
      constraint: cause?.constraint,
      stack: err.stack
        ?.split('\n')
        .filter((l) => l.trimStart().startsWith('at '))
        .join('\n'),
    };
  }
  return err;
}

const TOO_MANY_REQUESTS_MESSAGE = 'Too many requests; try again later';
/** Seconds a 503 tells the client to wait while the database cannot be reached. */
const DATABASE_RETRY_AFTER_S = 5;
/** Seconds a 429 tells the client to wait when its limiter named none. */
const DEFAULT_RETRY_AFTER_S = 60;

/** Every 429 says when to come back (RFC 9110 Retry-After): the limiter's own figure, else a minute. */
function withRetryAfter(reply: FastifyReply) {
  if (!reply.hasHeader('retry-after')) reply.header('retry-after', String(DEFAULT_RETRY_AFTER_S));
}

export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AppError) {
      if (err.headers) reply.headers(err.headers);
      if (err.statusCode === 429) withRetryAfter(reply);
      return reply.status(err.statusCode).send({
        error: { code: err.code, message: err.message, ...(err.fields ? { fields: err.fields } : {}) },
      });
    }
    // two transactions met on the same rows (deadlock) or a serialization failure: nothing was written
    // (PostgreSQL rolled the loser back); the client may simply try again
    const pgCode = err instanceof DrizzleQueryError ? (err.cause as { code?: string } | undefined)?.code : undefined;
    if (pgCode === '40P01' || pgCode === '40001') {
      req.log.warn({ err: redacted(err) }, 'transaction conflict');
      return reply.status(409).send({
        error: {
          code: 'CONFLICT',
          message: 'Another change to the same records was in progress; nothing was saved. Try again.',
        },
      });
    }
    if (pgCode === '57014') {
      // statement_timeout (config statementTimeoutMs): the request's work was stopped, nothing was written
      req.log.warn({ err: redacted(err) }, 'statement timeout');
      return reply.status(ERROR_STATUS.SERVICE_BUSY).send({
        error: {
          code: 'SERVICE_BUSY',
          message: 'The request took too long and was stopped; nothing was changed. Narrow it down or try again.',
        },
      });
    }
    if (databaseUnavailable(err)) {
      // the database went away (a restart, a failover) or cannot be reached yet: the client tries again later. A
      // write cut off at its commit may have been saved; the merchant API's Idempotency-Key makes its retry safe
      req.log.warn({ err: redacted(err) }, 'database unavailable');
      reply.header('retry-after', String(DATABASE_RETRY_AFTER_S));
      return reply.status(ERROR_STATUS.SERVICE_BUSY).send({
        error: {
          code: 'SERVICE_BUSY',
          message: 'The database cannot be reached at the moment. Try again in a few seconds.',
        },
      });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields = fieldsOf(err.validation as Issue[]);
      const where = err.validationContext ?? 'request';
      const first = Object.entries(fields)[0];
      return reply.status(400).send({
        error: {
          code: 'VALIDATION_ERROR',
          message: first
            ? `Invalid ${where}: ${first[0] === '_' ? '' : `${first[0]}: `}${first[1]}`
            : `Invalid ${where}`,
          fields,
        },
      });
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ err, issues: err.cause }, 'response does not match its schema');
      return reply.status(500).send({ error: { code: 'INTERNAL', message: 'Internal server error' } });
    }
    const status = err.statusCode ?? 500;
    if (status === 413) {
      return reply.status(413).send({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large' } });
    }
    if (status === 429) {
      // a limiter's own error (a plugin may throw any object with statusCode 429): still the documented shape,
      // with a sentence and a Retry-After
      withRetryAfter(reply);
      const message = typeof err.message === 'string' && err.message ? err.message : TOO_MANY_REQUESTS_MESSAGE;
      return reply.status(429).send({ error: { code: 'TOO_MANY_REQUESTS', message } });
    }
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, wrong content type (its 415), empty body… all are a
      // VALIDATION_ERROR, sent with that code's one status (ERROR_STATUS, what the OpenAPI document says)
      return reply
        .status(ERROR_STATUS.VALIDATION_ERROR)
        .send({ error: { code: 'VALIDATION_ERROR', message: err.message } });
    }
    req.log.error({ err: redacted(err) }, 'unhandled error');
    return reply.status(500).send({ error: { code: 'INTERNAL', message: 'Internal server error' } });
  });
}
