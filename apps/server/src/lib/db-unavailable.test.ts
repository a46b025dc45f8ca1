import { DrizzleQueryError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { databaseUnavailable } from './db-unavailable';

describe('databaseUnavailable', () => {
  it('a database that cannot be reached, is going or not there yet', () => {
    const cases: unknown[] = [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      // wrapped by drizzle
      new DrizzleQueryError('SELECT 1', [], Object.assign(new Error('x'), { code: '57P01' })),
    ];
    for (const err of cases) expect(databaseUnavailable(err), String(err)).toBe(true);
  });

  it('not an error of the statement itself, nor anything else', () => {
    const cases: unknown[] = [
      Object.assign(new Error('duplicate key'), { code: '23505' }),
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      new DrizzleQueryError('SELECT 1', [], Object.assign(new Error('deadlock'), { code: '40P01' })),
      new Error('boom'),
      'ECONNREFUSED',
      null,
    ];
    for (const err of cases) expect(databaseUnavailable(err), String(err)).toBe(false);
  });
});
