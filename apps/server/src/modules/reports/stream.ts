import { Readable, pipeline } from 'node:stream';
import { stringify } from 'csv-stringify';
import QueryStream from 'pg-query-stream';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { AppContext } from '../../lib/context';
import { beginLongRead } from '../../lib/copy-out';

const dialect = new PgDialect();
const BATCH = 2000;

type Row = Record<string, unknown>;

/**
 * Rows of a query, read in batches of 2000 through a portal (pg-query-stream) without holding the whole result in
 * memory — on PostgreSQL and on the embedded PGlite alike (its single pool connection keeps the portal intact).
 */
async function* queryRows(ctx: AppContext, query: SQL): AsyncGenerator<Row> {
  const { sql: text, params } = dialect.sqlToQuery(query);
  const client = await ctx.dbh.pool.connect();
  let clean = false;
  try {
    await beginLongRead(client, ctx);
    const stream = client.query(new QueryStream(text, params as unknown[], { batchSize: BATCH }));
    for await (const row of stream) yield row as Row;
    await client.query('COMMIT');
    clean = true;
  } finally {
    // a stream abandoned half way (client went away) may leave the connection mid-protocol: drop it
    client.release(!clean);
  }
}

/** Neutralises spreadsheet formulas (CSV injection); quoting is csv-stringify's (RFC 4180). */
function csvCell(v: unknown, text = true): string {
  if (v === null || v === undefined) return '';
  const s = v instanceof Date ? v.toISOString() : String(v);
  return text && /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

export type Cell = { v: unknown; text?: boolean };

/** A CSV (header row, CRLF line ends) streamed from a query; `toCells` maps a row to its cells. */
export function csvStream(
  ctx: AppContext,
  header: readonly string[],
  query: SQL,
  toCells: (row: Row) => Cell[],
): Readable {
  const rows = Readable.from(
    (async function* () {
      for await (const row of queryRows(ctx, query)) yield toCells(row).map((c) => csvCell(c.v, c.text ?? true));
    })(),
  );
  const csv = stringify({ header: true, columns: [...header], record_delimiter: 'windows' });
  return pipeline(rows, csv, (err) => {
    if (err) csv.destroy(err);
  });
}
