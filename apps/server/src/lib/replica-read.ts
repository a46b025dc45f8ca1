import { DrizzleQueryError, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { QueryResultRow } from 'pg';
import type { AppContext } from './context';
import { connectLongRead } from './copy-out';
import { longReadTarget } from './replicas';

const dialect = new PgDialect();

/** Runs a statement and gives its rows. */
export type RowsOf = <R extends QueryResultRow>(statement: SQL) => Promise<R[]>;

/**
 * Statistics and exact counts: reads nobody needs to see their own write in at once, so they may lag the primary by
 * up to REPLICA_MAX_LAG_MS. On a streaming replica close enough behind (lib/replicas.ts), on a connection of its
 * long-read pool (read-only, counted as a replica read in the metrics); with none, on the primary's own pool, as
 * without replicas. `run` may send several statements; on a replica they share one connection.
 */
export async function readStatistics<T>(ctx: AppContext, run: (rows: RowsOf) => Promise<T>): Promise<T> {
  const target = ctx.dbh.kind === 'postgres' ? await longReadTarget(ctx, { replicaOnly: true }) : null;
  if (!target) return run(async (statement) => (await ctx.db.execute(statement)).rows as never);
  const client = await connectLongRead(ctx, target.pool);
  let failed: Error | undefined;
  try {
    return await run(async <R extends QueryResultRow>(statement: SQL) => {
      const q = dialect.sqlToQuery(statement);
      try {
        return (await client.query<R>(q.sql, q.params)).rows;
      } catch (err) {
        failed = err as Error;
        // as drizzle reports a failed statement: the error handler reads the database's code from it
        throw new DrizzleQueryError(q.sql, q.params, err as Error);
      }
    });
  } finally {
    client.release(failed);
  }
}
