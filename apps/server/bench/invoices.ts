/**
 * Invoice list and CSV benchmark: 1,000,000 invoices of one merchant in PostgreSQL; the targets are in
 * docs/benchmarks.md, "Invoices" (list p95 < 50 ms; the whole CSV streamed, first byte within 1 s).
 *
 *   npm run bench:invoices            (BENCH_PG=postgres://postgres@127.0.0.1:5432/test, BENCH_ROWS=1000000)
 *
 * Creates a fresh database next to BENCH_PG, migrates and seeds the demo, bulk-loads the invoices
 * with INSERT … SELECT generate_series, runs the server in a child process and measures it over HTTP.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { INVOICE_TOTAL_CAP, encodeInvoiceCursor } from '@paydesk/contracts';
import { createDb, runMigrations } from '../src/db/create-db';
import { ensureReferenceData } from '../src/db/seed/reference-data';
import { benchKeyFile, loadInvoiceHistory, signInCookie } from './lib';

const BASE = process.env.BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const DB_NAME = process.env.BENCH_DB ?? 'paydesk_bench_invoices';
const PORT = Number(process.env.BENCH_PORT ?? 3197);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const dataDir = path.join(repoRoot, '.tmp/bench-invoices');

const withDb = (url: string, db: string) => {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
};
const log = (...a: unknown[]) => console.log(...a);
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;

async function prepare(url: string) {
  const admin = new pg.Client({ connectionString: BASE });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB_NAME}`);
  await admin.end();

  const dbh = await createDb({ databaseUrl: url, poolMax: 4 });
  await runMigrations(dbh);
  await ensureReferenceData(dbh.db);
  const m = await loadInvoiceHistory(dbh, { rows: ROWS, dataDir, log });
  const q = (text: string, params: unknown[] = []) => dbh.pool.query(text, params);
  const [sample] = (
    await q(
      `SELECT (SELECT id FROM invoices WHERE merchant_id = $1 ORDER BY created_at DESC OFFSET 500000 LIMIT 1) AS id,
              (SELECT terminal_id FROM invoices WHERE merchant_id = $1 LIMIT 1) AS terminal_id`,
      [m],
    )
  ).rows as { id: string; terminal_id: string }[];
  const { n } = (
    (await q('SELECT count(*)::int AS n FROM invoices WHERE merchant_id = $1', [m])).rows as {
      n: number;
    }[]
  )[0]!;
  await dbh.close();
  return { merchantId: m, invoiceId: sample!.id, terminalId: sample!.terminal_id, total: n! };
}

/** BENCH_REUSE=1: measure an already loaded benchmark database again. */
async function reuse(url: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const { rows } = await c.query(
    `SELECT m.merchant_id, m.n,
            (SELECT id FROM invoices WHERE merchant_id = m.merchant_id ORDER BY created_at DESC OFFSET 500000 LIMIT 1) AS id,
            (SELECT terminal_id FROM invoices WHERE merchant_id = m.merchant_id LIMIT 1) AS terminal_id
     FROM (SELECT merchant_id, count(*)::int AS n FROM invoices GROUP BY 1 ORDER BY 2 DESC LIMIT 1) m`,
  );
  await c.end();
  const r = rows[0] as { merchant_id: string; n: number; id: string; terminal_id: string };
  return { merchantId: r.merchant_id, invoiceId: r.id, terminalId: r.terminal_id, total: r.n };
}

function rssKb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

async function main() {
  const url = withDb(BASE, DB_NAME);
  log(`Preparing ${DB_NAME} with ${ROWS.toLocaleString('en')} invoices…`);
  const t0 = process.hrtime.bigint();
  const fx = process.env.BENCH_REUSE ? await reuse(url) : await prepare(url);
  log(`Prepared in ${(ms(t0) / 1000).toFixed(1)} s; merchant has ${fx.total.toLocaleString('en')} invoices`);

  // node with the tsx loader directly (not npx): one process to measure and to stop
  const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      DATABASE_URL: url,
      PORT: String(PORT),
      WORKERS: 'false',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      DATA_ENCRYPTION_KEY_FILE: benchKeyFile(),
      NODE_ENV: 'production',
      PUBLIC_URL: `http://127.0.0.1:${PORT}`,
      COOKIE_SECURE: 'false',
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-1234',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${PORT}`;
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/api/health`)).ok) break;
      } catch {
        /* not yet */
      }
      if (i > 300) throw new Error('server did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    const cookie = await signInCookie(base, 'owner');
    const get = (p: string) => fetch(`${base}${p}`, { headers: { cookie } });

    // a position deep in the list (90 % of the way), as the list would hand it out: for the keyset scenarios
    const deep = await (async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      const r = await c.query<{ created_at: string; id: string }>(
        `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at, id
         FROM invoices WHERE merchant_id = $1 ORDER BY created_at DESC, id OFFSET $2 LIMIT 1`,
        [fx.merchantId, Math.floor(fx.total * 0.9)],
      );
      await c.end();
      return encodeInvoiceCursor({ createdAt: r.rows[0]!.created_at, id: r.rows[0]!.id });
    })();
    // and one deep among the ~11,111 matches of the prefix "bench-42", past the 10,000th
    const deepSearch = await (async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      const r = await c.query<{ created_at: string; id: string }>(
        `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at, id
         FROM invoices WHERE merchant_id = $1 AND lower(merchant_invoice_id) LIKE 'bench-42%'
         ORDER BY created_at DESC, id OFFSET 10500 LIMIT 1`,
        [fx.merchantId],
      );
      await c.end();
      return encodeInvoiceCursor({ createdAt: r.rows[0]!.created_at, id: r.rows[0]!.id });
    })();
    const lastPage = INVOICE_TOTAL_CAP / 40 - 1;

    const day = (d: Date) =>
      `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;
    const mid = new Date(Date.now() - 180 * 86_400_000);
    const week = new Date(mid.getTime() + 6 * 86_400_000);
    const scenarios: [string, string][] = [
      ['no filter', '/api/v1/invoice?page=0&size=10'],
      ['status filter (DONE)', '/api/v1/invoice?page=0&size=10&statusIds=4'],
      ['status filter (NEW, PAYED)', '/api/v1/invoice?page=0&size=10&statusIds=1&statusIds=3'],
      [
        'date range (7 days)',
        `/api/v1/invoice?page=0&size=10&dateFrom=${encodeURIComponent(day(mid))}&dateTo=${encodeURIComponent(day(week))}`,
      ],
      ['search by invoice id', `/api/v1/invoice?page=0&size=10&search=${fx.invoiceId}`],
      ['search by merchant invoice id', '/api/v1/invoice?page=0&size=10&search=bench-424242'],
      ['search by customer id', '/api/v1/invoice?page=0&size=10&search=bench-cust-4242'],
      // prefixes, case-insensitive (migration 0008): narrow, wide, and one that matches every row
      ['prefix: invoice id (8 chars)', `/api/v1/invoice?page=0&size=10&search=${fx.invoiceId.slice(0, 8)}`],
      [
        'prefix: invoice id (4 chars)',
        `/api/v1/invoice?page=0&size=10&search=${fx.invoiceId.slice(0, 4).toUpperCase()}`,
      ],
      ['prefix: merchant invoice id (~111 rows)', '/api/v1/invoice?page=0&size=10&search=BENCH-4242'],
      ['prefix: merchant invoice id (~11,111 rows)', '/api/v1/invoice?page=0&size=10&search=bench-42'],
      ['prefix "bench-42", page 200 of 40', '/api/v1/invoice?page=200&size=40&search=bench-42'],
      ['prefix "bench-42", cursor past its 10,500th', `/api/v1/invoice?size=40&search=bench-42&after=${deepSearch}`],
      ['prefix: every row ("bench-")', '/api/v1/invoice?page=0&size=10&search=bench-'],
      ['prefix: customer external id (~11 customers)', '/api/v1/invoice?page=0&size=10&search=Bench-Cust-4242'],
      ['prefix: customer (1,000+ customers: the first 200)', '/api/v1/invoice?page=0&size=10&search=bench-cust-4'],
      ['terminal filter', `/api/v1/invoice?page=0&size=10&terminalId=${fx.terminalId}`],
      ['last status date', `/api/v1/invoice?page=0&size=10&lastStatusDate=${encodeURIComponent(day(mid))}`],
      ['sum range (narrow)', '/api/v1/invoice?page=0&size=10&sumFrom=100000&sumTo=101000'],
      [
        'combined (terminal+status+dates+flow)',
        `/api/v1/invoice?page=0&size=10&terminalId=${fx.terminalId}&statusIds=4&statusIds=5&dateFrom=${encodeURIComponent(day(mid))}&dateTo=${encodeURIComponent(day(week))}`,
      ],
      ['page 100 of 40', '/api/v1/invoice?page=100&size=40'],
      [`page ${lastPage} of 40 (the deepest page number)`, `/api/v1/invoice?page=${lastPage}&size=40`],
      // keyset cursors (invoices/queries.ts): the same cost at any depth
      ['cursor: next page at row ~90 % (after=)', `/api/v1/invoice?size=40&after=${deep}`],
      ['cursor: previous page at row ~90 % (before=)', `/api/v1/invoice?size=40&before=${deep}`],
      ['cursor: next page at ~90 %, status filter', `/api/v1/invoice?size=40&statusIds=4&after=${deep}`],
      ['count exactly (every row)', '/api/v1/invoice/count'],
      ['count exactly (status DONE)', '/api/v1/invoice/count?statusIds=4'],
    ];
    const results: { name: string; p50: number; p95: number; total: string }[] = [];
    for (const [name, p] of scenarios) {
      let total = '';
      for (let i = 0; i < 20; i++) {
        const r = await get(p);
        if (!r.ok) throw new Error(`${name}: ${r.status} ${await r.text()}`);
        const body = (await r.json()) as { total?: number; totalIsCapped?: boolean; data: { total?: number } };
        const n = body.total ?? body.data.total ?? 0;
        total = `${n.toLocaleString('en')}${body.totalIsCapped ? '+' : ''}`;
      }
      const times: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        const s = process.hrtime.bigint();
        const r = await get(p);
        await r.arrayBuffer();
        times.push(ms(s));
      }
      results.push({ name, p50: pct(times, 50), p95: pct(times, 95), total });
      log(
        `  ${name.padEnd(40)} p50 ${pct(times, 50).toFixed(1).padStart(6)} ms   p95 ${pct(times, 95).toFixed(1).padStart(6)} ms   total ${total}`,
      );
    }

    // CSV export of every row
    const pid = server.pid!;
    const rss0 = rssKb(pid);
    let peak = rss0;
    const sampler = setInterval(() => (peak = Math.max(peak, rssKb(pid))), 50);
    const s = process.hrtime.bigint();
    const res = await get('/api/v1/invoice/csv');
    if (!res.ok) throw new Error(`csv: ${res.status}`);
    const reader = res.body!.getReader();
    let ttfb = 0;
    let bytes = 0;
    let lines = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!ttfb) ttfb = ms(s);
      bytes += value.byteLength;
      for (let i = 0; i < value.length; i++) if (value[i] === 10) lines++;
    }
    const total = ms(s);
    clearInterval(sampler);
    peak = Math.max(peak, rssKb(pid));
    const rows = lines - 1;
    const csv = {
      rows,
      ttfbMs: ttfb,
      seconds: total / 1000,
      rowsPerSec: rows / (total / 1000),
      mb: bytes / 1024 / 1024,
      rssStartMb: rss0 / 1024,
      rssGrowthMb: (peak - rss0) / 1024,
    };
    log(
      `  CSV: ${rows.toLocaleString('en')} rows, ${csv.mb.toFixed(0)} MB in ${csv.seconds.toFixed(2)} s; TTFB ${ttfb.toFixed(0)} ms; ` +
        `${Math.round(csv.rowsPerSec).toLocaleString('en')} rows/s; server RSS ${csv.rssStartMb.toFixed(0)} MB, peak growth ${csv.rssGrowthMb.toFixed(1)} MB`,
    );
    if (rows !== fx.total) throw new Error(`CSV has ${rows} rows, the merchant ${fx.total}`);
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'result.json'), JSON.stringify({ rows: ROWS, results, csv }, null, 2));
    log(`Results written to ${path.relative(repoRoot, path.join(dataDir, 'result.json'))}`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
}

await main();
