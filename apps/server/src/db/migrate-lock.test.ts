import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { emptyDatabase } from '../../test/global-setup';
import { startServer, stopServer } from '../../test/server-process';
import { buildMigrations, createDb, runMigrations } from './create-db';

/*
 * Several hosts starting at once on a fresh PostgreSQL database: each applies the migrations, taking turns (an
 * advisory lock in runMigrations). Without the lock two of them created the same table at once and crashed at start
 * ("duplicate key value violates unique constraint pg_type_typname_nsp_index").
 */
describe.skipIf(!process.env.DATABASE_URL)('migrations on a fresh PostgreSQL database', () => {
  it('three servers starting together all migrate it, once', async () => {
    const db = await emptyDatabase(process.env.DATABASE_URL!, 'paydesk_mig');
    try {
      const handles = await Promise.all([1, 2, 3].map(() => createDb({ databaseUrl: db.url, poolMax: 2 })));
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
      await db.drop();
    }
  });

  it('four server processes started at once on an empty database all serve, and the migrations ran once', async () => {
    const db = await emptyDatabase(process.env.DATABASE_URL!, 'paydesk_start');
    const started = await Promise.allSettled(
      [1, 2, 3, 4].map((i) => startServer(`start-${i}`, db.url, { PG_POOL_MAX: '3' })),
    );
    const servers = started.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    try {
      expect(started.map((r) => (r.status === 'rejected' ? String(r.reason) : 'serving'))).toEqual(
        Array(4).fill('serving'),
      );
      for (const s of servers) {
        expect((await fetch(`${s.base}/api/health`)).status, s.name).toBe(200);
        const ready = await fetch(`${s.base}/api/ready`);
        expect(ready.status, `${s.name}: ${await ready.clone().text()}`).toBe(200);
        // nothing went wrong on the way: no error logged
        expect(
          s.output.filter((l) => /"level":(5|6)\d|error/i.test(l)),
          s.name,
        ).toEqual([]);
      }
      // each migration of the build applied exactly once
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ n: number; distinct: number; newest: string }>(
          `SELECT count(*)::int AS n, count(DISTINCT hash)::int AS distinct, max(created_at)::text AS newest
           FROM drizzle.__drizzle_migrations`,
        );
        expect(rows[0]).toEqual({
          n: buildMigrations().length,
          distinct: buildMigrations().length,
          newest: String(Math.max(...buildMigrations())),
        });
      } finally {
        await client.end();
      }
    } finally {
      await Promise.all(servers.map((s) => stopServer(s)));
      await db.drop();
    }
  });
});
