import { describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { DrizzleQueryError } from 'drizzle-orm';
import { AppError } from '../lib/errors';
import { redacted, registerErrorHandler } from './error-handler';

describe('logging a failed query', () => {
  it('keeps the statement and the database error, never the bind parameters', () => {
    const pgError = Object.assign(new Error('duplicate key value violates unique constraint "x"'), { code: '23505' });
    const err = new DrizzleQueryError('update invoices set credential_value = $1', ['4111111111111111'], pgError);
    const logged = JSON.stringify(redacted(err));
    expect(logged).not.toContain('4111111111111111');
    expect(logged).toContain('update invoices set credential_value = $1');
    expect(logged).toContain('23505');
    const other = new Error('boom');
    expect(redacted(other)).toBe(other);
  });
});

describe('a 429 from any limiter', () => {
  it('is sent in the documented shape with a message and a Retry-After, whatever the limiter threw', async () => {
    const app = Fastify();
    registerErrorHandler(app);
    // what @fastify/rate-limit throws with its default builder, and a bare object another limiter might throw
    app.get('/plain', async () => {
      throw Object.assign(new Error('Rate limit exceeded, retry in 1 minute'), { statusCode: 429 });
    });
    app.get('/bare', async () => {
      throw { statusCode: 429, error: { code: 'TOO_MANY_REQUESTS' } };
    });
    app.get('/own', async () => {
      throw new AppError('TOO_MANY_REQUESTS', 'Slow down');
    });
    app.get('/timed', async (_req, reply) => {
      reply.header('retry-after', '7');
      throw Object.assign(new Error('Wait'), { statusCode: 429 });
    });
    for (const [url, message, retry] of [
      ['/plain', 'Rate limit exceeded, retry in 1 minute', '60'],
      ['/bare', 'Too many requests; try again later', '60'],
      ['/own', 'Slow down', '60'],
      ['/timed', 'Wait', '7'],
    ] as const) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(429);
      expect(res.json(), url).toEqual({ error: { code: 'TOO_MANY_REQUESTS', message } });
      expect(res.headers['retry-after'], url).toBe(retry);
    }
    await app.close();
  });
});
