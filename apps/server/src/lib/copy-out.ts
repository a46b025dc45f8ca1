import type { Readable } from 'node:stream';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { AppContext } from './context';

/**
 * Streams `COPY … TO STDOUT` on a pool client of its own (PostgreSQL and the PGlite socket alike),
 * so memory stays flat whatever the row count. `build` prepares the client and returns the statement.
 * The client goes back to the pool when the stream ends; on an error or an aborted download its
 * connection is discarded, since it may be left mid-COPY. The COPY runs in a read-only transaction (for its
 * transaction-local settings: the export's statement timeout, standard strings) committed at the end.
 */
export async function copyOut(ctx: AppContext, build: (client: pg.PoolClient) => Promise<string>): Promise<Readable> {
  const client = await ctx.dbh.pool.connect();
  let released = false;
  const release = (err?: Error) => {
    if (released) return;
    released = true;
    client.release(err ?? undefined);
  };
  try {
    await beginLongRead(client, ctx);
    // statements with inlined literals (queries.ts copyCsvSql): a backslash is only ever a character
    await client.query('SET LOCAL standard_conforming_strings = on');
    const stream = client.query(copyTo(await build(client)));
    stream.once('end', () => {
      client.query('COMMIT').then(
        () => release(),
        (err: Error) => release(err),
      );
    });
    stream.once('error', (err) => release(err));
    stream.once('close', () => {
      if (!stream.readableEnded) release(new Error('CSV download aborted'));
    });
    return stream;
  } catch (err) {
    release(err as Error);
    throw err;
  }
}

/**
 * Opens the read-only transaction a long read runs in (an export, a report, the ledger check), with its own,
 * explicit statement limit instead of the interactive one (config exportTimeoutMs).
 */
export async function beginLongRead(client: Pick<pg.PoolClient, 'query'>, ctx: AppContext) {
  await client.query('BEGIN READ ONLY');
  await client.query(`SET LOCAL statement_timeout = ${ctx.config.exportTimeoutMs}`);
}
