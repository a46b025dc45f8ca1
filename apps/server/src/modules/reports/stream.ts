import type { Readable } from 'node:stream';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { AppContext } from '../../lib/context';
import { checkRead, copyOut, crlfRecords, nextBatchSize, shortRead, type ReadCheck } from '../../lib/copy-out';
import { copyCsvOf, inlined } from '../../lib/csv-sql';

const dialect = new PgDialect();

/** The first row of a statement with bind parameters, or null. */
async function firstRow<T>(client: Pick<pg.PoolClient, 'query'>, q: SQL): Promise<T | null> {
  const { sql: text, params } = dialect.sqlToQuery(q);
  return ((await client.query(text, params)).rows[0] as T | undefined) ?? null;
}

/** A row's place in a report's order, as text that casts back exactly. */
export type Key = { at: string; id: string };

/** A row report in keyset batches on PGlite: see CopyBatches (lib/copy-out.ts); `run` runs a statement of the batch. */
type RowBatches = {
  end: (run: <T>(q: SQL) => Promise<T | null>, after: Key | null, n: number) => Promise<Key | null>;
  copy: (after: Key | null, until: Key | null) => SQL;
};

/**
 * What a report needs before it starts (its pool is the merchant's…): `sql` must return a row, else `refuse()`;
 * `lasting`: once true, always (see ReadCheck).
 */
export type ReportCheck = { sql: SQL; refuse: () => Error; lasting?: boolean };

/**
 * How a report is read: `whole` is its one statement (PostgreSQL); on the embedded PGlite, where no statement may
 * hold the one connection for long, a row report reads `batches` and an aggregate report computes its totals in
 * short statements (`aggregate`) and COPYs the SELECT that returns (a few rows). Without either, `whole` there too.
 * `checks` run first (in one round trip; lasting ones only until seen to hold, lib/copy-out.ts).
 */
export type ReportPlan = { whole: SQL; batches?: RowBatches; aggregate?: () => Promise<SQL>; checks?: ReportCheck[] };

/** The COPY statement of a report on PostgreSQL (what bench:reports times against the download). */
export const reportCopySql = (plan: ReportPlan) => copyCsvOf(plan.whole);

/** A report's CSV (header row, CRLF line ends), read as its plan says. */
export async function reportCsv(ctx: AppContext, plan: ReportPlan): Promise<Readable> {
  const { whole, batches, aggregate } = plan;
  const checks: ReadCheck[] = (plan.checks ?? []).map((c) => ({
    statement: inlined(c.sql),
    refuse: c.refuse,
    lasting: c.lasting,
  }));
  const pglite = ctx.dbh.kind === 'pglite';
  if (pglite) await checkRead(ctx, checks);
  let file: Readable;
  if (pglite && batches) {
    file = await copyOut<Key>(ctx, async () => copyCsvOf(whole), {
      end: (client, after, n) => batches.end((q) => firstRow(client, q), after, n),
      copy: (after, until, header) => copyCsvOf(batches.copy(after, until), header),
    });
  } else if (pglite) {
    const statement = copyCsvOf(aggregate ? await aggregate() : whole);
    // one short statement (a few rows), read into memory, so that a slow download holds no connection
    file = await copyOut<true>(ctx, async () => statement, {
      end: async (_client, after) => (after ? null : true),
      copy: () => statement,
    });
  } else {
    file = await copyOut(ctx, async () => copyCsvOf(whole), undefined, checks);
  }
  const out = crlfRecords();
  file.once('error', (err) => out.destroy(err));
  out.once('close', () => {
    if (!file.readableEnded) file.destroy();
  });
  return file.pipe(out);
}

/**
 * `rows` as a SELECT over VALUES with the given column names and types (a typed empty SELECT when there are none),
 * for the SELECT that formats an aggregate report.
 */
export function rowsValues(rows: Record<string, unknown>[], cols: [name: string, type: string][]): SQL {
  const names = sql.raw(cols.map(([n]) => n).join(', '));
  if (rows.length === 0) {
    return sql.raw(`SELECT ${cols.map(([n, t]) => `NULL::${t} AS ${n}`).join(', ')} WHERE false`);
  }
  const tuples = rows.map(
    (r) =>
      sql`(${sql.join(
        cols.map(([n, t]) => sql`${String(r[n])}::${sql.raw(t)}`),
        sql`, `,
      )})`,
  );
  return sql`SELECT * FROM (VALUES ${sql.join(tuples, sql`, `)}) AS v(${names})`;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * Sums per key over [from, to), in short statements over chunks of time, each its own snapshot: `chunk(a, b)` gives
 * rows of `key` and the `sums` columns for [a, b). Chunks adapt their length so that one takes ~BATCH_TARGET_MS
 * (lib/copy-out.ts). The result adds the chunks' sums per key exactly (bigint). An invoice whose status date moves
 * from one chunk to another while the report runs may count in both or neither: each chunk is its own snapshot.
 */
export async function chunkedAggregate(
  ctx: AppContext,
  from: string,
  to: string,
  chunk: (a: SQL, b: SQL) => SQL,
  o: { key: (row: Record<string, unknown>) => string; sums: string[] },
): Promise<Map<string, Record<string, bigint>>> {
  const rows = new Map<string, Record<string, bigint>>();
  const endMs = Date.parse(to);
  let a = Date.parse(from);
  let span = DAY;
  for (;;) {
    const b = Math.min(a + span, endMs);
    const q = chunk(sql`${new Date(a).toISOString()}::timestamptz`, sql`${new Date(b).toISOString()}::timestamptz`);
    const elapsed = await shortRead(ctx, async (client) => {
      const t0 = performance.now();
      const { sql: text, params } = dialect.sqlToQuery(q);
      for (const r of (await client.query<Record<string, unknown>>(text, params)).rows) {
        const k = o.key(r);
        const acc = rows.get(k) ?? Object.fromEntries(o.sums.map((s) => [s, 0n]));
        for (const s of o.sums) acc[s]! += BigInt(String(r[s] ?? 0));
        rows.set(k, acc);
      }
      return performance.now() - t0;
    });
    if (b >= endMs) break;
    a = b;
    span = nextBatchSize(span, elapsed, MINUTE, 366 * DAY);
  }
  return rows;
}
