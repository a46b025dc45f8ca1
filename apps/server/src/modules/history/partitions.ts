import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { parse } from 'csv-parse';
import { max, sql } from 'drizzle-orm';
import type { AppContext } from '../../lib/context';
import { copyInBatches } from '../../lib/copy-out';
import type { DbOrTx } from '../../db/create-db';
import { historyPartitions } from '../../db/schema';
import { recordAudit, SYSTEM_ACTOR } from '../audit/service';

/**
 * History is partitioned by month of its time column (migration 0027; docs/operations.md, "Partitioned history"):
 * the table and that column.
 */
export const HISTORY_TABLES = {
  ledger_entries: 'created_at',
  invoice_status_events: 'status_date',
  event_log: 'event_time',
  callback_attempts: 'attempted_at',
  audit_log: 'at',
} as const;
export type HistoryTable = keyof typeof HISTORY_TABLES;

/**
 * The tables whose months older than the retention are archived and dropped. The ledger, the audit trail and an
 * invoice's own status history are kept for good.
 */
export const RETIRED_TABLES = ['callback_attempts', 'event_log'] as const satisfies readonly HistoryTable[];

/** How far ahead the months get their partitions: an insert never finds its month missing while the worker runs. */
export const MONTHS_AHEAD = 3;

/** A partition's creation or detach waits this long for its lock, then gives up until the next tick. */
const LOCK_TIMEOUT = '5s';

const addMonths = (at: Date, months: number) => {
  const d = new Date(at);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d;
};

/**
 * Creates the partitions of the months up to MONTHS_AHEAD after `now` that are missing (the database function
 * history_partitions_ensure: several processes take turns). Returns how many it created.
 */
export async function ensureHistoryPartitions(db: DbOrTx, now: Date, monthsAhead = MONTHS_AHEAD): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`));
    const r = await tx.execute<{ created: number }>(
      sql`SELECT history_partitions_ensure(${addMonths(now, monthsAhead).toISOString()}::timestamptz) AS created`,
    );
    return Number(r.rows[0]!.created);
  });
}

/** Days from `now` to the end of the last partition of the history table covered least far ahead (a gauge). */
export async function historyDaysAhead(db: DbOrTx, now: Date): Promise<number> {
  const rows = await db
    .select({ until: max(historyPartitions.toAt) })
    .from(historyPartitions)
    .groupBy(historyPartitions.parent);
  const ends = rows.map((r) => r.until?.getTime() ?? 0);
  return ends.length ? (Math.min(...ends) - now.getTime()) / 86_400_000 : 0;
}

export type RetiredPartition = {
  partition: string;
  parent: string;
  fromAt: string | null;
  toAt: string;
  rows: number;
  file: string;
  sha256: string;
};

/**
 * Archives, then drops, every partition of the retired tables (callback attempts, the event log) that ends at least
 * `retentionDays` before `now`, oldest first. Per partition:
 * 1. its rows in id order, as CSV with a header, gzip-compressed, into `<archiveDir>/<table>/<partition>.csv.gz`
 *    (written under a temporary name, renamed once complete), with `<file>.sha256` beside it (`sha256sum -c`);
 * 2. the file read back: its records counted, parsed as CSV, and its checksum taken;
 * 3. in one transaction: the partition locked against writes, its row count compared with the archive's, detached,
 *    dropped, its history_partitions row marked archived (file, checksum, rows), and an audit record.
 * Any mismatch throws before anything is dropped.
 */
export async function retireHistory(ctx: AppContext, now: Date): Promise<RetiredPartition[]> {
  const cutoff = new Date(now.getTime() - ctx.config.historyRetentionDays * 86_400_000);
  const due = await ctx.db.execute<{ partition: string; parent: string; from_at: string | null; to_at: string }>(sql`
    SELECT partition, parent, from_at::text, to_at::text FROM history_partitions
    WHERE parent IN (${sql.join(
      RETIRED_TABLES.map((t) => sql`${t}`),
      sql`, `,
    )}) AND archived_at IS NULL AND to_at <= ${cutoff.toISOString()}::timestamptz
    ORDER BY to_at, partition`);
  const retired: RetiredPartition[] = [];
  for (const p of due.rows) {
    const archive = await archivePartition(ctx, p.parent, p.partition);
    await ctx.db.transaction(async (tx) => {
      await tx.execute(sql.raw(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`));
      await tx.execute(sql.raw(`LOCK TABLE "${p.partition}" IN SHARE MODE`));
      const count = await tx.execute<{ n: string }>(sql.raw(`SELECT count(*)::text AS n FROM "${p.partition}"`));
      if (Number(count.rows[0]!.n) !== archive.rows) {
        throw new Error(
          `${p.partition} holds ${count.rows[0]!.n} rows, its archive ${archive.rows}: not dropped (archive kept at ${archive.file})`,
        );
      }
      await tx.execute(sql.raw(`ALTER TABLE "${p.parent}" DETACH PARTITION "${p.partition}"`));
      await tx.execute(sql.raw(`DROP TABLE "${p.partition}"`));
      await tx.execute(sql`
        UPDATE history_partitions SET archived_at = ${now.toISOString()}::timestamptz, archive_file = ${archive.file},
          archive_sha256 = ${archive.sha256}, archive_rows = ${archive.rows}
        WHERE partition = ${p.partition}`);
      await recordAudit(
        tx,
        SYSTEM_ACTOR,
        {
          action: 'history.archived',
          targetType: 'partition',
          targetId: p.partition,
          after: {
            table: p.parent,
            from: p.from_at,
            to: p.to_at,
            rows: archive.rows,
            file: archive.file,
            sha256: archive.sha256,
          },
          reason: `older than the retention of ${ctx.config.historyRetentionDays} days`,
        },
        now,
      );
    });
    retired.push({ partition: p.partition, parent: p.parent, fromAt: p.from_at, toAt: p.to_at, ...archive });
  }
  return retired;
}

/** One partition's rows into its archive file, checked by reading it back (retireHistory). */
async function archivePartition(ctx: AppContext, parent: string, partition: string) {
  const dir = path.join(ctx.config.historyArchiveDir, parent);
  await fs.promises.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${partition}.csv.gz`);
  const partial = `${file}.partial`;
  const table = `"${partition}"`;
  const rows = await copyInBatches<number>(ctx, {
    end: async (client, after, n) => {
      const r = await client.query<{ id: string | null }>(
        `SELECT max(id)::text AS id FROM (SELECT id FROM ${table} WHERE id > $1 ORDER BY id LIMIT $2) b`,
        [after ?? 0, n],
      );
      return r.rows[0]!.id === null ? null : Number(r.rows[0]!.id);
    },
    copy: (after, until, header) =>
      `COPY (SELECT * FROM ${table} WHERE id > ${after ?? 0} AND id <= ${until ?? 0} ORDER BY id) ` +
      `TO STDOUT WITH (FORMAT csv, HEADER ${header})`,
  });
  await pipeline(rows, createGzip(), fs.createWriteStream(partial, { mode: 0o600 }));
  // what is on the disk, read back: its records (retireHistory compares them with the partition) and its checksum
  const { sha256, rows: records } = await readArchive(partial);
  await fs.promises.rename(partial, file);
  await fs.promises.writeFile(`${file}.sha256`, `${sha256}  ${path.basename(file)}\n`, { mode: 0o600 });
  return { file, sha256, rows: records };
}

/** An archive file's checksum and its number of records (the header row aside), parsed as CSV. */
export async function readArchive(file: string): Promise<{ sha256: string; rows: number; header: string[] }> {
  const hash = createHash('sha256');
  let rows = -1;
  let header: string[] = [];
  await pipeline(
    fs.createReadStream(file),
    new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        done(null, chunk);
      },
    }),
    createGunzip(),
    parse({ relax_column_count: false }),
    new Writable({
      objectMode: true,
      write(record: string[], _enc, done) {
        if (rows < 0) header = record;
        rows++;
        done();
      },
    }),
  );
  return { sha256: hash.digest('hex'), rows: Math.max(rows, 0), header };
}
