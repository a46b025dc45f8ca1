import { randomBytes, sign, type KeyObject } from 'node:crypto';
import { merchantSignaturePayload } from '@paydesk/contracts';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { loadConfig } from '../src/config';
import { createDb, runMigrations, type DbHandle } from '../src/db/create-db';
import { seedDemoIfEmpty } from '../src/db/seed';
import { ensureReferenceData } from '../src/db/seed/reference-data';
import { createContext } from '../src/lib/context';

/** A co-located PostgreSQL is reached over its Unix socket when there is one (cheaper than loopback TCP). */
export const benchBaseUrl = () =>
  process.env.BENCH_DATABASE_URL ??
  (fs.existsSync('/var/run/postgresql/.s.PGSQL.5432')
    ? 'postgres://postgres@localhost/test?host=/var/run/postgresql'
    : 'postgres://postgres@127.0.0.1:5432/test');

/** The load average (1, 5, 15 min), printed beside a benchmark's figures. */
export const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/** The session cookie of a demo user signed in to the server at `base` (the demo password; the server's own origin). */
export async function signInCookie(base: string, username: string): Promise<string> {
  const res = await fetch(`${base}/api/v1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ username, password: 'demo-2026' }),
  });
  if (!res.ok) throw new Error(`sign-in of ${username}: ${res.status} ${await res.text()}`);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

export const withDb = (u: string, db: string) => Object.assign(new URL(u), { pathname: `/${db}` }).toString();

export async function sqlOn(url: string, q: string, params: unknown[] = []) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await c.query(q, params);
  } finally {
    await c.end();
  }
}

/**
 * A fresh database `name` on the bench server (one an earlier run left is dropped first), migrated, with the
 * reference data: its URL, an open handle (the caller closes it) and the reference data.
 */
export async function createBenchDatabase(name: string) {
  const base = benchBaseUrl();
  await sqlOn(base, `DROP DATABASE IF EXISTS ${name}`);
  await sqlOn(base, `CREATE DATABASE ${name}`);
  const url = withDb(base, name);
  const dbh = await createDb({ databaseUrl: url });
  await runMigrations(dbh);
  const ref = await ensureReferenceData(dbh.db);
  return { url, dbh, ref };
}

/** Drops what createBenchDatabase made, whoever is still connected. */
export const dropBenchDatabase = (name: string) =>
  sqlOn(benchBaseUrl(), `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);

export async function freePort() {
  return new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

const ROOT = path.resolve(import.meta.dirname, '../../..');

/**
 * The master key the benches encrypt card and phone numbers with (the seed in the bench process, the server it
 * starts in production mode, which must be given a key): one file for every bench, made on first use.
 */
export function benchKeyFile(): string {
  const file = path.join(ROOT, '.tmp/bench-keys/master.key');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  }
  return file;
}

/**
 * The real server in a process of its own (production mode, no demo data) on `databaseUrl`; resolves once healthy.
 * `compiled`: what `npm start` runs — the esbuild bundle, built first into apps/server/dist of the checkout that is
 * measured — instead of the TypeScript sources under tsx.
 */
export async function startServer(
  databaseUrl: string,
  env: Record<string, string> = {},
  opts: { compiled?: boolean } = {},
) {
  const port = await freePort();
  // BENCH_SERVER_DIR: another checkout's server (a before/after pair from one bench script)
  const cwd = process.env.BENCH_SERVER_DIR ?? ROOT;
  let entry = ['--import', 'tsx', 'apps/server/src/server.ts'];
  if (opts.compiled) {
    const build = (await import(pathToFileURL(path.join(cwd, 'apps/server/build.mjs')).href)) as {
      buildServer: () => Promise<{ outdir: string }>;
    };
    entry = [path.join((await build.buildServer()).outdir, 'server.js')];
    // as scripts/start.mjs runs it
    env = { ...env, NODE_OPTIONS: [process.env.NODE_OPTIONS, '--enable-source-maps'].filter(Boolean).join(' ') };
  }
  const proc = spawn(process.execPath, [...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []), ...entry], {
    cwd,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      JWT_SECRET: randomBytes(32).toString('hex'),
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      PG_POOL_MAX: process.env.BENCH_PG_POOL_MAX ?? '6',
      DATA_ENCRYPTION_KEY_FILE: benchKeyFile(),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const target = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${target}/api/health`)).ok) break;
    } catch {
      /* starting */
    }
    if (i > 300) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    target,
    pid: proc.pid!,
    async stop() {
      proc.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 1500));
    },
  };
}

/** Linux clock ticks per second (USER_HZ) for /proc/<pid>/stat's utime and stime. */
const TICKS_PER_SECOND = 100;

function procStat(pid: string): { ppid: string; comm: string; cpuMs: number; sysMs: number } | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // pid (comm) state ppid … : comm may hold spaces and parentheses, so split after its last ')'
    const close = text.lastIndexOf(')');
    const comm = text.slice(text.indexOf('(') + 1, close);
    const f = text.slice(close + 2).split(' ');
    // fields after comm: [0] state, [1] ppid, … [11] utime, [12] stime, [13] cutime, [14] cstime (children reaped:
    // a PostgreSQL backend that has exited counts in the postmaster's)
    const ms = (ticks: number) => (ticks * 1000) / TICKS_PER_SECOND;
    const sys = Number(f[12]) + Number(f[14]);
    return { ppid: f[1]!, comm, cpuMs: ms(Number(f[11]) + Number(f[13]) + sys), sysMs: ms(sys) };
  } catch {
    return null; // the process ended meanwhile
  }
}

/**
 * CPU time (user + system, ms) used so far by a process and its descendants (a clustered server's workers), and by
 * every PostgreSQL process on the machine (the server's backends included).
 */
export function cpuTimes(rootPid: number): { serverMs: number; serverSysMs: number; postgresMs: number } {
  const all = fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((pid) => ({ pid, stat: procStat(pid) }))
    .filter((p): p is { pid: string; stat: NonNullable<ReturnType<typeof procStat>> } => p.stat !== null);
  const tree = new Set([String(rootPid)]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of all) {
      if (!tree.has(p.pid) && tree.has(p.stat.ppid)) {
        tree.add(p.pid);
        grew = true;
      }
    }
  }
  let serverMs = 0;
  let serverSysMs = 0;
  let postgresMs = 0;
  for (const p of all) {
    if (tree.has(p.pid)) {
      serverMs += p.stat.cpuMs;
      serverSysMs += p.stat.sysMs;
    } else if (p.stat.comm === 'postgres') postgresMs += p.stat.cpuMs;
  }
  return { serverMs, serverSysMs, postgresMs };
}

/** Median and [min–max] of a few repetitions. */
export function spread(values: number[]) {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  return { median: mid, min: s[0]!, max: s[s.length - 1]! };
}

/**
 * autocannon's `setupRequest` for signed merchant-API creates of UZS deposits on one terminal: each request a new
 * merchantInvoiceId and its own Ed25519 signature over `${timestamp}.POST.${path}.${body}`.
 */
export function signedCreateRequest(args: { merchantId: string; terminalId: string; key: KeyObject; path: string }) {
  let seq = 0;
  return (req: Record<string, unknown>) => {
    const body = JSON.stringify({
      terminalId: args.terminalId,
      flowType: 'DEPOSIT',
      amount: 150_000_00,
      currency: 'UZS',
      merchantInvoiceId: `bench-${process.pid}-${++seq}`,
      customer: { externalId: `c-${seq % 1000}`, firstName: 'Bench', lastName: 'Customer' },
      successUrl: 'https://shop.example.com/ok',
      cancelUrl: 'https://shop.example.com/cancel',
      errorUrl: 'https://shop.example.com/error',
    });
    const ts = String(Math.floor(Date.now() / 1000));
    const signature = sign(null, Buffer.from(merchantSignaturePayload(ts, 'POST', args.path, body)), args.key);
    return {
      ...req,
      body,
      headers: {
        'content-type': 'application/json',
        'x-merchant-id': args.merchantId,
        'x-timestamp': ts,
        'x-signature': signature.toString('base64'),
      },
    };
  };
}

/**
 * The invoice history bench:invoices, bench:reports and bench:scale measure, in a migrated database with its reference
 * data: the demo seed, 100,000 customers of the demo merchant, then `rows` invoices of it over the last 365 days
 * (created_at ascending with the row, as a live table fills), on its terminals in turn, with a fixed mix of statuses
 * and amounts, each on a production provider account of its currency; then VACUUM ANALYZE. Loaded by generate_series
 * in chunks of 250,000 rows (loadInvoices). Returns the demo merchant's id.
 */
export async function loadInvoiceHistory(
  dbh: DbHandle,
  opts: { rows: number; dataDir: string; log: (line: string) => void; settled?: boolean },
): Promise<string> {
  const config = loadConfig(
    { NODE_ENV: 'development' },
    { workers: false, dataDir: opts.dataDir, dataEncryptionKeyFile: benchKeyFile() },
  );
  const demo = await seedDemoIfEmpty(await createContext(dbh, config), { writeFile: false });
  if (!demo) throw new Error('demo seed did not run');
  const m = demo.merchantId;
  await dbh.pool.query(
    `INSERT INTO customers (merchant_id, external_id, first_name, last_name)
     SELECT $1, 'bench-cust-' || g, 'First' || (g % 97), 'Last' || (g % 389) FROM generate_series(1, 100000) g`,
    [m],
  );
  await loadInvoices(dbh, m, { rows: opts.rows, log: opts.log, settled: opts.settled });
  return m;
}

/** The statuses of the loaded invoices, in turn: half DONE, some open. */
const STATUS_MIX = [
  'DONE',
  'DONE',
  'DONE',
  'DONE',
  'DONE',
  'DONE',
  'CANCELED',
  'CANCELED',
  'DECLINED',
  'NEW',
  'IN_PROGRESS',
  'PAYED',
];
/** Those of invoices long past their expiry: every one ended (the mix's open ones DONE or CANCELED). */
const SETTLED = STATUS_MIX.map((s) => ({ NEW: 'CANCELED', IN_PROGRESS: 'DONE', PAYED: 'DONE' })[s] ?? s);

/**
 * `rows` more invoices of merchant `m` as loadInvoiceHistory loads them (the demo seed and the bench customers there
 * already): spread evenly over `days` days that end `endDaysAgo` days ago (365 and 0: the last year), their
 * merchant ids numbered from `first` (bench-<n>, unique per load), then VACUUM ANALYZE. `settled`: every one ended,
 * as invoices years old are.
 */
export async function loadInvoices(
  dbh: DbHandle,
  m: string,
  opts: {
    rows: number;
    log: (line: string) => void;
    days?: number;
    endDaysAgo?: number;
    first?: number;
    settled?: boolean;
  },
) {
  const q = (text: string, params: unknown[] = []) => dbh.pool.query(text, params);
  const seconds = (t0: bigint) => (Number(process.hrtime.bigint() - t0) / 1e9).toFixed(1);
  const days = opts.days ?? 365;
  const first = opts.first ?? 1;
  const last = first + opts.rows - 1;
  let t0 = process.hrtime.bigint();
  const CHUNK = 250_000;
  for (let from = first; from <= last; from += CHUNK) {
    const to = Math.min(last, from + CHUNK - 1);
    await q(
      `WITH t AS (SELECT array_agg(t.id ORDER BY t.name) ids, array_agg(t.flow_type ORDER BY t.name) flows,
                         array_agg(t.currency_id ORDER BY t.name) cur, array_agg(t.is_test ORDER BY t.name) test,
                         array_agg((SELECT min(a.id) FROM provider_accounts a JOIN payment_methods pm ON pm.id = a.payment_method_id
                                    JOIN providers p ON p.id = a.provider_id
                                    WHERE pm.currency_id = t.currency_id AND NOT p.is_sandbox) ORDER BY t.name) acc,
                         count(*)::int n
                  FROM terminals t WHERE t.merchant_id = $1),
            c AS (SELECT array_agg(id) ids, count(*)::int n FROM customers WHERE merchant_id = $1 AND external_id LIKE 'bench-cust-%')
       INSERT INTO invoices (merchant_id, terminal_id, merchant_invoice_id, provider_invoice_id, form_id, flow_type, status,
                             amount, fee, currency_id, customer_id, is_test, expires_at, status_date, created_at, account_id)
       SELECT $1, t.ids[x.k], 'bench-' || g, CASE WHEN g % 5 <> 0 THEN 'PRV' || g END, 'bench-form-' || g, t.flows[x.k],
              ($7::text[])[1 + (g * 7) % 12],
              10000 + (g::bigint * 7919) % 5000000, ((10000 + (g::bigint * 7919) % 5000000) * 25) / 1000, t.cur[x.k],
              c.ids[1 + g % c.n], t.test[x.k], x.ts + interval '30 minutes', x.ts + interval '7 minutes', x.ts, t.acc[x.k]
       FROM generate_series($2::int, $3::int) g, t, c,
            LATERAL (SELECT 1 + (g % t.n) AS k,
                            (now() - ($5::int + $6::int) * interval '1 day') + (g - $8::int) * ($4::float8 * interval '1 second') AS ts) x`,
      [m, from, to, (days * 86400) / opts.rows, opts.endDaysAgo ?? 0, days, opts.settled ? SETTLED : STATUS_MIX, first],
    );
    opts.log(`  loaded ${(to - first + 1).toLocaleString('en')} invoices (${seconds(t0)} s)`);
  }
  t0 = process.hrtime.bigint();
  await q('VACUUM ANALYZE invoices');
  await q('VACUUM ANALYZE customers');
  opts.log(`  VACUUM ANALYZE ${seconds(t0)} s`);
}

/**
 * The ledger of every DONE bench invoice of merchant `m` as the engine posts it (deposit: merchant credited net of
 * fee, fee to fees; withdrawal: merchant debited amount + fee; the provider account's side), a month of invoices per
 * statement (each posting fires the day totals' trigger), and the balances the ledger keeps; then VACUUM ANALYZE.
 */
export async function loadInvoiceLedger(dbh: DbHandle, m: string, log: (line: string) => void) {
  const q = (text: string, params: unknown[] = []) => dbh.pool.query(text, params);
  const seconds = (t0: bigint) => (Number(process.hrtime.bigint() - t0) / 1e9).toFixed(1);
  let t0 = process.hrtime.bigint();
  const { rows } = await q(
    `SELECT date_trunc('month', min(created_at)) AS first, max(created_at) AS last FROM invoices
     WHERE merchant_id = $1 AND merchant_invoice_id LIKE 'bench-%'`,
    [m],
  );
  const last = new Date(rows[0].last as Date);
  for (let from = new Date(rows[0].first as Date); from <= last;) {
    const to = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1));
    await q(
      `INSERT INTO ledger_entries (tx_id, account, merchant_id, terminal_id, provider_account_id, invoice_id, currency_id,
                                   amount, kind, book, created_at)
       SELECT gen_random_uuid(), l.account, CASE WHEN l.account <> 'provider_account' THEN i.merchant_id END, i.terminal_id,
              CASE WHEN l.account = 'provider_account' THEN i.account_id END, i.id, i.currency_id, l.amount, 'bench',
              CASE WHEN i.is_test THEN 'test' ELSE 'live' END, i.status_date
       FROM invoices i, LATERAL (VALUES
         ('merchant', CASE WHEN i.flow_type = 'DEPOSIT' THEN -(i.amount - i.fee) ELSE i.amount + i.fee END),
         ('fees', -i.fee),
         ('provider_account', CASE WHEN i.flow_type = 'DEPOSIT' THEN i.amount ELSE -i.amount END)) AS l(account, amount)
       WHERE i.merchant_id = $1 AND i.status = 'DONE' AND i.merchant_invoice_id LIKE 'bench-%'
         AND i.created_at >= $2 AND i.created_at < $3`,
      [m, from, to],
    );
    from = to;
  }
  await q(
    `INSERT INTO ledger_balances (key, book, account, merchant_id, provider_account_id, currency_id, balance)
     SELECT e.book || ':' || e.account || ':' || COALESCE(e.merchant_id::text, e.provider_account_id::text, 'none') || ':' || e.currency_id,
            e.book, e.account, e.merchant_id, e.provider_account_id, e.currency_id, SUM(e.amount)
     FROM ledger_entries e WHERE e.kind = 'bench' GROUP BY 1, 2, 3, 4, 5, 6
     ON CONFLICT (key) DO UPDATE SET balance = ledger_balances.balance + excluded.balance`,
  );
  log(`  ledger ${seconds(t0)} s`);
  t0 = process.hrtime.bigint();
  for (const table of ['ledger_entries', 'ledger_balances']) await q(`VACUUM ANALYZE ${table}`);
  log(`  VACUUM ANALYZE ${seconds(t0)} s`);
}
