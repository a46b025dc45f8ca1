import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createGunzip } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/harness';
import { ensureHistoryPartitions, HISTORY_TABLES, readArchive, retireHistory } from './partitions';

let t: TestApp;
let archiveDir = '';

beforeAll(async () => {
  archiveDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paydesk-archive-'));
  t = await createTestApp({ historyArchiveDir: archiveDir, historyRetentionDays: 90 });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(archiveDir, { recursive: true, force: true });
});

const rows = async <T extends Record<string, unknown>>(q: ReturnType<typeof sql>) =>
  (await t.ctx.db.execute<T>(q)).rows;

/** The tables a plan reads (every Scan node's relation). */
async function scanned(query: string): Promise<string[]> {
  const [plan] = await rows<{ 'QUERY PLAN': unknown }>(sql.raw(`EXPLAIN (FORMAT JSON) ${query}`));
  const raw = plan!['QUERY PLAN'];
  const found = new Set<string>();
  const walk = (node: Record<string, unknown>) => {
    if (typeof node['Relation Name'] === 'string') found.add(node['Relation Name']);
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
  };
  const parsed = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: Record<string, unknown> }[];
  walk(parsed[0]!.Plan);
  return [...found].sort();
}

const monthOf = (at: Date) => `${at.getUTCFullYear()}_${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
const monthsFrom = (at: Date, n: number) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + n, 1));

describe('partitioned history', () => {
  it('creates the months ahead, without gaps, and a row of such a month lands in its partition', async () => {
    const now = new Date();
    const last = async (parent: string) =>
      (
        await rows<{ to_at: string }>(
          sql`SELECT max(to_at)::text AS to_at FROM history_partitions WHERE parent = ${parent}`,
        )
      )[0]!.to_at;
    const before = await last('event_log');
    const created = await ensureHistoryPartitions(t.ctx.db, now, 8);
    // every history table gets the same months
    expect(created % Object.keys(HISTORY_TABLES).length).toBe(0);
    expect(created).toBeGreaterThan(0);
    expect(await ensureHistoryPartitions(t.ctx.db, now, 8)).toBe(0);
    expect(new Date(await last('event_log')).getTime()).toBeGreaterThan(new Date(before).getTime());
    for (const parent of Object.keys(HISTORY_TABLES)) {
      const months = await rows<{ from_at: string | null; to_at: string }>(
        sql`SELECT from_at::text, to_at::text FROM history_partitions WHERE parent = ${parent} ORDER BY to_at`,
      );
      // one partition from the beginning, then months that follow each other
      expect(months[0]!.from_at).toBeNull();
      for (let i = 1; i < months.length; i++) {
        expect(new Date(months[i]!.from_at!).getTime()).toBe(new Date(months[i - 1]!.to_at).getTime());
      }
      expect(new Date(months.at(-1)!.to_at).getTime()).toBeGreaterThan(monthsFrom(now, 8).getTime());
    }

    const inSevenMonths = new Date(monthsFrom(now, 7).getTime() + 3 * 86_400_000);
    const [landed] = await rows<{ partition: string }>(sql`
      INSERT INTO event_log (code, description, event_time) VALUES ('TEST', 'a month ahead', ${inSevenMonths.toISOString()}::timestamptz)
      RETURNING tableoid::regclass::text AS partition`);
    expect(landed!.partition).toBe(`event_log_${monthOf(inSevenMonths)}`);
  });

  it('a row dated past the last partition is kept in the default one, and moved into its month once created', async () => {
    const far = new Date(Date.UTC(new Date().getUTCFullYear() + 5, 2, 4, 5, 6, 7));
    const [kept] = await rows<{ partition: string; id: string }>(sql`
      INSERT INTO audit_log (actor_kind, action, at) VALUES ('system', 'database.restored', ${far.toISOString()}::timestamptz)
      RETURNING tableoid::regclass::text AS partition, id::text`);
    expect(kept!.partition).toBe('audit_log_default');
    // the months up to it are created; the row moves into its own, and the audit trail still refuses changes there
    await ensureHistoryPartitions(t.ctx.db, far, 0);
    const [moved] = await rows<{ partition: string }>(
      sql`SELECT tableoid::regclass::text AS partition FROM audit_log WHERE id = ${kept!.id}`,
    );
    expect(moved!.partition).toBe(`audit_log_${monthOf(far)}`);
    expect((await rows(sql`SELECT 1 FROM audit_log_default`)).length).toBe(0);
    await expect(t.ctx.db.execute(sql`DELETE FROM audit_log WHERE id = ${kept!.id}`)).rejects.toThrow();
    await expect(t.ctx.db.execute(sql.raw(`TRUNCATE audit_log_default`))).rejects.toThrow();
  });

  it('a query over a time range reads only the partitions of its months (EXPLAIN)', async () => {
    const month = monthsFrom(new Date(), 1);
    const next = monthsFrom(new Date(), 2);
    const range = (col: string) => `${col} >= '${month.toISOString()}' AND ${col} < '${next.toISOString()}'`;
    expect(await scanned(`SELECT count(*) FROM ledger_entries WHERE ${range('created_at')}`)).toEqual([
      `ledger_entries_${monthOf(month)}`,
    ]);
    expect(
      await scanned(
        `SELECT id, at FROM audit_log WHERE merchant_id IS NULL AND ${range('at')} ORDER BY at DESC, id DESC LIMIT 50`,
      ),
    ).toEqual([`audit_log_${monthOf(month)}`]);
    expect(
      await scanned(
        `SELECT count(*) FROM callback_attempts WHERE merchant_id = '00000000-0000-0000-0000-000000000000' AND ${range('attempted_at')}`,
      ),
    ).toEqual([`callback_attempts_${monthOf(month)}`]);
    // a range before partitioning began reads the table as it was, alone
    const [first] = await rows<{ partition: string }>(
      sql`SELECT partition FROM history_partitions WHERE parent = 'invoice_status_events' AND from_at IS NULL`,
    );
    expect(
      await scanned(`SELECT count(*) FROM invoice_status_events WHERE status_date < '2020-01-01T00:00:00Z'`),
    ).toEqual([first!.partition]);
    // and a read by invoice, without a time, still reads every month: it is not pruned (and uses each one's index)
    expect(
      (await scanned(`SELECT * FROM invoice_status_events WHERE invoice_id = '00000000-0000-0000-0000-000000000000'`))
        .length,
    ).toBeGreaterThan(1);
  });

  it('archives the months of callback attempts and the event log past the retention, verified, then drops them', async () => {
    const [first] = await rows<{ partition: string; to_at: string }>(
      sql`SELECT partition, to_at::text FROM history_partitions WHERE parent = 'callback_attempts' AND from_at IS NULL`,
    );
    type Attempt = { id: string; callback_id: string; merchant_id: string; response_code: string | null };
    const attempts = await rows<Attempt>(
      sql.raw(
        `SELECT id::text, callback_id::text, merchant_id::text, response_code::text FROM "${first!.partition}" a ORDER BY a.id`,
      ),
    );
    expect(attempts.length).toBeGreaterThan(10); // the demo's callback history
    const [{ n: events }] = (await rows<{ n: string }>(
      sql`SELECT count(*)::text AS n FROM event_log WHERE event_time < ${first!.to_at}::timestamptz`,
    )) as [{ n: string }];
    const ledgerBefore = await rows<{ n: string; sum: string }>(
      sql`SELECT count(*)::text AS n, sum(amount)::text AS sum FROM ledger_entries`,
    );
    const auditBefore = await rows<{ n: string }>(sql`SELECT count(*)::text AS n FROM audit_log`);

    // nothing is old enough yet
    expect(await retireHistory(t.ctx, new Date())).toEqual([]);

    // 90 days after the first partition's end, that one (and no later month) is past the retention
    const later = new Date(new Date(first!.to_at).getTime() + 90 * 86_400_000);
    const retired = await retireHistory(t.ctx, later);
    expect(retired.map((r) => r.parent).sort()).toEqual(['callback_attempts', 'event_log']);
    const cb = retired.find((r) => r.parent === 'callback_attempts')!;
    expect(cb.partition).toBe(first!.partition);
    expect(cb.rows).toBe(attempts.length);
    expect(retired.find((r) => r.parent === 'event_log')!.rows).toBe(Number(events));

    // the archive: its checksum file (sha256sum's format) matches, and its records are the rows, in id order
    const file = path.join(archiveDir, 'callback_attempts', `${first!.partition}.csv.gz`);
    expect(cb.file).toBe(file);
    const bytes = fs.readFileSync(file);
    expect(fs.readFileSync(`${file}.sha256`, 'utf8')).toBe(
      `${createHash('sha256').update(bytes).digest('hex')}  ${path.basename(file)}\n`,
    );
    expect((await readArchive(file)).sha256).toBe(cb.sha256);
    const text = await new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      fs.createReadStream(file)
        .pipe(createGunzip())
        .on('data', (c: Buffer) => chunks.push(c))
        .on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
        .on('error', reject);
    });
    const records = parse(text, { columns: true }) as Record<string, string>[];
    expect(records.map((r) => [r.id, r.callback_id, r.merchant_id, r.response_code || null])).toEqual(
      attempts.map((a) => [a.id, a.callback_id, a.merchant_id, a.response_code]),
    );

    // gone from the database, its fate recorded and audited; the ledger and the audit trail keep every month
    expect(
      (await rows<{ r: string | null }>(sql.raw(`SELECT to_regclass('${first!.partition}')::text AS r`)))[0]!.r,
    ).toBeNull();
    const [mark] = await rows<{ archive_file: string; archive_sha256: string; archive_rows: string }>(
      sql`SELECT archive_file, archive_sha256, archive_rows::text FROM history_partitions WHERE partition = ${first!.partition}`,
    );
    expect(mark).toEqual({ archive_file: file, archive_sha256: cb.sha256, archive_rows: String(attempts.length) });
    const audits = await rows<{ target_id: string; actor_kind: string }>(
      sql`SELECT target_id, actor_kind FROM audit_log WHERE action = 'history.archived' ORDER BY target_id`,
    );
    expect(audits.map((a) => a.target_id).sort()).toEqual(retired.map((r) => r.partition).sort());
    expect(audits.every((a) => a.actor_kind === 'system')).toBe(true);
    expect(await rows(sql`SELECT count(*)::text AS n, sum(amount)::text AS sum FROM ledger_entries`)).toEqual(
      ledgerBefore,
    );
    expect(Number((await rows<{ n: string }>(sql`SELECT count(*)::text AS n FROM audit_log`))[0]!.n)).toBe(
      Number(auditBefore[0]!.n) + retired.length,
    );

    // done once: a second pass finds nothing, and the months after take attempts
    expect(await retireHistory(t.ctx, later)).toEqual([]);
    const [cbRow] = await rows<{ id: string; merchant_id: string }>(sql`SELECT id, merchant_id FROM callbacks LIMIT 1`);
    await t.ctx.db.execute(
      sql`INSERT INTO callback_attempts (callback_id, merchant_id, response_code, attempted_at) VALUES (${cbRow!.id}, ${cbRow!.merchant_id}, 200, ${later.toISOString()}::timestamptz)`,
    );
  });
});
