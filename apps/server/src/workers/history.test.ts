import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { historyUpkeep, UPKEEP_LOCK } from './history';

/**
 * The history upkeep closes and archives months: two processes doing it at once would close the same month twice.
 * On PostgreSQL a process skips its tick while another holds the upkeep's lock; the embedded database is one process.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe('history upkeep', () => {
  it.runIf(process.env.DATABASE_URL)(
    'skips its tick while another process holds it, and runs once it is free',
    async () => {
      const other = await t.ctx.dbh.pool.connect();
      try {
        await other.query('SELECT pg_advisory_lock($1)', [UPKEEP_LOCK]);
        expect(await historyUpkeep(t.ctx, new Date())).toBeNull();
        await other.query('SELECT pg_advisory_unlock($1)', [UPKEEP_LOCK]);
      } finally {
        other.release();
      }
      expect(await historyUpkeep(t.ctx, new Date())).toMatchObject({ drift: null, retired: [] });
    },
  );

  it.skipIf(process.env.DATABASE_URL)('runs on the embedded database, which has one process', async () => {
    expect(await historyUpkeep(t.ctx, new Date())).toMatchObject({ drift: null, retired: [] });
  });
});
