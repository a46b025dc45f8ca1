/**
 * Provider statements benchmark: a 1,000,000-line statement uploaded and reconciled against books of the same size, on
 * PostgreSQL, against PostgreSQL's own COPY loading the same file into a plain table in the same run (the anchor), and
 * the server process's memory growth (RSS) during the upload. Target: at least half of COPY's rate, under 100 MB.
 *
 *   npm run bench:statements          (BENCH_LINES=1000000 BENCH_COPY_RUNS=3 BENCH_UPLOADS=2)
 *
 * The books: the demo data, then for one provider 900,000 incoming payments and 99,000 DONE payouts over a day. The
 * file: 899,000 IN lines of those payments (one in 200 with another amount: MISMATCH), 99,000 OUT lines of the payouts
 * (their transaction ids), 100 IN lines the books never saw (reported as unmatched money: suspense) and 1,900 OUT
 * lines nobody knows (flagged); 1,000 payments of the day are on no line (BOOKS_ONLY). Each further upload sends the
 * same lines in reverse order (other bytes: not a duplicate), reconciled against the same books.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';
import { loadConfig } from '../src/config';
import { seedDemoIfEmpty } from '../src/db/seed';
import { createContext } from '../src/lib/context';
import { DEV_MASTER_KEY_FILE } from '../src/lib/data-crypto';
import { createBenchDatabase, dropBenchDatabase, signInCookie, startServer } from './lib';

const LINES = Number(process.env.BENCH_LINES ?? 1_000_000);
const COPY_RUNS = Number(process.env.BENCH_COPY_RUNS ?? 3);
const UPLOADS = Number(process.env.BENCH_UPLOADS ?? 2);
const DB_NAME = 'paydesk_bench_statements';
const DATA_DIR = path.resolve('.tmp/bench-statements');
const log = (...a: unknown[]) => console.log(...a);

// the shape of the file, scaled to LINES
const OUT_MATCHED = Math.round(LINES * 0.099);
const IN_UNKNOWN = Math.min(100, Math.round(LINES * 0.0001));
const OUT_UNKNOWN = Math.round(LINES * 0.0019);
const IN_MATCHED = LINES - OUT_MATCHED - IN_UNKNOWN - OUT_UNKNOWN;
const BOOKS_ONLY = Math.round(LINES * 0.001);

type Prepared = { url: string; providerId: number; day: Date };

async function prepare(): Promise<Prepared> {
  const { url, dbh } = await createBenchDatabase(DB_NAME);
  const config = loadConfig({ NODE_ENV: 'development' }, { workers: false, dataDir: DATA_DIR });
  const demo = await seedDemoIfEmpty(await createContext(dbh, config), { writeFile: false });
  if (!demo) throw new Error('demo seed did not run');
  const q = (text: string, params: unknown[] = []) => dbh.pool.query(text, params);
  const t0 = Date.now();
  // the live provider with the most accounts
  const [p] = (
    await q(`SELECT p.id FROM providers p JOIN provider_accounts a ON a.provider_id = p.id WHERE NOT p.is_sandbox
      GROUP BY p.id ORDER BY count(*) DESC, p.id LIMIT 1`)
  ).rows as { id: number }[];
  const providerId = Number(p!.id);
  const day = new Date(Date.UTC(2025, 0, 10));
  const secondsPer = (n: number) => 86_000 / Math.max(n, 1);
  // the provider's incoming payments over the day: the statement's IN lines, and BOOKS_ONLY more
  await q(
    `WITH a AS (SELECT array_agg(a.id ORDER BY a.id) ids, array_agg(pm.currency_id ORDER BY a.id) cur, count(*)::int n
                FROM provider_accounts a JOIN payment_methods pm ON pm.id = a.payment_method_id WHERE a.provider_id = $1)
     INSERT INTO incoming_payments (provider_id, account_id, amount, occurred_at, reference, currency_id, book, status,
       in_suspense, created_at)
     SELECT $1, a.ids[1 + g % a.n], 10000 + (g::bigint * 7919) % 5000000, $2::timestamptz + g * ($3::float8 * interval '1 second'),
       'BS-IN-' || g, a.cur[1 + g % a.n], 'live', 'MATCHED', false, $2::timestamptz
     FROM generate_series(1, $4::int) g, a`,
    [providerId, day.toISOString(), secondsPer(IN_MATCHED + BOOKS_ONLY), IN_MATCHED + BOOKS_ONLY],
  );
  // DONE payouts of withdrawals on the provider's accounts
  await q(
    `WITH t AS (SELECT id, currency_id FROM terminals WHERE merchant_id = $2 AND flow_type = 'WITHDRAWAL' AND NOT is_test
                ORDER BY name LIMIT 1),
          a AS (SELECT array_agg(id ORDER BY id) ids, count(*)::int n FROM provider_accounts WHERE provider_id = $1)
     INSERT INTO invoices (merchant_id, terminal_id, merchant_invoice_id, form_id, flow_type, status, amount, fee,
                           currency_id, account_id, expires_at, status_date, created_at)
     SELECT $2, t.id, 'bs-w-' || g, 'bs-w-form-' || g, 'WITHDRAWAL', 'DONE', 20000 + (g::bigint * 104729) % 3000000, 0,
       t.currency_id, a.ids[1 + g % a.n], $3::timestamptz + interval '2 days', x.ts, x.ts
     FROM generate_series(1, $4::int) g, t, a,
       LATERAL (SELECT $3::timestamptz + g * ($5::float8 * interval '1 second') AS ts) x`,
    [providerId, demo.merchantId, day.toISOString(), OUT_MATCHED, secondsPer(OUT_MATCHED)],
  );
  await q(`INSERT INTO provider_transactions (invoice_id, account_id, type, status, attempt, create_date, status_date)
    SELECT id, account_id, 'PAYOUT', 'DONE', 1, created_at, status_date FROM invoices WHERE merchant_invoice_id LIKE 'bs-w-%'`);
  await q('VACUUM ANALYZE');
  log(
    `  books: ${(IN_MATCHED + BOOKS_ONLY).toLocaleString('en')} incoming payments, ${OUT_MATCHED.toLocaleString('en')} ` +
      `DONE payouts for provider ${providerId} (${((Date.now() - t0) / 1000).toFixed(1)} s)`,
  );
  await dbh.close();
  return { url, providerId, day };
}

/** The statement file, written by PostgreSQL from the books (COPY … TO STDOUT), ordered by time or backwards. */
async function writeStatement(url: string, providerId: number, file: string, reverse: boolean) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const select = `
      SELECT occurred_at, account_id, amount, direction, reference FROM (
        SELECT to_char(ip.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS occurred_at, ip.occurred_at AS t,
          ip.account_id, ip.amount + CASE WHEN substr(ip.reference, 7)::int % 200 = 0 THEN 1 ELSE 0 END AS amount,
          'IN' AS direction, ip.reference
        FROM incoming_payments ip WHERE ip.provider_id = ${providerId} AND ip.reference LIKE 'BS-IN-%'
          AND substr(ip.reference, 7)::int <= ${IN_MATCHED}
        UNION ALL
        SELECT to_char(pt.status_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), pt.status_date, pt.account_id,
          i.amount, 'OUT', pt.id::text
        FROM provider_transactions pt JOIN invoices i ON i.id = pt.invoice_id WHERE i.merchant_invoice_id LIKE 'bs-w-%'
        UNION ALL
        SELECT to_char(x.t AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), x.t, x.account_id, 50000 + g,
          CASE WHEN g <= ${IN_UNKNOWN} THEN 'IN' ELSE 'OUT' END, 'BS-NEW-' || g
        FROM generate_series(1, ${IN_UNKNOWN + OUT_UNKNOWN}) g,
          LATERAL (SELECT (SELECT id FROM provider_accounts WHERE provider_id = ${providerId} ORDER BY id LIMIT 1) AS account_id,
                   '2025-01-10T00:00:00Z'::timestamptz + g * interval '20 seconds' AS t) x
      ) l ORDER BY t ${reverse ? 'DESC' : 'ASC'}, reference`;
    const out = fs.createWriteStream(file);
    out.write('occurredAt,accountId,amount,direction,reference\n');
    await pipeline(c.query(copyTo(`COPY (${select}) TO STDOUT WITH (FORMAT csv)`)), out);
  } finally {
    await c.end();
  }
}

/** The anchor: COPY of the same file into a plain table, from this process over the same socket. */
async function copyAnchor(url: string, file: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`DROP TABLE IF EXISTS bench_copy_anchor;
      CREATE TABLE bench_copy_anchor (occurred_at timestamptz, account_id int, amount bigint, direction text, reference text)`);
    const t0 = performance.now();
    await pipeline(
      fs.createReadStream(file),
      c.query(copyFrom('COPY bench_copy_anchor FROM STDIN WITH (FORMAT csv, HEADER true)')),
    );
    return performance.now() - t0;
  } finally {
    await c.query('DROP TABLE IF EXISTS bench_copy_anchor');
    await c.end();
  }
}

const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

async function main() {
  const prepared = await prepare();
  const dir = fs.mkdtempSync(path.join(DATA_DIR, 'files-'));
  const files = Array.from({ length: Math.max(UPLOADS, 1) }, (_, i) => path.join(dir, `statement-${i}.csv`));
  for (const [i, f] of files.entries()) await writeStatement(prepared.url, prepared.providerId, f, i % 2 === 1);
  const size = fs.statSync(files[0]!).size;
  log(`  file: ${LINES.toLocaleString('en')} lines, ${(size / 1e6).toFixed(1)} MB`);

  const copies: number[] = [];
  for (let i = 0; i < COPY_RUNS; i++) copies.push(await copyAnchor(prepared.url, files[0]!));
  const copyMs = [...copies].sort((a, b) => a - b)[Math.floor(copies.length / 2)]!;

  const server = await startServer(prepared.url, {
    WORKERS: 'false',
    REQUIRE_2FA_PLATFORM: 'false',
    DATA_ENCRYPTION_KEY_FILE: path.join(DATA_DIR, DEV_MASTER_KEY_FILE),
  });
  const rows: string[] = [];
  try {
    const cookie = await signInCookie(server.target, 'ops');
    for (const [i, file] of files.entries()) {
      if (i >= UPLOADS) break;
      const form = new FormData();
      form.append('providerId', String(prepared.providerId));
      form.append('periodFrom', prepared.day.toISOString());
      form.append('periodTo', new Date(prepared.day.getTime() + 86_400_000).toISOString());
      form.append('file', await fs.openAsBlob(file, { type: 'text/csv' }), path.basename(file));
      const base = rssMb(server.pid);
      let peak = base;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssMb(server.pid));
      }, 20);
      const t0 = performance.now();
      const res = await fetch(`${server.target}/api/v1/statements`, {
        method: 'POST',
        headers: { cookie, origin: server.target },
        body: form,
      });
      const body = await res.text();
      const ms = performance.now() - t0;
      clearInterval(sampler);
      peak = Math.max(peak, rssMb(server.pid));
      if (res.status !== 201) throw new Error(`upload: ${res.status} ${body.slice(0, 500)}`);
      const { counts } = (JSON.parse(body) as { data: { statement: { counts: Record<string, number> } } }).data
        .statement;
      rows.push(
        `| upload ${i + 1}${i % 2 ? ' (reversed)' : ''} | ${(ms / 1000).toFixed(2)} | ${Math.round(LINES / (ms / 1000)).toLocaleString('en')} | ` +
          `${(copyMs / ms).toFixed(2)} | ${(peak - base).toFixed(0)} (${base.toFixed(0)} → ${peak.toFixed(0)}) | ` +
          `${counts.MATCHED}/${counts.MISMATCH}/${counts.STATEMENT_ONLY}/${counts.BOOKS_ONLY} |`,
      );
    }
  } finally {
    await server.stop();
    // BENCH_KEEP: the database and the files stay, to look into
    if (process.env.BENCH_KEEP) log(`  kept: database ${DB_NAME}, files in ${dir}`);
    else {
      fs.rmSync(dir, { recursive: true, force: true });
      await dropBenchDatabase(DB_NAME);
    }
  }
  log(
    `\n| run | seconds | lines/s | rate ÷ COPY's | server RSS growth, MB (before → peak) | matched/mismatch/statement only/books only |`,
  );
  log('| --- | --- | --- | --- | --- | --- |');
  for (const [i, ms] of copies.entries()) {
    log(
      `| COPY into a plain table ${i + 1} | ${(ms / 1000).toFixed(2)} | ${Math.round(LINES / (ms / 1000)).toLocaleString('en')} | 1 | — | — |`,
    );
  }
  for (const r of rows) log(r);
}

await main();
