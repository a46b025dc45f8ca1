/**
 * What a longer history costs (docs/benchmarks.md, "History at 10 million"): two PostgreSQL databases with the same
 * last year of one merchant, 1,000,000 invoices, one of them with nine more years before it (10,000,000 invoices in
 * all), each DONE invoice with its ledger postings and balance transfers between provider accounts up to two entries
 * an invoice (2,000,000 and 20,000,000 entries). Target: the finance tiles, a one-day report and the ledger
 * reconciliation answer the larger one within 1.3× of the smaller, measured in the same sitting.
 *
 *   npm run bench:scale      (BENCH_SMALL=1000000, BENCH_LARGE=10000000, BENCH_REUSE=1: measure the databases an
 *                             earlier run left again)
 *
 * Each database is served by its own server (production mode, compiled, no workers); its ended ledger months are
 * closed first, as the server's history-partitions worker does (ledger/closed-months.ts). Then each scenario is timed
 * on both servers in turn, 21 times after 5 warm-ups each: the medians, their spread, and large ÷ small.
 */
import path from 'node:path';
import { createDb } from '../src/db/create-db';
import { closeLedgerMonths } from '../src/modules/ledger/closed-months';
import {
  benchBaseUrl,
  createBenchDatabase,
  loadInvoiceHistory,
  loadInvoiceLedger,
  loadAverage as load,
  loadInvoices,
  signInCookie,
  sqlOn,
  startServer,
  withDb,
} from './lib';

const SMALL = Number(process.env.BENCH_SMALL ?? 1_000_000);
const LARGE = Number(process.env.BENCH_LARGE ?? 10_000_000);
const REPS = 21;
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const dataDir = path.join(repoRoot, '.tmp/bench-scale');
const log = (line: string) => console.log(line);

/** One database: the last year (SMALL invoices), and for the large one `before` more over the nine years before it. */
async function prepare(name: string, before: number) {
  const { url, dbh } = await createBenchDatabase(name);
  log(`Preparing ${name}: ${(SMALL + before).toLocaleString('en')} invoices`);
  // every loaded invoice ended, as a year's are but for the last hour's (the demo's own are the open ones)
  const m = await loadInvoiceHistory(dbh, { rows: SMALL, dataDir, log, settled: true });
  if (before)
    await loadInvoices(dbh, m, { rows: before, days: 9 * 365, endDaysAgo: 365, first: SMALL + 1, settled: true, log });
  await loadInvoiceLedger(dbh, m, log);
  // balance transfers between two provider accounts (two legs each, outside the merchant's books) up to two entries
  // an invoice, spread over the same years
  const { rows } = await dbh.pool.query<{ entries: string; invoices: string }>(
    `SELECT (SELECT count(*) FROM ledger_entries)::text AS entries, (SELECT count(*) FROM invoices)::text AS invoices`,
  );
  const pairs = Math.max(0, Math.floor((2 * Number(rows[0]!.invoices) - Number(rows[0]!.entries)) / 2));
  const t0 = performance.now();
  for (let done = 0; done < pairs; done += 1_000_000) {
    const n = Math.min(1_000_000, pairs - done);
    await dbh.pool.query(
      `WITH a AS (SELECT x.id AS a, y.id AS b, pm.currency_id AS cur FROM provider_accounts x
                  JOIN provider_accounts y ON y.payment_method_id = x.payment_method_id AND y.id > x.id
                  JOIN payment_methods pm ON pm.id = x.payment_method_id ORDER BY x.id, y.id LIMIT 1)
       INSERT INTO ledger_entries (tx_id, account, provider_account_id, currency_id, amount, kind, created_at)
       SELECT tx, 'provider_account', CASE WHEN leg > 0 THEN a.b ELSE a.a END, a.cur, leg * (1000 + g % 9000), 'transfer', at
       FROM a, generate_series($1::int, $2::int) g,
         LATERAL (SELECT gen_random_uuid() AS tx,
                         now() - interval '1 hour' - (g::float8 / $3::float8) * $4::int * interval '1 day' AS at) t,
         (VALUES (1), (-1)) l(leg)`,
      [done + 1, done + n, pairs, before ? 10 * 365 : 365],
    );
  }
  // the transfers' balances: each account's sum (the reconciliation compares them with the entries)
  await dbh.pool.query(
    `INSERT INTO ledger_balances (key, book, account, merchant_id, provider_account_id, currency_id, balance)
     SELECT 'live:provider_account:' || e.provider_account_id || ':' || e.currency_id, 'live', 'provider_account', NULL,
            e.provider_account_id, e.currency_id, SUM(e.amount)
     FROM ledger_entries e WHERE e.kind = 'transfer' GROUP BY e.provider_account_id, e.currency_id
     ON CONFLICT (key) DO UPDATE SET balance = ledger_balances.balance + excluded.balance`,
  );
  await dbh.pool.query('VACUUM ANALYZE ledger_entries');
  log(`  ${pairs.toLocaleString('en')} transfers ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  await dbh.close();
  return url;
}

async function main() {
  const base = benchBaseUrl();
  const names = { small: 'paydesk_bench_scale_small', large: 'paydesk_bench_scale_large' };
  log(`Load average at start: ${load()}`);
  const urls = process.env.BENCH_REUSE
    ? { small: withDb(base, names.small), large: withDb(base, names.large) }
    : { small: await prepare(names.small, 0), large: await prepare(names.large, LARGE - SMALL) };

  const sides = [] as {
    name: 'small' | 'large';
    base: string;
    owner: string;
    admin: string;
    stop: () => Promise<void>;
    counts: string;
  }[];
  for (const name of ['small', 'large'] as const) {
    const url = urls[name];
    const dbh = await createDb({ databaseUrl: url, poolMax: 2 });
    const closed = await closeLedgerMonths(dbh.db, new Date());
    if (closed.drift) throw new Error(`${name}: ${closed.drift}`);
    await dbh.close();
    const { rows } = await sqlOn(
      url,
      `SELECT (SELECT count(*) FROM invoices) AS invoices, (SELECT count(*) FROM ledger_entries) AS entries,
              (SELECT count(*) FROM history_partitions WHERE parent = 'ledger_entries' AND closed_at IS NOT NULL) AS closed`,
    );
    const counts =
      `${Number(rows[0].invoices).toLocaleString('en')} invoices, ${Number(rows[0].entries).toLocaleString('en')} ` +
      `ledger entries, ${rows[0].closed} ledger months closed`;
    log(`${name}: ${counts}`);
    const server = await startServer(
      url,
      { WORKERS: 'false', DATA_DIR: dataDir, REQUIRE_2FA_PLATFORM: 'false', COOKIE_SECURE: 'false' },
      { compiled: true },
    );
    sides.push({
      name,
      base: server.target,
      owner: await signInCookie(server.target, 'owner'),
      admin: await signInCookie(server.target, 'admin'),
      stop: server.stop,
      counts,
    });
  }

  const day = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
  const scenarios = [
    { name: 'finance tile: balance', path: '/api/v1/merchant/balance?book=live', who: 'owner' },
    { name: 'finance tile: deposits', path: '/api/v1/merchant/deposit?book=live', who: 'owner' },
    { name: 'finance tile: withdrawals', path: '/api/v1/merchant/withdrawal?book=live', who: 'owner' },
    {
      name: 'one-day invoice report',
      path: `/api/v1/report/invoice?periodStart=${day}&periodEnd=${day}`,
      who: 'owner',
    },
    { name: 'ledger reconciliation', path: '/api/v1/ledger/reconciliation', who: 'admin' },
  ] as const;
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const once = async (side: (typeof sides)[number], s: (typeof scenarios)[number]) => {
    const t0 = performance.now();
    const res = await fetch(`${side.base}${s.path}`, { headers: { cookie: side[s.who] } });
    const body = await res.text();
    if (!res.ok) throw new Error(`${side.name} ${s.name}: ${res.status} ${body}`);
    if (s.name === 'ledger reconciliation' && !/"drift":\[\],"unbalanced":\[\]/.test(body)) {
      throw new Error(`${side.name}: the books do not reconcile: ${body.slice(0, 300)}`);
    }
    return { ms: performance.now() - t0, bytes: body.length };
  };
  log(`\n| scenario | ${sides.map((s) => s.name).join(' | ')} | large ÷ small |`);
  log('| --- | --- | --- | --- |');
  for (const s of scenarios) {
    for (const side of sides) for (let i = 0; i < 5; i++) await once(side, s);
    const t: Record<string, number[]> = { small: [], large: [] };
    let bytes: Record<string, number> = {};
    for (let i = 0; i < REPS; i++) {
      for (const side of sides) {
        const r = await once(side, s);
        t[side.name]!.push(r.ms);
        bytes = { ...bytes, [side.name]: r.bytes };
      }
    }
    const cell = (n: string) =>
      `${median(t[n]!).toFixed(1)} ms (${Math.min(...t[n]!).toFixed(1)}–${Math.max(...t[n]!).toFixed(1)}; ${bytes[n]} B)`;
    log(`| ${s.name} | ${cell('small')} | ${cell('large')} | ${(median(t.large!) / median(t.small!)).toFixed(2)} |`);
  }
  log(`\n${sides.map((s) => `${s.name}: ${s.counts}`).join('\n')}\nLoad average at end: ${load()}`);
  for (const side of sides) await side.stop();
}

await main();
