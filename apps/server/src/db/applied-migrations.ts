/*
 * The newest migration a database has applied, read the same way by the server (readiness, the schema check at start)
 * and the embedded database's backups (db/pglite-dump.ts). No heavy imports: the embedded database's own process
 * loads it too.
 */

/** A query on the database whose migrations are looked at (a pool, a connection, PGlite itself). */
export type MigrationQuery = (text: string) => Promise<{ rows: { newest: string | null }[] }>;

/**
 * The journal time of the newest migration the database has applied (drizzle.__drizzle_migrations records each
 * one's), 0 for a database with none yet.
 */
export async function newestAppliedMigration(q: MigrationQuery): Promise<number> {
  try {
    const { rows } = await q('SELECT max(created_at)::text AS newest FROM drizzle.__drizzle_migrations');
    return Number(rows[0]?.newest ?? 0);
  } catch (err) {
    // an empty database: no migration table yet
    if ((err as { code?: string }).code === '42P01') return 0;
    throw err;
  }
}
