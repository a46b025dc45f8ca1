import { describe, expect, it } from 'vitest';
import { DrizzleQueryError } from 'drizzle-orm';
import { redacted } from './error-handler';

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
