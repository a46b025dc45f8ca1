import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { withDatabase } from '../../test/global-setup';
import { createDb, runMigrations } from './create-db';

/*
 * Several hosts starting at once on a fresh PostgreSQL database: each applies the migrations, taking turns (an
 * advisory lock in runMigrations). Without the lock two of them created the same table at once and crashed at start
 * ("duplicate key value violates unique constraint pg_type_typname_nsp_index").
 */
describe.skipIf(!process.env.DATABASE_URL)('migrations on a fresh PostgreSQL database', () => {
  it('three servers starting together all migrate it, once', async () => {
    const url = process.env.DATABASE_URL!;
    const name = `paydesk_mig_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      const handles = await Promise.all(
        [1, 2, 3].map(() => createDb({ databaseUrl: withDatabase(url, name), poolMax: 2 })),
      );
      try {
        const results = await Promise.allSettled(handles.map((h) => runMigrations(h)));
        expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok']);
        const { rows } = await handles[0]!.pool.query<{ n: number; distinct: number }>(
          'SELECT count(*)::int AS n, count(DISTINCT hash)::int AS distinct FROM drizzle.__drizzle_migrations',
        );
        expect(rows[0]!.n).toBe(rows[0]!.distinct);
        expect(rows[0]!.n).toBeGreaterThan(20);
      } finally {
        await Promise.all(handles.map((h) => h.close()));
      }
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
