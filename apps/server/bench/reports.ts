/**
 * Reports against PostgreSQL's own COPY (target: every report streams at ≥ 0.8× the throughput of a COPY of the same
 * query; docs/benchmarks.md, "Reports"): 1,000,000 invoices of one merchant over the last 365 days,
 * each DONE one with its ledger postings (merchant, fees, provider account) and a provider account.
 *
 *   npm run bench:reports        (BENCH_PG=postgres://postgres@127.0.0.1:5432/test, BENCH_ROWS=1000000)
 *   BENCH_REUSE=1 npm run bench:reports       measure the database an earlier run left again
 *   BENCH_ONLY="one day" npm run bench:reports    the scenarios whose name holds the text ("tile": the finance tiles)
 *   BENCH_ROOT=/tmp/before npm run bench:reports    the server from another checkout (a `git worktree` of an older
 *                                                   commit): the "before" figures, with the same anchor
 *
 * For each report the HTTP download through the server (production mode, no workers, compiled as `npm start` runs it;
 * BENCH_RUNTIME=tsx: the sources under tsx) and `COPY (the report's SELECT) TO STDOUT` on one open connection are
 * timed alternately, BENCH_REPS times (3) after one warm-up each (a report under 100 ms: 51 times after 11); the medians,
 * their spread (min–max) and the ratio COPY time / download time (≥ 0.8: the report streams at ≥ 0.8× COPY's
 * throughput) are printed with the load average, and the same ratio with the download's time less that of a
 * signed-in `GET /api/v1/people/me` timed in the same repetitions (the baseline: for a report of a few rows the request
 * itself is the cost), both from the medians and "paired" (the median of each repetition's own ratio, its download,
 * COPY and baseline timed one after the other). Each download's size is checked against COPY's (CRLF line ends:
 * one byte more a line) and its sha256 printed, so that two runs (before/after) can be seen to give the same files.
 *
 * Then the finance tiles of the transactions list on the same merchant (all-time balance, deposits and withdrawals, for
 * the merchant and its busiest live terminal of each flow): the median of 21 requests beside the same baseline, and the
 * answer.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { loadConfig } from '../src/config';
import { createDb, runMigrations } from '../src/db/create-db';
import { ensureReferenceData } from '../src/db/seed/reference-data';
import { createContext, type AppContext } from '../src/lib/context';
import { balancePlan, invoicePlan, poolBalancePlan, providerPlan } from '../src/modules/reports/service';
import { reportCopySql, type ReportPlan } from '../src/modules/reports/stream';
import {
  benchKeyFile,
  loadAverage as load,
  loadInvoiceHistory,
  loadInvoiceLedger,
  signInCookie,
  startServer,
  withDb,
} from './lib';

const BASE = process.env.BENCH_PG ?? 'postgres://postgres@127.0.0.1:5432/test';
const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const DB_NAME = process.env.BENCH_DB ?? 'paydesk_bench_reports';
const REPS = Number(process.env.BENCH_REPS ?? 3);
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const serverRoot = path.resolve(process.env.BENCH_ROOT ?? repoRoot);
const dataDir = path.join(repoRoot, '.tmp/bench-reports');

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
  await loadInvoiceLedger(dbh, m, log);
  await dbh.close();
}

/**
 * The merchant, its busiest live currency, that currency's pool and the provider whose accounts took most of its DONE
 * invoices (the demo seed's own invoices may name another provider: an arbitrary pick made the provider report a few
 * rows).
 */
async function fixture(url: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const { rows } = await c.query(`
    WITH m AS (SELECT merchant_id FROM invoices GROUP BY 1 ORDER BY count(*) DESC LIMIT 1),
    cur AS (SELECT i.currency_id FROM invoices i, m WHERE i.merchant_id = m.merchant_id AND i.status = 'DONE'
            AND NOT i.is_test GROUP BY 1 ORDER BY count(*) DESC LIMIT 1)
    SELECT m.merchant_id, cur.currency_id,
      (SELECT p.id FROM terminal_pools p JOIN terminal_pool_members pm ON pm.pool_id = p.id JOIN terminals t ON t.id = pm.terminal_id
       WHERE p.merchant_id = m.merchant_id AND t.currency_id = cur.currency_id LIMIT 1) AS pool_id,
      (SELECT a.provider_id FROM invoices i JOIN provider_accounts a ON a.id = i.account_id
       WHERE i.merchant_id = m.merchant_id AND i.currency_id = cur.currency_id AND i.status = 'DONE' AND NOT i.is_test
       GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1) AS provider_id,
      (SELECT count(*)::int FROM invoices i WHERE i.merchant_id = m.merchant_id) AS n
    FROM m, cur`);
  await c.end();
  const r = rows[0] as { merchant_id: string; currency_id: number; pool_id: number; provider_id: number; n: number };
  return r;
}

async function main() {
  const url = withDb(BASE, DB_NAME);
  log(`Load average at start: ${load()}`);
  if (!process.env.BENCH_REUSE) {
    log(`Preparing ${DB_NAME} with ${ROWS.toLocaleString('en')} invoices…`);
    await prepare(url);
  }
  const fx = await fixture(url);
  log(`Merchant has ${fx.n.toLocaleString('en')} invoices; currency ${fx.currency_id}, pool ${fx.pool_id}`);
  log(`Server from ${serverRoot}`);

  // the server as `npm start` runs it (BENCH_RUNTIME=tsx: the TypeScript sources), from BENCH_ROOT's checkout
  if (process.env.BENCH_ROOT) process.env.BENCH_SERVER_DIR = serverRoot;
  const server = await startServer(
    url,
    { WORKERS: 'false', DATA_DIR: dataDir, REQUIRE_2FA_PLATFORM: 'false', COOKIE_SECURE: 'false' },
    { compiled: (process.env.BENCH_RUNTIME ?? 'compiled') === 'compiled' },
  );
  const base = server.target;
  const dbh = await createDb({ databaseUrl: url, poolMax: 2 });
  const copyClient = new pg.Client({ connectionString: url });
  await copyClient.connect();
  try {
    const owner = await signInCookie(base, 'owner');
    const ops = await signInCookie(base, 'ops');

    const config = loadConfig(
      { NODE_ENV: 'development' },
      { workers: false, dataDir, dataEncryptionKeyFile: benchKeyFile() },
    );
    const ctx: AppContext = await createContext(dbh, config);
    const day = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().slice(0, 10);
    const year = { periodStart: day(364 * 86_400_000), periodEnd: day(0) };
    const oneDay = { periodStart: day(180 * 86_400_000), periodEnd: day(180 * 86_400_000) };
    const qs = (o: Record<string, string | number>) =>
      new URLSearchParams(Object.entries(o).map(([k, v]): [string, string] => [k, String(v)])).toString();
    const m = fx.merchant_id;
    const scenarios: { name: string; url: string; cookie: string; plan: () => Promise<ReportPlan> }[] = [
      {
        name: 'invoice, one year',
        url: `/api/v1/report/invoice?${qs(year)}`,
        cookie: owner,
        plan: () => invoicePlan(ctx, m, year),
      },
      {
        name: 'invoice, one day',
        url: `/api/v1/report/invoice?${qs(oneDay)}`,
        cookie: owner,
        plan: () => invoicePlan(ctx, m, oneDay),
      },
      {
        name: 'balance, one year',
        url: `/api/v1/report/balance?${qs({ ...year, currencyId: fx.currency_id })}`,
        cookie: owner,
        plan: () => balancePlan(ctx, m, { ...year, currencyId: fx.currency_id }),
      },
      {
        name: 'balance, one day',
        url: `/api/v1/report/balance?${qs({ ...oneDay, currencyId: fx.currency_id })}`,
        cookie: owner,
        plan: () => balancePlan(ctx, m, { ...oneDay, currencyId: fx.currency_id }),
      },
      {
        name: 'provider, one year',
        url: `/api/v1/report/provider?${qs({ ...year, currencyId: fx.currency_id, providerId: fx.provider_id, merchantId: m })}`,
        cookie: ops,
        plan: () => providerPlan(ctx, m, { ...year, currencyId: fx.currency_id, providerId: fx.provider_id }),
      },
      {
        name: 'pool/balance, one year',
        url: `/api/v1/report/pool/balance?${qs({ ...year, terminalPoolId: fx.pool_id, merchantId: m })}`,
        cookie: ops,
        plan: () => poolBalancePlan(ctx, m, { ...year, terminalPoolId: fx.pool_id }),
      },
      {
        name: 'pool/balance, one day',
        url: `/api/v1/report/pool/balance?${qs({ ...oneDay, terminalPoolId: fx.pool_id, merchantId: m })}`,
        cookie: ops,
        plan: () => poolBalancePlan(ctx, m, { ...oneDay, terminalPoolId: fx.pool_id }),
      },
    ];

    const download = async (s: (typeof scenarios)[number]) => {
      const t0 = process.hrtime.bigint();
      const res = await fetch(`${base}${s.url}`, { headers: { cookie: s.cookie } });
      if (!res.ok) throw new Error(`${s.name}: ${res.status} ${await res.text()}`);
      const hash = createHash('sha256');
      let bytes = 0;
      let lines = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        hash.update(chunk);
        bytes += chunk.byteLength;
        for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
      }
      return { ms: ms(t0), bytes, lines, sha: hash.digest('hex').slice(0, 12) };
    };
    const copy = async (statement: string) => {
      const t0 = process.hrtime.bigint();
      let bytes = 0;
      for await (const chunk of copyClient.query(copyTo(statement))) bytes += (chunk as Buffer).byteLength;
      return { ms: ms(t0), bytes };
    };
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const fmt = (x: number) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(1)} ms`);

    // what any signed-in request costs (HTTP, session, the answer): a small report cannot be cheaper than this. Timed
    // in each repetition beside the report (same moment, same machine state); warmed up first.
    const baselineOnce = async () => {
      const t0 = process.hrtime.bigint();
      const r = await fetch(`${base}/api/v1/people/me`, { headers: { cookie: owner } });
      await r.arrayBuffer();
      return ms(t0);
    };
    for (let i = 0; i < 50; i++) await baselineOnce();

    const results = [];
    // BENCH_ONLY="one day": the scenarios whose name holds it
    for (const s of scenarios.filter((x) => x.name.includes(process.env.BENCH_ONLY ?? ''))) {
      const statement = reportCopySql(await s.plan());
      const warm = await download(s); // warm-up
      await copy(statement);
      // a report of a few milliseconds is timed more often (and warmed up more): one scheduling hiccup is its size
      const small = warm.ms < 100;
      for (let i = 0; small && i < 10; i++) {
        await download(s);
        await copy(statement);
      }
      const d: Awaited<ReturnType<typeof download>>[] = [];
      const c: Awaited<ReturnType<typeof copy>>[] = [];
      const b: number[] = [];
      for (let i = 0; i < (small ? Math.max(REPS, 51) : REPS); i++) {
        d.push(await download(s));
        c.push(await copy(statement));
        b.push(await baselineOnce());
      }
      const dm = median(d.map((x) => x.ms));
      const cm = median(c.map((x) => x.ms));
      const baseline = median(b);
      const sameSize = d[0]!.bytes === c[0]!.bytes + d[0]!.lines;
      const r = {
        name: s.name,
        rows: d[0]!.lines - 1,
        mb: d[0]!.bytes / 1024 / 1024,
        downloadMs: dm,
        downloadSpread: [Math.min(...d.map((x) => x.ms)), Math.max(...d.map((x) => x.ms))],
        copyMs: cm,
        copySpread: [Math.min(...c.map((x) => x.ms)), Math.max(...c.map((x) => x.ms))],
        ratio: cm / dm,
        ratioNet: cm / Math.max(dm - baseline, 0.1),
        // the same, repetition by repetition (download, COPY and baseline timed one after the other), median: a drift
        // of the machine's load during the run weighs on the three alike
        ratioPaired: median(d.map((x, i) => c[i]!.ms / Math.max(x.ms - b[i]!, 0.1))),
        sha: d[0]!.sha,
        sameSize,
      };
      results.push(r);
      log(
        `  ${s.name.padEnd(24)} ${String(r.rows).padStart(9)} rows ${r.mb.toFixed(1).padStart(6)} MB   ` +
          `download ${fmt(dm).padStart(9)} (${fmt(r.downloadSpread[0]!)}–${fmt(r.downloadSpread[1]!)})   ` +
          `COPY ${fmt(cm).padStart(9)} (${fmt(r.copySpread[0]!)}–${fmt(r.copySpread[1]!)})   ` +
          `ratio ${r.ratio.toFixed(2)} (less the baseline ${fmt(baseline)}: ${r.ratioNet.toFixed(2)}, paired ${r.ratioPaired.toFixed(2)})   sha ${r.sha}${sameSize ? '' : '   (size differs from COPY)'}   load ${load()}`,
      );
    }

    // the finance tiles above the transactions list (GET /api/v1/merchant/{balance,deposit,withdrawal}): all time, for
    // the merchant and for one terminal; BENCH_ONLY="tile" runs these alone
    // signed in as the merchant's owner (as the baseline is): the merchant, and its busiest live terminal of each flow
    const terminals = (
      await copyClient.query<{ id: string; flow: string }>(
        `SELECT DISTINCT ON (t.flow_type) t.id, lower(t.flow_type) AS flow
         FROM terminals t JOIN invoices i ON i.terminal_id = t.id
         WHERE t.merchant_id = $1 AND NOT t.is_test GROUP BY t.id ORDER BY t.flow_type, count(*) DESC`,
        [m],
      )
    ).rows;
    const tiles = ['balance', 'deposit', 'withdrawal'].flatMap((kind) => [
      { name: `finance tile ${kind}, all terminals`, kind, query: {} as Record<string, string> },
      ...terminals.map((t) => ({
        name: `finance tile ${kind}, ${t.flow} terminal`,
        kind,
        query: { terminalId: t.id },
      })),
    ]);
    for (const tile of tiles.filter((x) => x.name.includes(process.env.BENCH_ONLY ?? ''))) {
      const url = `${base}/api/v1/merchant/${tile.kind}?${qs({ book: 'live', ...tile.query })}`;
      const once = async () => {
        const t0 = process.hrtime.bigint();
        const res = await fetch(url, { headers: { cookie: owner } });
        if (!res.ok) throw new Error(`${tile.name}: ${res.status} ${await res.text()}`);
        const body = await res.text();
        return { ms: ms(t0), body };
      };
      const first = await once();
      const t: number[] = [];
      const b: number[] = [];
      for (let i = 0; i < 21; i++) {
        t.push((await once()).ms);
        b.push(await baselineOnce());
      }
      log(
        `  ${tile.name.padEnd(42)} ${fmt(median(t)).padStart(9)} (${fmt(Math.min(...t))}–${fmt(Math.max(...t))})   ` +
          `baseline ${fmt(median(b))}   ${first.body.slice(0, 90)}   load ${load()}`,
      );
    }
    log(`Load average at end: ${load()}`);
  } finally {
    await copyClient.end();
    await dbh.close();
    await server.stop();
  }
}

await main();
