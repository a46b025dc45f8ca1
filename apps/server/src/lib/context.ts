import type { Config } from '../config';
import type { DbHandle } from '../db/create-db';
import type { AppMetrics } from './metrics';

/** What every module gets: the database and the configuration. Services take it explicitly. */
export type AppContext = {
  dbh: DbHandle;
  db: DbHandle['db'];
  config: Config;
  /** Server clock; tests move it. */
  now: () => Date;
  /** The app's Prometheus metrics (set by buildApp; absent in scripts): see countSignInFailure in lib/metrics. */
  metrics?: AppMetrics;
};
