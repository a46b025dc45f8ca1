import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { createTestDb } from '../../test/harness';
import { emptyDatabase } from '../../test/global-setup';
import { createDb, runMigrations, SchemaVersionError, type DbHandle } from './create-db';

/*
 * A process meets a database whose schema is not its own (docs/operations.md, "Upgrade"): an older build refuses a
 * database a newer release has migrated, and with MIGRATE=off a build refuses a database that lacks its migrations;
 * either way nothing is applied. On the embedded database, and on PostgreSQL when DATABASE_URL is set.
 */

/** An empty database (no migration applied), closed and dropped by the callback's end. */
async function withEmptyDb(use: (dbh: DbHandle) => Promise<void>) {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const pglite = await PGlite.create();
    const dbh = await createDb({ pglite });
    try {
      await use(dbh);
    } finally {
      await dbh.close();
      await pglite.close();
    }
    return;
  }
  const db = await emptyDatabase(url, 'paydesk_schema');
  const dbh = await createDb({ databaseUrl: db.url, poolMax: 2 });
  try {
    await use(dbh);
  } finally {
    await dbh.close();
    await db.drop();
  }
}

describe('the schema version at start', () => {
  it('a build older than the database refuses to start, and applies nothing', async () => {
    const dbh = await createTestDb();
    try {
      // a migration this build does not have, as a newer release would have recorded it
      await dbh.pool.query(
        `INSERT INTO drizzle.__drizzle_migrations (hash, created_at)
         SELECT 'from-a-newer-release', max(created_at) + 86400000 FROM drizzle.__drizzle_migrations`,
      );
      const before = await dbh.pool.query('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
      const refused = runMigrations(dbh);
      await expect(refused).rejects.toBeInstanceOf(SchemaVersionError);
      await expect(refused).rejects.toThrow(/migrated by a newer release .* does not start/);
      const after = await dbh.pool.query('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
      expect(after.rows).toEqual(before.rows);
    } finally {
      await dbh.close();
    }
  });

  it('a database up to date starts with MIGRATE=off too', async () => {
    const dbh = await createTestDb();
    try {
      await expect(runMigrations(dbh, { migrate: 'off' })).resolves.toBeUndefined();
    } finally {
      await dbh.close();
    }
  });

  it('with MIGRATE=off, a database that lacks this build`s migrations refuses it, and nothing is applied', async () => {
    await withEmptyDb(async (dbh) => {
      const refused = runMigrations(dbh, { migrate: 'off' });
      await expect(refused).rejects.toBeInstanceOf(SchemaVersionError);
      await expect(refused).rejects.toThrow(/lacks \d+ migration\(s\) of this build, and MIGRATE=off/);
      const { rows } = await dbh.pool.query<{ t: string | null }>("SELECT to_regclass('public.invoices')::text AS t");
      expect(rows[0]!.t).toBeNull();
    });
  });
});
