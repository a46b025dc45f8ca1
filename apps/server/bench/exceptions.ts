/**
 * Operations desk benchmark: the queues' counts and first pages with 1,000,000 invoices and 100,000 incoming payments
 * in PostgreSQL, against the 50 ms budget (p95), measured over HTTP on the server in a child process.
 *
 *   npm run bench:exceptions          (BENCH_ROWS=1000000 BENCH_INCOMING=100000 BENCH_SAMPLES=200)
 *
 * The history is what a shift meets: most deposits DONE, some waiting past "Have paid", payouts pending with the
 * provider, failed callbacks, a tenth of the incoming money unmatched, open contradictions.
 */
import { loadConfig } from '../src/config';
import { seedDemoIfEmpty } from '../src/db/seed';
import { createContext } from '../src/lib/context';
import { benchKeyFile, createBenchDatabase, dropBenchDatabase, signInCookie, startServer } from './lib';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const INCOMING = Number(process.env.BENCH_INCOMING ?? 100_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const DB_NAME = 'paydesk_bench_exceptions';
const BUDGET_MS = 50;
const log = (...a: unknown[]) => console.log(...a);
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

async function prepare() {
  const { url, dbh } = await createBenchDatabase(DB_NAME);
  const config = loadConfig(
    { NODE_ENV: 'development' },
    { workers: false, dataDir: '.tmp/bench-exceptions', dataEncryptionKeyFile: benchKeyFile() },
  );
  const demo = await seedDemoIfEmpty(await createContext(dbh, config), { writeFile: false });
  if (!demo) throw new Error('demo seed did not run');
  const q = (text: string, params: unknown[] = []) => dbh.pool.query(text, params);
  const t0 = Date.now();
  // invoices over the last 30 days on the demo's live terminals and accounts; 1 in 500 waits past "Have paid"
  await q(
    `WITH t AS (SELECT array_agg(id ORDER BY name) ids, array_agg(flow_type ORDER BY name) flows,
                       array_agg(currency_id ORDER BY name) cur, count(*)::int n
                FROM terminals WHERE merchant_id = $1 AND NOT is_test),
          a AS (SELECT array_agg(account_id ORDER BY account_id) ids, count(*)::int n FROM account_limits)
     INSERT INTO invoices (merchant_id, terminal_id, merchant_invoice_id, form_id, flow_type, status, amount, fee,
                           currency_id, account_id, expires_at, status_date, created_at)
     SELECT $1, t.ids[x.k], 'bq-' || g, 'bq-form-' || g, t.flows[x.k],
            CASE WHEN g % 500 = 0 AND t.flows[x.k] = 'DEPOSIT' THEN 'PAYED'
                 ELSE (ARRAY['DONE','DONE','DONE','CANCELED','DECLINED'])[1 + g % 5] END,
            10000 + (g::bigint * 7919) % 5000000, 0, t.cur[x.k], a.ids[1 + g % a.n],
            x.ts + interval '30 minutes', x.ts + interval '7 minutes', x.ts
     FROM generate_series(1, $2::int) g, t, a,
          LATERAL (SELECT 1 + (g % t.n) AS k, now() - interval '30 days' + g * ($3::float8 * interval '1 second') AS ts) x`,
    [demo.merchantId, ROWS, (30 * 86400) / ROWS],
  );
  // payouts pending with the provider, one per 1,000 withdrawals
  await q(`INSERT INTO provider_transactions (invoice_id, account_id, type, status, attempt, create_date, status_date)
    SELECT id, account_id, 'PAYOUT', 'PENDING', 1, created_at, created_at FROM invoices
    WHERE merchant_invoice_id LIKE 'bq-%' AND flow_type = 'WITHDRAWAL' AND hashtext(id::text) % 1000 = 0`);
  // a failed callback on one invoice in 200
  await q(`INSERT INTO callbacks (invoice_id, merchant_id, url, payload, invoice_status, status, attempts, create_date,
      next_attempt_at, execution_date)
    SELECT id, merchant_id, 'https://shop.example.com/hook', '{"type":"invoice.status"}'::jsonb, status, 'FAILED', 20,
      created_at, created_at, created_at FROM invoices
    WHERE merchant_invoice_id LIKE 'bq-%' AND hashtext(id::text) % 200 = 0`);
  // incoming money: nine in ten matched, one in ten waiting in suspense
  await q(
    `INSERT INTO incoming_payments (provider_id, account_id, amount, occurred_at, reference, currency_id, book, status,
       in_suspense, created_at)
     SELECT a.provider_id, a.id, 10000 + g, now() - g * interval '20 seconds', 'BQ-' || g, m.currency_id, 'live',
       CASE WHEN g % 10 = 0 THEN 'UNMATCHED' ELSE 'MATCHED' END, g % 10 = 0, now() - g * interval '20 seconds'
     FROM generate_series(1, $1::int) g
     JOIN LATERAL (SELECT id, provider_id, payment_method_id FROM provider_accounts ORDER BY id
                   OFFSET g % (SELECT count(*) FROM provider_accounts) LIMIT 1) a ON true
     JOIN payment_methods m ON m.id = a.payment_method_id`,
    [INCOMING],
  );
  await q('VACUUM ANALYZE');
  log(
    `  loaded ${ROWS.toLocaleString('en')} invoices, ${INCOMING.toLocaleString('en')} incoming in ${(Date.now() - t0) / 1000} s`,
  );
  await dbh.close();
  return url;
}

async function main() {
  const url = await prepare();
  const server = await startServer(url, { WORKERS: 'false', REQUIRE_2FA_PLATFORM: 'false' });
  try {
    const cookie = await signInCookie(server.target, 'ops');
    const scenarios: [string, string][] = [
      ['queue counts (summary)', '/api/v1/exceptions/summary'],
      ['unmatched money, first page', '/api/v1/incoming?status=UNMATCHED&limit=50'],
      ['all incoming, first page', '/api/v1/incoming?limit=50'],
      ['waiting past "Have paid", first page', '/api/v1/exceptions/stuck?kind=PAYED&limit=50'],
      ['payouts with provider, first page', '/api/v1/exceptions/stuck?kind=PAYOUT&limit=50'],
      ['failed callbacks, first page', '/api/v1/exceptions/stuck?kind=CALLBACK&limit=50'],
      ['contradictions, first page', '/api/v1/contradictions?status=OPEN&limit=50'],
      ["every account's health (accounts list, paused queue)", '/api/v1/people/account/health'],
    ];
    log(`\n| scenario | p50 ms | p95 ms | p95 / budget (${BUDGET_MS} ms) |\n| --- | --- | --- | --- |`);
    for (const [name, path] of scenarios) {
      const times: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        const t0 = performance.now();
        const res = await fetch(`${server.target}${path}`, { headers: { cookie } });
        if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
        times.push(performance.now() - t0);
      }
      const p95 = pct(times, 95);
      log(`| ${name} | ${pct(times, 50).toFixed(1)} | ${p95.toFixed(1)} | ${(p95 / BUDGET_MS).toFixed(2)} |`);
    }
  } finally {
    await server.stop();
    if (!process.env.BENCH_KEEP) await dropBenchDatabase(DB_NAME);
  }
}

await main();
