import type { Config } from '../config';
import type { DbHandle } from '../db/create-db';

/** What every module gets: the database and the configuration. Services take it explicitly. */
export type AppContext = {
  dbh: DbHandle;
  db: DbHandle['db'];
  config: Config;
  /** Server clock; tests move it. */
  now: () => Date;
};
