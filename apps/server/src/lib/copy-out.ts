import { PassThrough, Transform, type Readable } from 'node:stream';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { AppContext } from './context';
import { AppError } from './errors';
import { knownFacts } from './known-facts';
import { longReadTarget } from './replicas';

/**
 * A long read in bounded batches, for the embedded database (PGlite: one pool connection, one statement at a time).
 * Each batch is its own short transaction on a connection taken from the pool and given back before the next, so
 * requests queued on the pool (FIFO) run between two batches instead of after the whole file. The caller's SQL
 * decides what a batch is (a keyset range of rows); each batch sees its own snapshot.
 */
export type CopyBatches<K> = {
  /**
   * The key of the last of at most `n` rows that follow `after` (null: from the first row) in the file's order,
   * or null when no row follows.
   */
  end: (client: pg.PoolClient, after: K | null, n: number) => Promise<K | null>;
  /** The COPY of the rows after `after` up to and including `until` (null: none, the header alone), header row or not. */
  copy: (after: K | null, until: K | null, header: boolean) => string;
};

/**
 * A condition a long read needs (the report's pool is the merchant's, its currency exists): `statement` (values
 * inlined, as in COPY) must return a row, else the read does not start and `refuse()` is thrown. `lasting`: once
 * true it stays true (a fact no route undoes: a terminal or pool never changes merchant, a currency or provider is
 * never deleted), so that once seen (per database, in this process) it is not read again. A check only decides
 * between a refusal and an answer: the read's own statement is scoped to the tenant whatever the checks say.
 */
export type ReadCheck = { statement: string; refuse: () => Error; lasting?: boolean };

/** Lasting checks seen to hold (their statements), per database. */
const heldChecks = knownFacts();

/**
 * Streams `COPY … TO STDOUT` so that memory stays flat whatever the row count.
 *
 * On PostgreSQL: the statement `build` returns, alone, on a connection of the long reads' pool (a replica's when one is
 * close enough behind the primary, else the primary's: lib/replicas.ts longReadTarget), set up by connectLongRead
 * (read-only, standard strings, the export's statement limit; so no transaction to open or commit: one round trip, as
 * `COPY` itself), after the read's checks (one round trip for all of those not already
 * seen to hold). The connection goes back to the pool when the stream ends; on an error or an aborted download it is
 * discarded, since it may be left mid-COPY. No connection free within config longReadWaitMs: SERVICE_BUSY (503).
 *
 * On the embedded PGlite, when `batches` is given: the file in bounded batches (copyInBatches), so that the one
 * connection is never held for more than a batch (~BATCH_TARGET_MS).
 *
 * Either way an error before the first byte (a bad statement, the first batch failing, a failed check) rejects, so
 * the route still answers it with the error shape; a later one ends the download with an error.
 */
export async function copyOut<K>(
  ctx: AppContext,
  build: (client: pg.PoolClient) => Promise<string>,
  batches?: CopyBatches<K>,
  checks: ReadCheck[] = [],
): Promise<Readable> {
  // a replica's pool when one is close enough behind the primary, else the primary's (lib/replicas.ts)
  const longReads = (await longReadTarget(ctx))?.pool ?? null;
  if (!longReads) {
    await checkRead(ctx, checks);
    if (batches) return copyInBatches(ctx, batches);
  }
  const client = longReads ? await connectLongRead(ctx, longReads) : await ctx.dbh.pool.connect();
  let released = false;
  const release = (err?: Error) => {
    if (released) return;
    released = true;
    client.release(err ?? undefined);
  };
  try {
    if (longReads) {
      const refused = await refusalOf(ctx, client, unseen(ctx, checks));
      if (refused) {
        release();
        throw refused;
      }
    } else {
      await beginCopy(client, ctx);
    }
    const stream = client.query(copyTo(await build(client)));
    stream.once('end', () => {
      if (longReads) return release();
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

/** Connections of the long reads' pools made read-only, with standard strings and the long reads' limit. */
const longReadReady = new WeakSet<pg.PoolClient>();

/**
 * A connection of the long reads' pool, or SERVICE_BUSY when none came free within config longReadWaitMs. A
 * connection's first use sets it up for long reads (session settings, one round trip in its life): read-only (a
 * long read never writes), standard strings (COPY statements inline their values: a backslash is only ever a
 * character) and the long reads' own statement limit (config exportTimeoutMs; 0: none). Set here rather than as
 * startup parameters, which a connection string's own `options` would replace.
 */
export async function connectLongRead(ctx: AppContext, pool: pg.Pool): Promise<pg.PoolClient> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (err) {
    // pg-pool's message when no connection came free (or could be opened) in connectionTimeoutMillis
    if (!/timeout exceeded when trying to connect/i.test((err as Error).message)) throw err;
    throw new AppError(
      'SERVICE_BUSY',
      'No connection for exports and reports came free in time (too many are running at once); nothing was ' +
        'started. Try again in a minute.',
    );
  }
  if (!longReadReady.has(client)) {
    try {
      await client.query(
        'SET default_transaction_read_only = on; SET standard_conforming_strings = on; ' +
          `SET statement_timeout = ${Math.trunc(ctx.config.exportTimeoutMs)}`,
      );
    } catch (err) {
      client.release(err as Error);
      throw err;
    }
    longReadReady.add(client);
  }
  return client;
}

/** The checks not already seen to hold. */
const unseen = (ctx: AppContext, checks: ReadCheck[]) =>
  checks.filter((c) => !(c.lasting && heldChecks.has(ctx.dbh, c.statement)));

/**
 * The refusal of the first of `open` (checks not seen to hold) that fails, else null, in one round trip (a simple
 * query of several statements: one result each; the connection's standard strings, set before, apply to all of
 * them). The lasting ones that held are remembered.
 */
async function refusalOf(ctx: AppContext, client: Pick<pg.PoolClient, 'query'>, open: ReadCheck[]) {
  if (!open.length) return null;
  const result = (await client.query(open.map((c) => c.statement).join('; '))) as unknown as
    { rowCount: number | null } | { rowCount: number | null }[];
  const results = Array.isArray(result) ? result : [result];
  const failed = open.findIndex((_c, i) => !results[i]?.rowCount);
  if (failed >= 0) return open[failed]!.refuse();
  for (const c of open) if (c.lasting) heldChecks.add(ctx.dbh, c.statement);
  return null;
}

/**
 * Opens the read-only transaction of a long read on a connection of the interactive pool (PGlite's batches), with
 * the long reads' own, explicit statement limit (config exportTimeoutMs) and standard strings (COPY statements
 * inline their values: csv-sql.ts, queries.ts copyCsvSql; with standard strings a backslash is only ever a
 * character). One round trip.
 */
async function beginCopy(client: Pick<pg.PoolClient, 'query'>, ctx: AppContext) {
  await client.query(
    `BEGIN READ ONLY; SET LOCAL statement_timeout = ${Math.trunc(ctx.config.exportTimeoutMs)}; ` +
      'SET LOCAL standard_conforming_strings = on',
  );
}

/**
 * A long read's checks on their own, one short read (the embedded database, where a long read is many short ones):
 * throws the refusal of the first that fails.
 */
export async function checkRead(ctx: AppContext, checks: ReadCheck[]) {
  const open = unseen(ctx, checks);
  if (!open.length) return;
  const refused = await shortRead(ctx, (client) => refusalOf(ctx, client, open));
  if (refused) throw refused;
}

/** What one batch of a long read on PGlite should take: well under the ~100 ms another request may wait. */
const BATCH_TARGET_MS = 30;
const FIRST_BATCH_ROWS = 500;
const MIN_BATCH_ROWS = 50;
const MAX_BATCH_ROWS = 50_000;

/** The next batch size: scaled to take BATCH_TARGET_MS by the last batch's time, at most doubling. */
export function nextBatchSize(n: number, elapsedMs: number, min = MIN_BATCH_ROWS, max = MAX_BATCH_ROWS) {
  const scaled = Math.round((n * BATCH_TARGET_MS) / Math.max(elapsedMs, 1));
  return Math.max(min, Math.min(max, n * 2, scaled));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Some request holds the pool's connection(s) or waits for one. */
function poolBusy(pool: pg.Pool) {
  return pool.waitingCount > 0 || (pool.totalCount >= (pool.options.max ?? 10) && pool.idleCount === 0);
}

/**
 * Runs `fn` in one short read-only transaction on a connection of the pool, then gives the connection back. When
 * other requests were waiting for it, waits (up to 100 ms) until the pool has been free for a moment before
 * returning, so that a waiting request's next statements also run before the caller's next batch (a list request
 * is a few statements in a row; the pool alone would put the next batch between each of them).
 */
export async function shortRead<T>(ctx: AppContext, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const pool = ctx.dbh.pool;
  const client = await pool.connect();
  let result: T;
  try {
    await beginCopy(client, ctx);
    result = await fn(client);
    await client.query('COMMIT');
  } catch (err) {
    client.release(err as Error); // may be left mid-statement or mid-transaction: discarded
    throw err;
  }
  const othersWaited = pool.waitingCount > 0;
  client.release();
  if (othersWaited) {
    const giveUp = Date.now() + 100;
    for (let quiet = 0; quiet < 2 && Date.now() < giveUp;) {
      await sleep(1);
      quiet = poolBusy(pool) ? 0 : quiet + 1;
    }
  }
  return result;
}

/** All the data of one COPY statement, buffered (a batch is bounded, so is the memory). */
async function copyAll(client: pg.PoolClient, statement: string): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of client.query(copyTo(statement))) chunks.push(chunk as Buffer);
  return chunks;
}

/**
 * The file in keyset batches on PGlite. Each batch runs in shortRead: find the batch's last key, COPY the rows up to
 * it into memory, give the connection back, then hand the data to the download, waiting for a slow client with no
 * connection held. Batch sizes adapt so that one takes ~BATCH_TARGET_MS. Only the first batch writes the header.
 * The first batch runs before this returns (its errors answer the request); an aborted download stops after the
 * batch in flight.
 *
 * Consistency: each batch has its own snapshot. The callers read rows in an order where rows created after the
 * export began fall outside (before its first batch, or past a bound taken at the start), and a row that changes
 * during the export shows the state it had when its batch ran.
 */
export async function copyInBatches<K>(ctx: AppContext, b: CopyBatches<K>): Promise<Readable> {
  let after: K | null = null;
  let n = FIRST_BATCH_ROWS;
  const batch = async (header: boolean) => {
    const r = await shortRead(ctx, async (client) => {
      const t0 = performance.now();
      const until = await b.end(client, after, n);
      const chunks = until !== null || header ? await copyAll(client, b.copy(after, until, header)) : [];
      return { until, chunks, elapsed: performance.now() - t0 };
    });
    n = nextBatchSize(n, r.elapsed);
    return r;
  };

  const first = await batch(true);
  const out = new PassThrough();
  const write = async (chunks: Buffer[]) => {
    for (const chunk of chunks) {
      if (out.destroyed) return;
      if (!out.write(chunk)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            out.off('drain', done);
            out.off('close', done);
            resolve();
          };
          out.on('drain', done);
          out.on('close', done);
        });
      }
    }
  };
  void (async () => {
    let r = first;
    for (;;) {
      await write(r.chunks);
      if (r.until === null || out.destroyed) break;
      after = r.until;
      r = await batch(false);
    }
    out.end();
  })().catch((err: Error) => out.destroy(err));
  return out;
}

/**
 * CSV from COPY with CRLF line ends (the reports' format, RFC 4180): a record's LF becomes CRLF, a line break inside a
 * quoted cell stays as it is. COPY quotes every cell that holds a quote, CR or LF, so the quote state is all it takes.
 */
export function crlfRecords(): Transform {
  let quoted = false;
  const LF = 0x0a;
  const QUOTE = 0x22;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      const parts: Buffer[] = [];
      let from = 0;
      let q = -2; // the next quote at or after i (-1: none left in the chunk; -2: not looked for yet)
      for (let i = 0; i < chunk.length;) {
        if (q !== -1 && q < i) q = chunk.indexOf(QUOTE, i);
        if (quoted) {
          if (q < 0) break;
          quoted = false;
          i = q + 1;
          continue;
        }
        const lf = chunk.indexOf(LF, i);
        if (q >= 0 && (lf < 0 || q < lf)) {
          quoted = true; // a doubled quote inside a cell closes and reopens: the same state after both
          i = q + 1;
          continue;
        }
        if (lf < 0) break;
        parts.push(chunk.subarray(from, lf), CRLF);
        from = lf + 1;
        i = from;
      }
      if (parts.length === 0) return done(null, chunk);
      parts.push(chunk.subarray(from));
      done(null, Buffer.concat(parts));
    },
  });
}
const CRLF = Buffer.from('\r\n');
