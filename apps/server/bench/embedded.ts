/**
 * The embedded default (PGlite, what `npm start` gives) with 100,000 invoices: the invoice list's latency, with the
 * background workers off and on, and while an export or a report streams (docs/benchmarks.md, "Embedded default
 * (PGlite)").
 *
 *   npm run bench:embedded
 *   # BENCH_ROWS (default 100000), BENCH_SECONDS (default 8 per measurement), BENCH_CONNECTIONS (default 2),
 *   # BENCH_REPS (default 3), BENCH_PORT (default: a free one), BENCH_REUSE=1 measures an already loaded data dir
 *   # again, BENCH_DATA_DIR (default .tmp/bench-embedded), BENCH_SERVER_ROOT: the checkout whose server is measured
 *   # (default this one; e.g. a `git worktree` of the previous commit for a before/after table), BENCH_ONLY_LIST=1
 *
 * Loads a fresh data dir (.tmp/bench-embedded) the way `npm start` would (migrations, reference data, demo seed),
 * adds the invoices with INSERT … SELECT generate_series inside PGlite, then per repetition starts the real server
 * (a process of its own on that DATA_DIR, NODE_ENV=production) and measures `GET /api/v1/invoice` over HTTP:
 *   (a) WORKERS=false, (b) workers on (the default), with b/a printed;
 *   (c) list requests issued while a CSV export of every invoice streams, and the export's own duration;
 *   (d) the same while the invoice report of the whole year streams;
 *   (e) the workers alone, idle: statements per second and their share of the one connection.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pino from 'pino';
import { loadConfig } from '../src/config';
import { createDb, runMigrations } from '../src/db/create-db';
import { seedDemoIfEmpty } from '../src/db/seed';
import { createContext } from '../src/lib/context';
import { ensureReferenceData } from '../src/db/seed/reference-data';
import { freePort, loadAverage as load, spread } from './lib';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 2);
const REPS = Number(process.env.BENCH_REPS ?? 3);
/** BENCH_ONLY_LIST=1: scenarios (a) and (b) only (the workers' before/after). */
const ONLY_LIST = Boolean(process.env.BENCH_ONLY_LIST);
const ROOT = path.resolve(import.meta.dirname, '../../..');
const DATA_DIR = path.resolve(process.env.BENCH_DATA_DIR ?? path.join(ROOT, '.tmp/bench-embedded'));
const SERVER_ROOT = path.resolve(process.env.BENCH_SERVER_ROOT ?? ROOT);

const log = (...a: unknown[]) => console.log(...a);
const now = () => performance.now();

function pct(xs: number[], p: number) {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

/** A fresh data dir: what `npm start` makes on first start (demo included), plus ROWS invoices of the demo merchant. */
async function prepare() {
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  const t0 = now();
  const dbh = await createDb({ dataDir: DATA_DIR });
  try {
    const config = loadConfig({ NODE_ENV: 'development' }, { workers: false, dataDir: DATA_DIR });
    await runMigrations(dbh);
    await ensureReferenceData(dbh.db);
    const demo = await seedDemoIfEmpty(await createContext(dbh, config), { writeFile: false });
    if (!demo) throw new Error('demo seed did not run');
    log(`  migrated and seeded in ${((now() - t0) / 1000).toFixed(1)} s`);
    const q = (text: string, params: unknown[] = []) => dbh.pool.query(text, params);
    const t1 = now();
    await q(
      `INSERT INTO customers (merchant_id, external_id, first_name, last_name)
       SELECT $1, 'bench-cust-' || g, 'First' || (g % 97), 'Last' || (g % 389) FROM generate_series(1, 10000) g`,
      [demo.merchantId],
    );
    // Invoices of the last 365 days, oldest first (as a live table fills). A finished invoice is DONE, CANCELED or
    // DECLINED (its form expired 30 minutes after creation, long ago); only the newest 0.5 % are still open
    // (NEW, IN_PROGRESS, PAYED) with a form that expires tomorrow, so the expiry worker has nothing to cancel.
    await q(
      `WITH t AS (SELECT array_agg(id ORDER BY name) ids, array_agg(flow_type ORDER BY name) flows,
                         array_agg(currency_id ORDER BY name) cur, array_agg(is_test ORDER BY name) test, count(*)::int n
                  FROM terminals WHERE merchant_id = $1),
            c AS (SELECT array_agg(id) ids, count(*)::int n FROM customers WHERE merchant_id = $1 AND external_id LIKE 'bench-cust-%')
       INSERT INTO invoices (merchant_id, terminal_id, merchant_invoice_id, provider_invoice_id, form_id, flow_type, status,
                             amount, fee, currency_id, customer_id, is_test, expires_at, status_date, created_at)
       SELECT $1, t.ids[x.k], 'bench-' || g, CASE WHEN g % 5 <> 0 THEN 'PRV' || g END, 'bench-form-' || g, t.flows[x.k],
              CASE WHEN g > $2::int * 0.995
                   THEN (ARRAY['NEW','IN_PROGRESS','PAYED'])[1 + g % 3]
                   ELSE (ARRAY['DONE','DONE','DONE','DONE','DONE','DONE','CANCELED','CANCELED','DECLINED'])[1 + (g * 7) % 9] END,
              10000 + (g::bigint * 7919) % 5000000, ((10000 + (g::bigint * 7919) % 5000000) * 25) / 1000, t.cur[x.k],
              c.ids[1 + g % c.n], t.test[x.k],
              CASE WHEN g > $2::int * 0.995 THEN now() + interval '1 day' ELSE x.ts + interval '30 minutes' END,
              x.ts + interval '7 minutes', x.ts
       FROM generate_series(1, $2::int) g, t, c,
            LATERAL (SELECT 1 + (g % t.n) AS k, (now() - interval '365 days') + g * ($3::float8 * interval '1 second') AS ts) x`,
      [demo.merchantId, ROWS, (365 * 86400) / ROWS],
    );
    log(`  ${ROWS.toLocaleString('en')} invoices inserted in ${((now() - t1) / 1000).toFixed(1)} s`);
    const t2 = now();
    await q('VACUUM ANALYZE');
    log(`  VACUUM ANALYZE ${((now() - t2) / 1000).toFixed(1)} s`);
    const { rows } = await q(
      `SELECT count(*)::int AS n, min(terminal_id::text) AS terminal FROM invoices WHERE merchant_id = $1`,
      [demo.merchantId],
    );
    return { total: rows[0].n as number, terminalId: rows[0].terminal as string };
  } finally {
    await dbh.close();
  }
}

async function reuse() {
  const dbh = await createDb({ dataDir: DATA_DIR });
  try {
    const { rows } = await dbh.pool.query(
      `SELECT count(*)::int AS n, min(terminal_id::text) AS terminal FROM invoices
       WHERE merchant_id = (SELECT merchant_id FROM invoices GROUP BY 1 ORDER BY count(*) DESC LIMIT 1)`,
    );
    return { total: rows[0].n as number, terminalId: rows[0].terminal as string };
  } finally {
    await dbh.close();
  }
}

/**
 * (e) The workers alone on the data dir, nothing else running (the server's own startWorkers, from SERVER_ROOT): the
 * statements and transactions they send per second once started, and the share of the one connection they hold.
 * Every such statement is one a request may have to wait behind.
 */
async function idleWorkers(seconds: number) {
  const dbh = await createDb({ dataDir: DATA_DIR });
  const stats = { statements: 0, ms: 0, transactions: 0 };
  const counted = new WeakSet<object>();
  const wrap = (target: { query: (...a: unknown[]) => unknown }) => {
    const query = target.query.bind(target);
    target.query = (...args: unknown[]) => {
      const s = now();
      const r = query(...args);
      if (r instanceof Promise) {
        r.then(
          () => {
            stats.statements++;
            stats.ms += now() - s;
          },
          () => undefined,
        );
      }
      return r;
    };
  };
  wrap(dbh.pool as never);
  const connect = dbh.pool.connect.bind(dbh.pool) as (...a: unknown[]) => unknown;
  (dbh.pool as { connect: unknown }).connect = (...a: unknown[]) => {
    if (a.length) return connect(...a); // pool.query's own checkout (counted by the wrapper above)
    return (connect() as Promise<{ query: (...a: unknown[]) => unknown }>).then((client) => {
      if (!counted.has(client)) {
        counted.add(client);
        wrap(client);
      }
      stats.transactions++;
      return client;
    });
  };
  const config = loadConfig(
    {
      NODE_ENV: 'production',
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-1234',
      PUBLIC_URL: 'http://127.0.0.1:9',
    },
    { dataDir: DATA_DIR },
  );
  const mod = (await import(pathToFileURL(path.join(SERVER_ROOT, 'apps/server/src/workers/index.ts')).href)) as {
    startWorkers: (ctx: unknown, log: unknown) => { stop(): Promise<void> };
  };
  const workers = mod.startWorkers(await createContext(dbh, config), pino({ level: 'warn' }));
  try {
    await new Promise((r) => setTimeout(r, 3000)); // the first ticks after start
    Object.assign(stats, { statements: 0, ms: 0, transactions: 0 });
    await new Promise((r) => setTimeout(r, seconds * 1000));
    return {
      statementsPerSecond: stats.statements / seconds,
      transactionsPerSecond: stats.transactions / seconds,
      share: stats.ms / (seconds * 1000),
    };
  } finally {
    await workers.stop();
    await dbh.close();
  }
}

type Server = { base: string; proc: ChildProcess; stop(): Promise<void> };

/** The real server on the data dir, as `npm start` runs it (production mode; workers as asked). */
async function startServer(workers: boolean): Promise<Server> {
  const port = Number(process.env.BENCH_PORT ?? 0) || (await freePort());
  const proc = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: SERVER_ROOT,
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'DATABASE_URL')),
      DATA_DIR,
      // the key the seed (development mode) generated into the data folder; production must be given it
      DATA_ENCRYPTION_KEY_FILE: path.join(DATA_DIR, 'keys', 'master.key'),
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      COOKIE_SECURE: 'false',
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-1234',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      WORKERS: String(workers),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((r) => proc.once('exit', r));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      /* starting */
    }
    if (i > 600 || proc.exitCode !== null) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    proc,
    async stop() {
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

async function signIn(base: string) {
  const r = await fetch(`${base}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'owner', password: 'demo-2026' }),
  });
  if (!r.ok) throw new Error(`sign-in: ${r.status} ${await r.text()}`);
  return r.headers.get('set-cookie')!.split(';')[0]!;
}

async function timedGet(base: string, cookie: string, p: string) {
  const s = now();
  const r = await fetch(`${base}${p}`, { headers: { cookie } });
  await r.arrayBuffer();
  if (!r.ok) throw new Error(`${p}: ${r.status}`);
  return now() - s;
}

/** CONNECTIONS closed loops of `p` for `seconds`: every request's latency. */
async function closedLoop(base: string, cookie: string, p: string, seconds: number) {
  const times: number[] = [];
  const end = now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (now() < end) times.push(await timedGet(base, cookie, p));
    }),
  );
  return times;
}

/**
 * `download` streams to its end while one client issues a list request, waits for its answer, pauses 20 ms and
 * issues the next: the latency of each list request issued during the download, and the download's duration.
 */
async function during(base: string, cookie: string, download: string, list: string) {
  const s = now();
  let done = false;
  let bytes = 0;
  const dl = (async () => {
    const r = await fetch(`${base}${download}`, { headers: { cookie } });
    if (!r.ok) throw new Error(`${download}: ${r.status} ${await r.text()}`);
    const reader = r.body!.getReader();
    for (;;) {
      const { done: end, value } = await reader.read();
      if (end) break;
      bytes += value.byteLength;
    }
    done = true;
    return now() - s;
  })();
  const times: number[] = [];
  await new Promise((r) => setTimeout(r, 20));
  while (!done) {
    times.push(await timedGet(base, cookie, list));
    await new Promise((r) => setTimeout(r, 20));
  }
  const ms = await dl;
  return { times, ms, bytes };
}

const LIST_FIRST = '/api/v1/invoice?page=0&size=20';
const LIST_FILTERED = '/api/v1/invoice?page=0&size=20&statusIds=4';

type Lat = { p50: number; p95: number; p99: number; max: number; n: number };
const lat = (t: number[]): Lat => ({
  p50: pct(t, 50),
  p95: pct(t, 95),
  p99: pct(t, 99),
  max: Math.max(...t),
  n: t.length,
});
const f = (x: number) => x.toFixed(1);
const line = (name: string, l: Lat) =>
  `    ${name.padEnd(34)} p50 ${f(l.p50).padStart(6)}  p95 ${f(l.p95).padStart(6)}  p99 ${f(l.p99).padStart(6)}  max ${f(l.max).padStart(7)} ms  (n ${l.n})`;

async function main() {
  log(`bench:embedded — ${ROWS.toLocaleString('en')} invoices on PGlite; load average ${load()}`);
  if (SERVER_ROOT !== ROOT) log(`  server from ${SERVER_ROOT}`);
  const t0 = now();
  const fx = process.env.BENCH_REUSE && fs.existsSync(DATA_DIR) ? await reuse() : await prepare();
  log(
    `Prepared in ${((now() - t0) / 1000).toFixed(1)} s; ${fx.total.toLocaleString('en')} invoices of the demo merchant`,
  );
  const idle = await idleWorkers(Number(process.env.BENCH_IDLE_SECONDS ?? 20));
  log(
    `(e) idle workers: ${idle.statementsPerSecond.toFixed(2)} statements/s, ${idle.transactionsPerSecond.toFixed(2)} ` +
      `transactions/s, ${(idle.share * 100).toFixed(2)} % of the connection`,
  );
  const year = new Date();
  const periodEnd = year.toISOString().slice(0, 10);
  const periodStart = new Date(year.getTime() - 366 * 86_400_000).toISOString().slice(0, 10);
  const REPORT = `/api/v1/report/invoice?periodStart=${periodStart}&periodEnd=${periodEnd}`;

  type Rep = {
    a: { first: Lat; filtered: Lat };
    b: { first: Lat; filtered: Lat };
    c: { list: Lat; ms: number; mb: number };
    d: { list: Lat; ms: number; mb: number };
    load: string;
  };
  const reps: Rep[] = [];
  for (let rep = 1; rep <= REPS; rep++) {
    log(`Repetition ${rep}/${REPS} (load average ${load()})`);
    const measureList = async (server: Server) => {
      const cookie = await signIn(server.base);
      // warm-up: plans, caches, the first worker ticks after start
      await closedLoop(server.base, cookie, LIST_FIRST, 2);
      await closedLoop(server.base, cookie, LIST_FILTERED, 1);
      const first = lat(await closedLoop(server.base, cookie, LIST_FIRST, SECONDS));
      const filtered = lat(await closedLoop(server.base, cookie, LIST_FILTERED, SECONDS));
      return { cookie, first, filtered };
    };
    const off = async () => {
      const server = await startServer(false);
      try {
        const m = await measureList(server);
        log('  (a) WORKERS=false');
        log(line('list, first page', m.first));
        log(line('list, status filter', m.filtered));
        return { first: m.first, filtered: m.filtered };
      } finally {
        await server.stop();
      }
    };
    const none = { list: lat([NaN]), ms: NaN, mb: 0 };
    const on = async () => {
      const server = await startServer(true);
      try {
        const m = await measureList(server);
        log('  (b) workers on');
        log(line('list, first page', m.first));
        log(line('list, status filter', m.filtered));
        const b = { first: m.first, filtered: m.filtered };
        if (ONLY_LIST) return { b, c: none, d: none };
        const ce = await during(server.base, m.cookie, '/api/v1/invoice/csv', LIST_FIRST);
        const c = { list: lat(ce.times), ms: ce.ms, mb: ce.bytes / 1048576 };
        log(`  (c) during a CSV export of every invoice (${f(c.mb)} MB in ${c.ms.toFixed(0)} ms)`);
        log(line('list, first page', c.list));
        const re = await during(server.base, m.cookie, REPORT, LIST_FIRST);
        const d = { list: lat(re.times), ms: re.ms, mb: re.bytes / 1048576 };
        log(`  (d) during the invoice report of a year (${f(d.mb)} MB in ${d.ms.toFixed(0)} ms)`);
        log(line('list, first page', d.list));
        return { b, c, d };
      } finally {
        await server.stop();
      }
    };
    // the order alternates between repetitions, so that a drift in the machine's load weighs on both
    let a: Rep['a'];
    let rest: Awaited<ReturnType<typeof on>>;
    if (rep % 2) {
      a = await off();
      rest = await on();
    } else {
      rest = await on();
      a = await off();
    }
    const { b, c, d } = rest;
    log(
      `    b/a p95: first page ${(b.first.p95 / a.first.p95).toFixed(2)}, filtered ${(b.filtered.p95 / a.filtered.p95).toFixed(2)}`,
    );
    reps.push({ a, b, c, d, load: load() });
  }

  const sp = (xs: number[], digits = 1) => {
    const s = spread(xs);
    return `${s.median.toFixed(digits)} [${s.min.toFixed(digits)}–${s.max.toFixed(digits)}]`;
  };
  const col = (get: (r: Rep) => number, digits = 1) => sp(reps.map(get), digits);
  log(`\nSummary: median [min–max] of ${REPS} repetitions, ms (load average at the end ${load()})`);
  log('| scenario | p50 | p95 | p99 | max |');
  log('|---|---|---|---|---|');
  const rows: [string, (r: Rep) => Lat][] = [
    ['(a) workers off, first page', (r) => r.a.first],
    ['(a) workers off, status filter', (r) => r.a.filtered],
    ['(b) workers on, first page', (r) => r.b.first],
    ['(b) workers on, status filter', (r) => r.b.filtered],
  ];
  if (!ONLY_LIST) {
    rows.push(['(c) list during CSV export', (r) => r.c.list], ['(d) list during invoice report', (r) => r.d.list]);
  }
  for (const [name, get] of rows) {
    log(
      `| ${name} | ${col((r) => get(r).p50)} | ${col((r) => get(r).p95)} | ${col((r) => get(r).p99)} | ${col((r) => get(r).max)} |`,
    );
  }
  if (!ONLY_LIST) {
    log(`| CSV export duration | ${col((r) => r.c.ms, 0)} | | | |`);
    log(`| invoice report duration | ${col((r) => r.d.ms, 0)} | | | |`);
  }
  const ratioFirst = reps.map((r) => r.b.first.p95 / r.a.first.p95);
  const ratioFiltered = reps.map((r) => r.b.filtered.p95 / r.a.filtered.p95);
  const p95a = spread(reps.map((r) => Math.max(r.a.first.p95, r.a.filtered.p95))).median;
  const p95b = spread(reps.map((r) => Math.max(r.b.first.p95, r.b.filtered.p95))).median;
  const maxC = spread(reps.map((r) => r.c.list.max)).median;
  const maxD = spread(reps.map((r) => r.d.list.max)).median;
  log('\nTargets:');
  log(
    `  list p95 < 50 ms on 100,000 invoices: workers off ${f(p95a)} ms, workers on ${f(p95b)} ms → ${p95b < 50 && p95a < 50 ? 'met' : 'NOT met'}`,
  );
  log(
    `  b/a p95 ≤ 1.5 (workers on within 1.5× of workers off): first page ${sp(ratioFirst, 2)}, filtered ${sp(ratioFiltered, 2)} → ` +
      `${spread(ratioFirst).median <= 1.5 && spread(ratioFiltered).median <= 1.5 ? 'met' : 'NOT met'}`,
  );
  if (!ONLY_LIST) {
    log(
      `  max list wait during an export ≤ ~100 ms: CSV ${f(maxC)} ms, report ${f(maxD)} ms → ${maxC <= 100 && maxD <= 100 ? 'met' : 'NOT met'}`,
    );
  }
  log(
    `  idle workers (e): ${idle.statementsPerSecond.toFixed(2)} statements/s, ${(idle.share * 100).toFixed(2)} % of the one connection`,
  );
  fs.writeFileSync(path.join(DATA_DIR, 'result.json'), JSON.stringify({ rows: ROWS, idle, reps }, null, 2));
  log(`Results written to ${path.relative(ROOT, path.join(DATA_DIR, 'result.json'))}`);
}

await main();
