import type { Config } from '../config';
import type { DbHandle } from '../db/create-db';
import { openVault, type DataVault } from './data-vault';
import type { AppMetrics } from './metrics';
import { nameStatements } from './named-statements';
import { speedupOn } from './speedups';

/** What every module gets: the database and the configuration. Services take it explicitly. */
export type AppContext = {
  dbh: DbHandle;
  db: DbHandle['db'];
  config: Config;
  /** Requisite values in and out of the database: encrypted, hashed, masked (lib/data-vault.ts). */
  vault: DataVault;
  /** Server clock; tests move it. */
  now: () => Date;
  /** The app's Prometheus metrics (set by buildApp; absent in scripts): see countSignInFailure in lib/metrics. */
  metrics?: AppMetrics;
};

/** The context of a migrated database: its data keys read (or its first one made), the real clock unless given. */
export async function createContext(
  dbh: DbHandle,
  config: Config,
  now: () => Date = () => new Date(),
): Promise<AppContext> {
  // PostgreSQL parses and plans each statement once a connection (lib/named-statements.ts)
  if (dbh.kind === 'postgres' && speedupOn(config, 'named-statements')) nameStatements(dbh.pool);
  return { dbh, db: dbh.db, config, vault: await openVault(dbh.db, config), now };
}
