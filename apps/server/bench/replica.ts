/**
 * What a read replica takes off the primary (docs/benchmarks.md, "Exports on a replica"): the merchant API's p99 on
 * the primary while CSV exports run one after another, against its quiet p99 measured in the same run. Target: with
 * the exports on a replica, at most 1.2× quiet.
 *
 *   npm run bench:replica   (BENCH_ROWS=300000 BENCH_SECONDS=20 BENCH_RATE=200 BENCH_CONNECTIONS=8)
 *
 * A PostgreSQL 15 cluster of the bench's own and a streaming replica of it (pg_basebackup -R, started with pg_ctl on
 * another port; this needs root or the postgres user, as .ci/run's replica lane), a database with the demo seed and
 * BENCH_ROWS invoices of the demo merchant over the last year. Two hosts, as a deployment with a replica has them,
 * are this machine's two CPUs (taskset): CPU 0 runs the primary, the server process the merchant API is sent to and
 * the load generator (autocannon, in this process); CPU 1 runs the replica, a second server process that serves the
 * exports, and the client downloading them (curl). The merchant API creates signed deposits at BENCH_RATE a second
 * for BENCH_SECONDS quiet, then again while the owner downloads the one-year invoice report (BENCH_ROWS rows) over and
 * over from the second process: first with DATABASE_REPLICA_URL naming the replica, then without (its exports read
 * the primary, on CPU 0). The long reads' counter of /metrics shows where the exports ran.
 */
import { execFile, spawn } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
import { promisify } from 'node:util';
// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon';
import path from 'node:path';
import { createDb, runMigrations } from '../src/db/create-db';
import { ensureReferenceData } from '../src/db/seed/reference-data';
import { loadConfig } from '../src/config';
import { seedDemoIfEmpty } from '../src/db/seed';
import { createContext } from '../src/lib/context';
import type { ReplicaStatus } from '../src/lib/replicas';
import { startCluster, type Cluster } from '../test/pg-cluster';
import {
  benchKeyFile,
  loadAverage as load,
  loadInvoices,
  signedCreateRequest,
  signInCookie,
  sqlOn,
  startServer,
  withDb,
} from './lib';

const ROWS = Number(process.env.BENCH_ROWS ?? 300_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const dataDir = path.join(repoRoot, '.tmp/bench-replica');
const log = (line: string) => console.log(line);

const run = promisify(execFile);
/** Keeps a process and its threads on `cpus`. */
const pin = (pid: number, cpus: string) => run('taskset', ['-a', '-p', '-c', cpus, String(pid)]);

type Result = { latency: { p50: number; p99: number }; non2xx: number; '2xx': number; errors: number };

async function main() {
  let primary: Cluster | undefined;
  let replica: Cluster | undefined;
  const servers: { stop: () => Promise<void> }[] = [];
  try {
    primary = await startCluster();
    await sqlOn(primary.url, 'CREATE DATABASE paydesk');
    const url = withDb(primary.url, 'paydesk');
    const dbh = await createDb({ databaseUrl: url, poolMax: 4 });
    await runMigrations(dbh);
    await ensureReferenceData(dbh.db);
    const config = loadConfig(
      { NODE_ENV: 'development' },
      { workers: false, dataDir, dataEncryptionKeyFile: benchKeyFile() },
    );
    const demo = await seedDemoIfEmpty(await createContext(dbh, config), { writeFile: false });
    if (!demo) throw new Error('demo seed did not run');
    await dbh.pool.query(
      `INSERT INTO customers (merchant_id, external_id, first_name, last_name)
       SELECT $1, 'bench-cust-' || g, 'First' || (g % 97), 'Last' || (g % 389) FROM generate_series(1, 100000) g`,
      [demo.merchantId],
    );
    await loadInvoices(dbh, demo.merchantId, { rows: ROWS, log });
    await dbh.close();
    replica = await primary.replica();
    const replicaUrl = withDb(replica.url, 'paydesk');
    for (let i = 0; ; i++) {
      const { rows } = await sqlOn(
        replicaUrl,
        'SELECT pg_is_in_recovery() AS standby, count(*)::int AS n FROM invoices',
      );
      if (rows[0].standby && rows[0].n >= ROWS) break;
      if (i > 600) throw new Error('the replica did not catch up');
      await new Promise((r) => setTimeout(r, 100));
    }
    log(`Primary ${primary.url}, replica ${replica.url} (in recovery); ${ROWS.toLocaleString('en')} invoices`);

    const terminal = demo.terminals.find((t) => t.flowType === 'DEPOSIT' && t.currency === 'UZS' && !t.isTest)!;
    const key = createPrivateKey(demo.privateKeyPem);
    const apiPath = '/api/merchant/v1/invoices';
    // one sequence of merchantInvoiceIds for every run: ids never repeat
    const setupRequest = signedCreateRequest({
      merchantId: demo.merchantId,
      terminalId: terminal.id,
      key,
      path: apiPath,
    });
    const day = (msAgo: number) => new Date(Date.now() - msAgo).toISOString().slice(0, 10);
    const report = `/api/v1/report/invoice?periodStart=${day(364 * 86_400_000)}&periodEnd=${day(0)}`;

    await primary.pin('0');
    await replica.pin('1');
    await pin(process.pid, '0');
    const api = await startServer(
      url,
      { WORKERS: 'false', DATA_DIR: dataDir, REQUIRE_2FA_PLATFORM: 'false', COOKIE_SECURE: 'false' },
      { compiled: true },
    );
    servers.push(api);
    await pin(api.pid, '0');
    const runApi = (seconds: number): Promise<Result> =>
      autocannon({
        url: api.target,
        connections: CONNECTIONS,
        overallRate: RATE,
        duration: seconds,
        requests: [{ method: 'POST', path: apiPath, setupRequest }],
      });
    await runApi(5); // warm-up

    const rows: string[] = [];
    for (const side of ['replica', 'primary'] as const) {
      const exportsServer = await startServer(
        url,
        {
          WORKERS: 'false',
          DATA_DIR: dataDir,
          REQUIRE_2FA_PLATFORM: 'false',
          COOKIE_SECURE: 'false',
          ...(side === 'replica' ? { DATABASE_REPLICA_URL: replicaUrl } : {}),
        },
        { compiled: true },
      );
      servers.push(exportsServer);
      await pin(exportsServer.pid, '1');
      const cookie = await signInCookie(exportsServer.target, 'owner');
      const quiet = await runApi(SECONDS);
      // the downloads: curl on CPU 1, one after another, for as long as the busy run lasts (and a little more)
      const exporter = spawn(
        'taskset',
        [
          '-c',
          '1',
          'sh',
          '-c',
          `n=0; end=$(($(date +%s) + ${SECONDS + 2})); while [ $(date +%s) -lt $end ]; do ` +
            `curl -sf -o /dev/null -w '%{size_download}\\n' -H 'cookie: ${cookie}' '${exportsServer.target}${report}' || exit 1; done`,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      let out = '';
      exporter.stdout.on('data', (c: Buffer) => (out += c.toString()));
      const ended = new Promise<number | null>((resolve) => exporter.on('close', resolve));
      // what the exporting process sees of the replica while it runs (/api/ready: its lag, or why it was passed over)
      const seenLag: string[] = [];
      const watch = setInterval(() => {
        void fetch(`${exportsServer.target}/api/ready`)
          .then((r) => r.json() as Promise<{ replicas?: ReplicaStatus[] }>)
          .then((b) => {
            for (const r of b.replicas ?? []) if (!r.used) seenLag.push(r.error ?? `lag ${r.lagMs} ms`);
          })
          .catch(() => undefined);
      }, 250);
      await new Promise((r) => setTimeout(r, 1000));
      const busy = await runApi(SECONDS);
      const code = await ended;
      clearInterval(watch);
      if (seenLag.length)
        log(`  the ${side} run's exporting process passed the replica over: ${[...new Set(seenLag)].join('; ')}`);
      if (code !== 0) throw new Error(`the export client failed (${code})`);
      const sizes = out.trim().split('\n').filter(Boolean).map(Number);
      const metrics = await (await fetch(`${exportsServer.target}/metrics`)).text();
      const where = [...metrics.matchAll(/^paydesk_long_reads_total\{on="(\w+)"\} (\d+)/gm)]
        .map((m) => `${m[1]} ${m[2]}`)
        .join(', ');
      const row = (label: string, r: Result) =>
        `| ${label} | ${Math.round(r['2xx'] / SECONDS)} | ${r.latency.p50} | ${r.latency.p99} | ${r.non2xx + r.errors} |`;
      rows.push(row('quiet', quiet));
      rows.push(
        row(
          `exports from the ${side}: ${sizes.length} one-year reports, ` +
            `${(sizes.reduce((a, b) => a + b, 0) / 1048576).toFixed(0)} MB (long reads: ${where})`,
          busy,
        ),
      );
      rows.push(`| p99 ÷ quiet p99 | | | **${(busy.latency.p99 / quiet.latency.p99).toFixed(2)}** | |`);
      await exportsServer.stop();
      servers.pop();
    }
    log(`\nmerchant API at ${RATE} creates/s, ${CONNECTIONS} connections, ${SECONDS} s each; load average ${load()}`);
    log('| merchant API on the primary | creates/s | p50 ms | p99 ms | errors |\n| --- | --- | --- | --- | --- |');
    for (const r of rows) log(r);
  } finally {
    for (const s of servers) await s.stop();
    await replica?.destroy();
    await primary?.destroy();
  }
}

await main();
