/**
 * Approval queue benchmark: pages of `GET /api/v1/approvals` with 100,000 requests in PostgreSQL, against the 50 ms
 * budget (p95), measured over HTTP on the server in a child process.
 *
 *   npm run bench:approvals          (BENCH_REQUESTS=100000 BENCH_SAMPLES=200)
 *
 * A year of a busy desk: requests over 365 days, most decided (approved, rejected or expired), the last day's still
 * pending, made by ops and decided by admin, on every covered action.
 */
import { loadConfig } from '../src/config';
import { seedDemoIfEmpty } from '../src/db/seed';
import { createContext } from '../src/lib/context';
import { benchKeyFile, createBenchDatabase, dropBenchDatabase, startServer } from './lib';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 100_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const DB_NAME = 'paydesk_bench_approvals';
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
    { workers: false, dataDir: '.tmp/bench-approvals', dataEncryptionKeyFile: benchKeyFile() },
  );
  const demo = await seedDemoIfEmpty(await createContext(dbh, config), { writeFile: false });
  if (!demo) throw new Error('demo seed did not run');
  const t0 = Date.now();
  await dbh.pool.query(
    `WITH u AS (SELECT (SELECT id FROM users WHERE username = 'ops') ops, (SELECT id FROM users WHERE username = 'admin') adm)
     INSERT INTO approval_requests (action, merchant_id, target_type, target_id, summary, payload, before, after, reason,
       amount, currency, status, maker_id, created_at, expires_at, decided_at, decided_by)
     SELECT a.action, $1, 'invoice', gen_random_uuid()::text, 'Set invoice ORD-' || g || ' DONE (was CANCELED)',
       '{}'::jsonb, '{"status":"CANCELED"}'::jsonb, '{"status":"DONE"}'::jsonb, 'bench', 100000 + g, 'UZS',
       CASE WHEN x.at > now() - interval '1 day' THEN 'PENDING'
            ELSE (ARRAY['APPROVED','APPROVED','REJECTED','EXPIRED'])[1 + g % 4] END,
       u.ops, x.at, x.at + interval '24 hours',
       CASE WHEN x.at > now() - interval '1 day' THEN NULL ELSE x.at + interval '1 hour' END,
       CASE WHEN x.at > now() - interval '1 day' THEN NULL ELSE u.adm END
     FROM generate_series(1, $2::int) g, u,
       LATERAL (SELECT now() - g * ($3::float8 * interval '1 second') AS at) x,
       LATERAL (SELECT (ARRAY['invoice.status.change','invoice.amount.change','settlement.create','people.account.edit',
                              'incoming.resolve'])[1 + g % 5] AS action) a`,
    [demo.merchantId, REQUESTS, (365 * 86400) / REQUESTS],
  );
  await dbh.pool.query('VACUUM ANALYZE');
  log(`  loaded ${REQUESTS.toLocaleString('en')} approval requests in ${(Date.now() - t0) / 1000} s`);
  await dbh.close();
  return url;
}

async function signIn(target: string, username: string) {
  const res = await fetch(`${target}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: target },
    body: JSON.stringify({ username, password: 'demo-2026' }),
  });
  if (!res.ok) throw new Error(`login ${username}: ${res.status} ${await res.text()}`);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

async function main() {
  const url = await prepare();
  const server = await startServer(url, { WORKERS: 'false', REQUIRE_2FA_PLATFORM: 'false' });
  try {
    const admin = await signIn(server.target, 'admin');
    const ops = await signIn(server.target, 'ops');
    const deep = await fetch(`${server.target}/api/v1/approvals?status=APPROVED&limit=50`, {
      headers: { cookie: admin },
    });
    const next = ((await deep.json()) as { next: string }).next;
    const scenarios: [string, string, string][] = [
      ['pending, first page (admin)', '/api/v1/approvals?status=PENDING&limit=50', admin],
      ['every status, first page (admin)', '/api/v1/approvals?limit=50', admin],
      ['approved, second page (admin)', `/api/v1/approvals?status=APPROVED&limit=50&after=${next}`, admin],
      ['by action and maker (admin)', '/api/v1/approvals?action=settlement.create&maker=ops&limit=50', admin],
      ["one's own requests (ops)", '/api/v1/approvals?limit=50', ops],
      ['navigation count (admin)', '/api/v1/approvals/count', admin],
    ];
    log(`\n| scenario | p50 ms | p95 ms | p95 / budget (${BUDGET_MS} ms) |\n| --- | --- | --- | --- |`);
    for (const [name, path, cookie] of scenarios) {
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
