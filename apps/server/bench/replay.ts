/**
 * Bulk callback replay against the merchant API: the merchant API's p99 while a replay of 10,000 deliveries is queued
 * and every one of them delivered, against its quiet p99 measured in the same run (target: at most 2×).
 *
 *   npm run bench:replay   (BENCH_DELIVERIES=10000 BENCH_SECONDS=20 BENCH_CONNECTIONS=16 BENCH_REPLAY_PER_SECOND=100)
 *
 * A fresh PostgreSQL database with the demo seed and BENCH_DELIVERIES delivered callbacks of Demo Merchant (one
 * invoice each) pointing at a receiver in this process that answers 204; the server runs in its own process with its
 * workers on, sending replays at BENCH_REPLAY_PER_SECOND (its CALLBACK_REPLAY_PER_SECOND). Quiet: autocannon creates
 * signed deposits for BENCH_SECONDS. Then the owner replays every delivered callback (POST /api/v1/callbacks/replay)
 * and the same load runs again, from the moment the replay is asked for until its last delivery is due (the count
 * over the rate) and a few seconds more; the bench fails unless the receiver got every replayed delivery by then.
 */
import http from 'node:http';
import { createPrivateKey } from 'node:crypto';
// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon';
import { loadConfig } from '../src/config';
import { seedDemoIfEmpty } from '../src/db/seed';
import { createContext } from '../src/lib/context';
import {
  benchKeyFile,
  createBenchDatabase,
  dropBenchDatabase,
  signedCreateRequest,
  signInCookie,
  startServer,
} from './lib';

const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const REPLAY_PER_SECOND = Number(process.env.BENCH_REPLAY_PER_SECOND ?? 100);
const DB_NAME = 'paydesk_bench_replay';

async function main() {
  let received = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const hook = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;

  const { url, dbh } = await createBenchDatabase(DB_NAME);
  const config = loadConfig(
    { NODE_ENV: 'development' },
    { workers: false, dataDir: '.tmp/bench-replay', dataEncryptionKeyFile: benchKeyFile() },
  );
  const demo = await seedDemoIfEmpty(await createContext(dbh, config), { writeFile: false });
  if (!demo) throw new Error('demo seed did not run');
  const terminal = demo.terminals.find((t) => t.flowType === 'DEPOSIT' && t.currency === 'UZS' && !t.isTest)!;
  const q = (text: string, params: unknown[] = []) => dbh.pool.query(text, params);
  await q(`UPDATE terminals SET callback_url = $1 WHERE merchant_id = $2`, [hook, demo.merchantId]);
  await q(`UPDATE invoices SET callback_url = NULL WHERE merchant_id = $1`, [demo.merchantId]);
  await q(`UPDATE callbacks SET status = 'DELIVERED' WHERE status = 'PENDING'`);
  // the deliveries to replay: one delivered callback per invoice, as a day of traffic leaves them
  await q(
    `WITH t AS (SELECT id, currency_id FROM terminals WHERE id = $2)
     INSERT INTO invoices (merchant_id, terminal_id, merchant_invoice_id, form_id, flow_type, status, amount, fee,
                           currency_id, expires_at, status_date, created_at)
     SELECT $1, t.id, 'rp-' || g, 'rp-form-' || g, 'DEPOSIT', 'DONE', 100000 + g, 0, t.currency_id,
            now() - interval '1 hour', now() - interval '2 hours', now() - interval '3 hours' + g * interval '1 second'
     FROM generate_series(1, $3::int) g, t`,
    [demo.merchantId, terminal.id, DELIVERIES],
  );
  await q(
    `INSERT INTO callbacks (invoice_id, merchant_id, url, payload, invoice_status, status, attempts, create_date,
       next_attempt_at, execution_date)
     SELECT i.id, i.merchant_id, $1,
       jsonb_build_object('type', 'invoice.status', 'invoiceId', i.id, 'merchantInvoiceId', i.merchant_invoice_id,
         'flowType', 'DEPOSIT', 'status', 'DONE', 'amount', i.amount, 'currency', 'UZS', 'isTest', false,
         'statusDate', to_char(i.status_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
       'DONE', 'DELIVERED', 1, i.created_at, i.created_at, i.created_at
     FROM invoices i WHERE i.merchant_invoice_id LIKE 'rp-%'`,
    [hook],
  );
  await q('VACUUM ANALYZE');
  await dbh.close();

  const server = await startServer(url, {
    WORKERS: 'true',
    CALLBACK_ALLOW_PRIVATE: 'true',
    CALLBACK_REPLAY_PER_SECOND: String(REPLAY_PER_SECOND),
  });
  try {
    const key = createPrivateKey(demo.privateKeyPem);
    const apiPath = '/api/merchant/v1/invoices';
    // one sequence of merchantInvoiceIds for every run (warm-up included): ids never repeat
    const setupRequest = signedCreateRequest({
      merchantId: demo.merchantId,
      terminalId: terminal.id,
      key,
      path: apiPath,
    });
    const load = (seconds: number): Promise<{ latency: { p99: number; p50: number }; non2xx: number; '2xx': number }> =>
      autocannon({
        url: server.target,
        connections: CONNECTIONS,
        duration: seconds,
        requests: [
          {
            method: 'POST',
            path: apiPath,
            setupRequest,
          },
        ],
      });
    await load(5); // warm-up
    const quiet = await load(SECONDS);
    const cookie = await signInCookie(server.target, 'owner');
    const ask = (preview: boolean) =>
      fetch(`${server.target}/api/v1/callbacks/replay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie, origin: server.target },
        body: JSON.stringify({ status: 'DELIVERED', preview }),
      });
    // the window: until the last replayed delivery is due, and a few seconds for the worker to send it
    const { count: expected, perSecond } = (
      (await (await ask(true)).json()) as { data: { count: number; perSecond: number } }
    ).data;
    const windowSeconds = Math.ceil(expected / perSecond) + 5;
    const before = received;
    const during = load(windowSeconds);
    const t0 = performance.now();
    const replay = await ask(false);
    const queuedMs = performance.now() - t0;
    if (replay.status !== 202) throw new Error(`replay: ${replay.status} ${await replay.text()}`);
    const { count } = ((await replay.json()) as { data: { count: number } }).data;
    const busy = await during;
    const delivered = received - before;
    console.log(
      `\nreplay of ${count.toLocaleString('en')} deliveries at ${perSecond} a second, queued in ` +
        `${queuedMs.toFixed(0)} ms; ${delivered.toLocaleString('en')} delivered during the ${windowSeconds} s window`,
    );
    console.log(
      `| merchant API (${CONNECTIONS} connections) | seconds | creates/s | p50 ms | p99 ms | non-2xx |\n` +
        '| --- | --- | --- | --- | --- | --- |',
    );
    const row = (label: string, r: Awaited<ReturnType<typeof load>>, s: number) =>
      console.log(
        `| ${label} | ${s} | ${Math.round(r['2xx'] / s)} | ${r.latency.p50} | ${r.latency.p99} | ${r.non2xx} |`,
      );
    row('quiet', quiet, SECONDS);
    row('during the replay', busy, windowSeconds);
    console.log(`p99 during / quiet: ${(busy.latency.p99 / quiet.latency.p99).toFixed(2)} (target ≤ 2)`);
    if (delivered < count)
      throw new Error(`only ${delivered} of the ${count} replayed deliveries arrived in the window`);
  } finally {
    await server.stop();
    receiver.close();
    if (!process.env.BENCH_KEEP) await dropBenchDatabase(DB_NAME);
  }
}

await main();
