import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { MERCHANT_API_PREFIX, PAYMENT_FORM_PREFIX, PROVIDER_API_PREFIX } from '@paydesk/contracts';
import type { DbHandle } from '../../db/create-db';
import type { DemoMerchantFile } from '../../db/seed';
import { createTestDb, DEMO_PASSWORD } from '../../../test/harness';
import { withDatabase } from '../../../test/global-setup';
import { invoiceBody, merchantSigner, type Signer } from '../../../test/merchant-client';
import { startServer, stopServer, type ServerProcess } from '../../../test/server-process';
import { DEMO_RECEIVER_PATH } from '../callbacks/demo-receiver';
import { reconcileLedger } from '../ledger/reconcile';
import { checkMoneyInvariants } from './invariants.testkit';

/**
 * Scale-out (the issue "money invariants"): TWO real server processes — the command production runs
 * (`tsx src/server.ts`, apps/server "start") — on ONE PostgreSQL database, workers on in both, the way
 * users scale out. A random workload of every actor goes over HTTP to both processes alternately,
 * several operations at a time; then the workers of both settle what is left, and the database must
 * show: no provider transaction issued twice, every callback event delivered under one webhook-id,
 * the ledger reconciled. Only on PostgreSQL (PGlite serves one process).
 *
 * The merchant's endpoint is a receiver in this test that verifies every Standard Webhooks signature and
 * records each request (the built-in demo receiver records nothing); while the workload runs it refuses a
 * quarter of the events once, so their retries must come under the same webhook-id. A fifth of the
 * invoices sends its callbacks to the built-in demo receiver of process A instead.
 *
 * SCALE_OUT_STEPS (operations, default 150), SCALE_OUT_CONCURRENCY (default 6), SCALE_OUT_SEED. Most of a
 * default run (~75 s) is the wait for invoices created with the shortest lifetime (60 s) to be expired
 * by the expiry workers; CI runs 12000 operations (~2–3 min).
 */
const PG_URL = process.env.DATABASE_URL;
const STEPS = Number(process.env.SCALE_OUT_STEPS ?? 150);
const CONCURRENCY = Number(process.env.SCALE_OUT_CONCURRENCY ?? 6);
const SEED = Number(process.env.SCALE_OUT_SEED ?? 20261124);
/** The sandbox answers a test transaction this long after it is issued. */
const SANDBOX_DELAY_MS = 300;
/** What each server process is started with beside what startServer sets. */
const SERVER_ENV = { WORKERS: 'true', SANDBOX_DELAY_MS: String(SANDBOX_DELAY_MS), PG_POOL_MAX: '8' };
/** How long the workers get to settle the outbox and the sandbox once the workload is over. */
const SETTLE_TIMEOUT_MS = 120_000;

/** Error-level lines (pino level ≥ 50) a process logged: worker tick failures, 5xx answers. */
function errorLines(p: ServerProcess) {
  return p.output.filter((l) => {
    try {
      return (JSON.parse(l) as { level?: number }).level! >= 50;
    } catch {
      return /error/i.test(l);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// The merchant's callback endpoint: verifies Standard Webhooks signatures and records every request

type Delivery = { id: string; timestamp: string; body: string; answered: number; verified: boolean };

async function startRecordingReceiver(secrets: () => string[], neverRefuse: ReadonlySet<string>) {
  const deliveries: Delivery[] = [];
  const refusedOnce = new Set<string>();
  const state = { refusing: true };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(req.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
      };
      const verified = secrets().some((s) => {
        try {
          new Webhook(s).verify(body, headers);
          return true;
        } catch {
          return false;
        }
      });
      const id = headers['webhook-id'];
      // while the workload runs, a quarter of the events is refused once: their retry must reuse the id
      let answered = verified ? 204 : 401;
      if (verified && state.refusing && /^[0-3]/.test(id) && !refusedOnce.has(id) && !neverRefuse.has(id)) {
        refusedOnce.add(id);
        answered = 503;
      }
      deliveries.push({ id, timestamp: headers['webhook-timestamp'], body, answered, verified });
      // a little latency, so that deliveries of the two processes overlap
      setTimeout(() => res.writeHead(answered, { 'content-type': 'text/plain' }).end('ok'), Math.random() * 150);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    deliveries,
    state,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// The workload

type Op =
  | {
      kind: 'create';
      flow: 'DEPOSIT' | 'WITHDRAWAL';
      test: boolean;
      amount: number;
      shortExpiry: boolean;
      demoReceiver: boolean;
      duplicate: boolean;
    }
  | { kind: 'requisites'; i: number }
  | { kind: 'complete'; i: number }
  | { kind: 'provider'; i: number; paid: boolean }
  | { kind: 'status'; i: number; statusId: number; withAccount: boolean }
  | { kind: 'amount'; i: number; amount: number }
  | { kind: 'retry'; i: number }
  | { kind: 'cancel'; i: number }
  | { kind: 'callback'; i: number };

function opArbitrary(): fc.Arbitrary<Op> {
  const i = fc.nat(1000);
  // amounts ending in 13 are declined by the sandbox: payouts then go through automatic retries
  const amount = fc.constantFrom(1_000_00, 5_000_00, 5_000_13, 50_000_00, 77_777_13, 123_456_00, 1_500_000_00);
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({
        kind: fc.constant('create' as const),
        flow: fc.constantFrom('DEPOSIT' as const, 'WITHDRAWAL' as const),
        test: fc.boolean(),
        amount,
        shortExpiry: fc.boolean(),
        demoReceiver: fc.nat(4).map((n) => n === 0),
        duplicate: fc.nat(5).map((n) => n === 0),
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('requisites' as const), i }) },
    { weight: 5, arbitrary: fc.record({ kind: fc.constant('complete' as const), i }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('provider' as const), i, paid: fc.boolean() }) },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('status' as const),
        i,
        statusId: fc.integer({ min: 1, max: 6 }),
        withAccount: fc.boolean(),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('amount' as const), i, amount }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('retry' as const), i }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), i }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('callback' as const), i }) },
  );
}

/** `ip`: the customer's address (X-Forwarded-For; the servers trust it): each customer has its own rate limit. */
type Inv = { id: string; formId: string; flow: 'DEPOSIT' | 'WITHDRAWAL'; test: boolean; ip: string };
type Res = { status: number; text: string; json: any };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------

describe.skipIf(!PG_URL)('two server processes on one PostgreSQL (workers in both)', () => {
  let dbh: DbHandle;
  let demo: DemoMerchantFile;
  let sign: Signer;
  let procs: ServerProcess[] = [];
  let rx: Awaited<ReturnType<typeof startRecordingReceiver>>;
  let webhookSecrets: string[] = [];
  let runStart: Date;

  const q = async <T extends Record<string, unknown>>(s: ReturnType<typeof sql>) => (await dbh.db.execute<T>(s)).rows;

  /** What happened to an invoice, for a finding's report: its provider transactions and event log. */
  const history = async (ids: unknown[]) => {
    const out: Record<string, unknown> = {};
    for (const id of [...new Set(ids.map(String))].slice(0, 5)) {
      out[id] = {
        transactions: await q(sql`SELECT id, type, status, attempt, create_date, status_date
            FROM provider_transactions WHERE invoice_id = ${id} ORDER BY create_date, id`),
        events: (
          await q<{ t: string; code: string; actor: string; d: string }>(sql`SELECT event_time AS t, code,
              data->>'actor' AS actor, description AS d FROM event_log WHERE invoice_id = ${id} ORDER BY event_time, id`)
        ).map((e) => `${new Date(e.t).toISOString()} ${e.code} (${e.actor}) ${e.d}`),
      };
    }
    return out;
  };

  beforeAll(async () => {
    dbh = await createTestDb();
    demo = JSON.parse(fs.readFileSync(inject('demoFile'), 'utf8')) as DemoMerchantFile;
    sign = merchantSigner(demo.merchantId, demo.privateKeyPem);
    const { name } = (await q<{ name: string }>(sql`SELECT current_database() AS name`))[0]!;
    const secrets = await q<{ s: string; p: string | null }>(
      sql`SELECT webhook_secret AS s, previous_webhook_secret AS p FROM merchants`,
    );
    webhookSecrets = secrets.flatMap((r) => [r.s, r.p]).filter((s): s is string => !!s);
    // the seeded outbox holds old events: one refusal would make them give up (72 h), so they are never refused
    const seededPending = await q<{ id: string }>(sql`SELECT id FROM callbacks WHERE status = 'PENDING'`);
    rx = await startRecordingReceiver(() => webhookSecrets, new Set(seededPending.map((r) => r.id)));
    // every callback of this database goes to the recording receiver (the seed points them at a demo
    // receiver on port 3000): terminals, invoices that name one, and the seeded outbox, due at once
    await dbh.db.execute(sql`UPDATE terminals SET callback_url = ${rx.url} WHERE callback_url IS NOT NULL`);
    await dbh.db.execute(sql`UPDATE invoices SET callback_url = ${rx.url} WHERE callback_url IS NOT NULL`);
    await dbh.db.execute(sql`UPDATE callbacks SET url = ${rx.url}, next_attempt_at = now() WHERE status = 'PENDING'`);
    runStart = new Date();
    // both at once, as an orchestrator starts replicas: both migrate and check reference data at start
    const starting = await Promise.allSettled(
      ['A', 'B'].map((n) => startServer(n, withDatabase(PG_URL!, name), SERVER_ENV)),
    );
    procs = starting.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    // a test runner that dies leaves no server behind
    process.once('exit', () => procs.forEach((p) => p.alive && p.child.kill('SIGKILL')));
    const failed = starting.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  }, 180_000);

  afterAll(async () => {
    await Promise.all(procs.map((p) => stopServer(p)));
    await rx?.close();
    await dbh?.close();
  }, 60_000);

  it(
    `${STEPS} random operations over both processes, ${CONCURRENCY} at a time: no payout twice, one webhook-id per event, books reconciled`,
    async () => {
      const started = Date.now();
      const [A, B] = procs as [ServerProcess, ServerProcess];
      const demoUrl = `${A.base}${DEMO_RECEIVER_PATH}`;
      const invoices: Inv[] = [];
      /** When the last invoice created with the shortest lifetime (60 s) expires: the expiry workers cancel it. */
      let lastShortExpiry = 0;
      const problems: string[] = [];
      const histogram = new Map<string, number>();
      const log: string[] = [];
      let requestNo = 0;
      /** Requests alternate between the two processes. */
      const nextProc = () => procs[requestNo++ % 2]!;

      async function call(
        what: string,
        method: string,
        url: string,
        opts: { headers?: Record<string, string>; body?: unknown; raw?: string; proc?: ServerProcess } = {},
      ): Promise<Res> {
        const p = opts.proc ?? nextProc();
        const body = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
        const headers = {
          ...(body !== undefined && !opts.raw ? { 'content-type': 'application/json' } : {}),
          ...opts.headers,
        };
        let res: Res;
        try {
          const r = await fetch(p.base + url, { method, headers, body });
          const text = await r.text();
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          res = { status: r.status, text, json };
        } catch (err) {
          problems.push(`${what} on ${p.name}: request failed: ${(err as Error).message}`);
          res = { status: 0, text: '', json: undefined };
        }
        const key = `${what} ${res.status}`;
        histogram.set(key, (histogram.get(key) ?? 0) + 1);
        log.push(`${p.name} ${what} → ${res.status}`);
        if (res.status >= 500) problems.push(`${what} on ${p.name}: ${res.status} ${res.text.slice(0, 500)}`);
        return res;
      }

      const signed = (what: string, method: 'GET' | 'POST', url: string, body?: unknown, proc?: ServerProcess) => {
        const r = sign(method, url, body);
        return call(what, method, url, { headers: r.headers, raw: r.raw || undefined, proc });
      };

      // staff: one sign-in on A; the session cookie is good on B (the JWT secret is in the database)
      const login = await fetch(`${A.base}/api/v1/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'ops', password: DEMO_PASSWORD }),
      });
      expect(login.status).toBe(200);
      const jwt = login.headers.getSetCookie().find((c) => c.startsWith('jwt='));
      expect(jwt).toBeTruthy();
      const cookie = jwt!.split(';')[0]!;
      // as the back-office's pages send them: the browser says a same-origin page made the change (plugins/csrf.ts)
      const staff = (what: string, method: string, url: string, body: unknown) =>
        call(what, method, `${url}?merchantId=${demo.merchantId}`, {
          headers: { cookie, 'sec-fetch-site': 'same-origin' },
          body,
        });
      // declined payouts are retried automatically (by whichever process's sandbox worker answers)
      const setting = await staff('settings', 'POST', '/api/v1/settings/settings.withdrawal.retry.auto.enable', {
        value: 'true',
      });
      expect(setting.status).toBe(200);

      // "at any time": a sampler watches for two PENDING transactions of one invoice while the workload runs
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          const both = await q<{ invoice_id: string; ids: string[] }>(sql`
            SELECT invoice_id, array_agg(id ORDER BY create_date, id) AS ids FROM provider_transactions WHERE status = 'PENDING'
            GROUP BY invoice_id HAVING count(*) > 1`);
          for (const r of both) {
            const msg = `two PENDING provider transactions at once: ${JSON.stringify(r)}`;
            if (!problems.includes(msg)) problems.push(msg);
          }
          await sleep(250);
        }
      })();

      /** Later operations act mostly on recent invoices, so that each invoice sees several actors. */
      const pick = (i: number) =>
        invoices.length ? invoices[invoices.length - 1 - (i % Math.min(invoices.length, 25))] : undefined;

      async function run(op: Op) {
        if (op.kind === 'create') {
          const terminal = demo.terminals.find(
            (x) => x.flowType === op.flow && x.isTest === op.test && x.currency === 'UZS',
          )!;
          const body = invoiceBody(terminal, {
            amount: op.amount,
            ...(op.shortExpiry ? { expiresInSeconds: 60 } : {}),
            ...(op.demoReceiver ? { callbackUrl: demoUrl } : {}),
          });
          const url = `${MERCHANT_API_PREFIX}/invoices`;
          let res: Res;
          if (op.duplicate) {
            // the same request with one Idempotency-Key to both processes at once: one invoice
            const r = sign('POST', url, body, { 'idempotency-key': randomUUID() });
            const [ra, rb] = await Promise.all(
              [A, B].map((proc) =>
                call('create (idempotent, both)', 'POST', url, { headers: r.headers, raw: r.raw, proc }),
              ),
            );
            const ids = [ra!, rb!].filter((x) => x.status === 201).map((x) => x.json.data.invoiceId as string);
            if (new Set(ids).size > 1) problems.push(`one Idempotency-Key created two invoices: ${ids.join(', ')}`);
            res = ra!.status === 201 ? ra! : rb!;
          } else {
            res = await signed(`create ${op.flow}`, 'POST', url, body);
          }
          if (res.status === 201) {
            const { invoiceId, formId } = res.json.data as { invoiceId: string; formId: string };
            const n = invoices.length + 1;
            const ip = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
            invoices.push({ id: invoiceId, formId, flow: op.flow, test: op.test, ip });
            if (op.shortExpiry) lastShortExpiry = Date.now() + 60_000;
          }
          return;
        }
        const inv = pick(op.i);
        if (!inv) return;
        const form = `${PAYMENT_FORM_PREFIX}/${inv.formId}`;
        const customer = { 'x-forwarded-for': inv.ip };
        switch (op.kind) {
          case 'requisites':
          case 'complete': {
            const init = await call('form init', 'POST', `${form}/init`, { headers: customer });
            if (init.status !== 200) return;
            const { methods, amount } = init.json.data as { methods: { id: number }[]; amount: number };
            if (!methods.length) return;
            const cred = await call(`form credential ${inv.flow}`, 'POST', `${form}/credential`, {
              headers: customer,
              body: { amount, paymentMethodId: methods[0]!.id },
            });
            if (op.kind === 'requisites' || cred.status !== 200) return;
            // deposit: "Have paid"; withdrawal: payout details (a provider transaction is issued)
            await call(`form complete ${inv.flow}`, 'POST', `${form}/complete`, {
              headers: customer,
              body: inv.flow === 'WITHDRAWAL' ? { credential: '8600123456789012' } : {},
            });
            return;
          }
          case 'provider': {
            const [row] = await q<{ account_id: number | null; amount: string; code: string; txn: string | null }>(sql`
              SELECT i.account_id, i.amount::text, p.code,
                (SELECT pt.id FROM provider_transactions pt WHERE pt.invoice_id = i.id AND pt.status = 'PENDING'
                 ORDER BY pt.create_date DESC LIMIT 1) AS txn
              FROM invoices i LEFT JOIN provider_accounts a ON a.id = i.account_id
              LEFT JOIN providers p ON p.id = a.provider_id WHERE i.id = ${inv.id}`);
            if (!row?.account_id || !row.code) return;
            const headers = { authorization: `Bearer dev:${row.code}` };
            if (inv.flow === 'DEPOSIT') {
              await call('provider incoming', 'POST', `${PROVIDER_API_PREFIX}/incoming`, {
                headers,
                body: {
                  accountId: row.account_id,
                  amount: Number(row.amount),
                  occurredAt: new Date().toISOString(),
                  reference: `ref-${inv.id}-${requestNo}`,
                },
              });
            } else if (row.txn) {
              // on a test invoice this races the sandbox workers of both processes for the same transaction
              await call(
                `provider payout ${op.paid ? 'DONE' : 'DECLINED'}`,
                'POST',
                `${PROVIDER_API_PREFIX}/payouts/${row.txn}`,
                {
                  headers,
                  body: { status: op.paid ? 'DONE' : 'DECLINED' },
                },
              );
            }
            return;
          }
          case 'status': {
            let peopleAccountId: number | undefined;
            if (op.withAccount) {
              const [acc] = await q<{ id: number }>(sql`SELECT a.id FROM provider_accounts a
                JOIN payment_methods pm ON pm.id = a.payment_method_id JOIN providers p ON p.id = a.provider_id
                JOIN invoices i ON i.id = ${inv.id} AND pm.currency_id = i.currency_id AND p.is_sandbox = i.is_test
                ORDER BY a.id LIMIT 1`);
              peopleAccountId = acc?.id;
            }
            await staff(`operator status ${op.statusId}`, 'PATCH', '/api/v1/invoice/status', {
              invoiceId: inv.id,
              statusId: op.statusId,
              reason: 'scale-out run',
              peopleAccountId,
            });
            return;
          }
          case 'amount':
            await staff('operator amount', 'PATCH', '/api/v1/invoice/amount', {
              invoiceId: inv.id,
              amount: op.amount,
              reason: 'scale-out run',
            });
            return;
          case 'retry':
            await staff('operator retry', 'POST', '/api/v1/invoice/retry', { invoiceId: inv.id });
            return;
          case 'cancel':
            await signed('merchant cancel', 'POST', `${MERCHANT_API_PREFIX}/invoices/${inv.id}/cancel`);
            return;
          case 'callback':
            await staff('manual callback', 'POST', '/api/v1/merchant/callback', { invoiceId: inv.id });
            return;
        }
      }

      // ---- the workload: STEPS operations, CONCURRENCY at a time, over both processes
      const ops = fc.sample(opArbitrary(), { numRuns: STEPS, seed: SEED });
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < ops.length) {
            const op = ops[next++]!;
            try {
              await run(op);
            } catch (err) {
              problems.push(`operation ${JSON.stringify(op)} threw: ${(err as Error).stack}`);
            }
            if (procs.some((p) => !p.alive)) return;
          }
        }),
      );
      const workloadMs = Date.now() - started;
      for (const p of procs) if (!p.alive) problems.push(`server ${p.name} exited during the run`);

      // ---- let the workers of both processes settle: the sandbox answered, the invoices created to
      // expire canceled by the expiry workers, the outbox delivered (the receiver refuses nothing now)
      // refusals go on for 15 s at least (a short workload too sees events retried), then nothing is refused
      const refusalsEnd = setTimeout(() => (rx.state.refusing = false), Math.max(0, started + 15_000 - Date.now()));
      const settleStart = Date.now();
      type Left = { sandbox: number; expirable: number; callbacks: number; due: number };
      let left: Left = { sandbox: -1, expirable: -1, callbacks: -1, due: -1 };
      while (Date.now() - settleStart < SETTLE_TIMEOUT_MS) {
        left = (
          await q<Left>(sql`SELECT
          (SELECT count(*)::int FROM provider_transactions WHERE status = 'PENDING' AND sandbox_due_at IS NOT NULL) AS sandbox,
          (SELECT count(*)::int FROM invoices WHERE expires_at < now() AND (status = 'NEW'
             OR (flow_type = 'DEPOSIT' AND status = 'IN_PROGRESS'))) AS expirable,
          (SELECT count(*)::int FROM callbacks WHERE status = 'PENDING' AND (url = ${rx.url} OR url = ${demoUrl})) AS callbacks,
          (SELECT count(*)::int FROM callbacks WHERE status = 'PENDING' AND next_attempt_at <= now()) AS due`)
        )[0]!;
        if (Date.now() > lastShortExpiry + 1000 && Object.values(left).every((n) => n === 0)) break;
        await sleep(500);
      }
      const settleMs = Date.now() - settleStart;
      clearTimeout(refusalsEnd);
      sampling = false;
      await sampler;
      if (Object.values(left).some((n) => n !== 0)) {
        const stuck = await q<{ id: string }>(sql`
          (SELECT id FROM invoices WHERE expires_at < now()
             AND (status = 'NEW' OR (flow_type = 'DEPOSIT' AND status = 'IN_PROGRESS')) ORDER BY expires_at LIMIT 2)
          UNION ALL (SELECT invoice_id FROM provider_transactions WHERE status = 'PENDING' AND sandbox_due_at IS NOT NULL
             ORDER BY sandbox_due_at LIMIT 2)
          UNION ALL (SELECT invoice_id FROM callbacks WHERE status = 'PENDING' AND (url = ${rx.url} OR url = ${demoUrl})
             ORDER BY next_attempt_at LIMIT 2)`);
        problems.push(
          `not settled after ${SETTLE_TIMEOUT_MS / 1000} s: ${JSON.stringify(left)}; first of them: ${JSON.stringify(await history(stuck.map((r) => r.id)), null, 1)}`,
        );
      }
      // stop both (graceful): nothing changes any more while the database is checked
      await Promise.all(procs.map((p) => stopServer(p)));
      for (const p of procs) {
        const errors = errorLines(p);
        if (errors.length) problems.push(`server ${p.name} logged errors:\n${errors.slice(0, 10).join('\n')}`);
      }

      const runInvoices = sql`(SELECT id FROM invoices WHERE created_at >= ${runStart.toISOString()}::timestamptz)`;

      // ---- (a) no provider transaction issued twice
      // payouts are numbered per invoice (attempt 1, 2, 3…): a number twice is a payout sent twice. A deposit's
      // confirmation request is always attempt 1 (one after another when an operator reopens it): the
      // overlap check below covers deposits
      const duplicateAttempts = await q(sql`
        SELECT invoice_id, type, attempt, count(*)::int AS n, array_agg(id ORDER BY create_date) AS ids
        FROM provider_transactions WHERE invoice_id IN ${runInvoices} AND type = 'PAYOUT'
        GROUP BY invoice_id, type, attempt HAVING count(*) > 1`);
      const overlapping = await q(sql`
        SELECT a.invoice_id, a.id AS first, a.status AS first_status, b.id AS second, b.status AS second_status
        FROM provider_transactions a JOIN provider_transactions b ON b.invoice_id = a.invoice_id AND b.id <> a.id
          AND b.create_date >= a.create_date AND (a.create_date < b.create_date OR a.id < b.id)
        WHERE a.invoice_id IN ${runInvoices}
          AND b.create_date < CASE WHEN a.status = 'PENDING' THEN 'infinity'::timestamptz ELSE a.status_date END`);
      const pendingNow = await q(sql`SELECT invoice_id, count(*)::int AS n FROM provider_transactions
        WHERE status = 'PENDING' GROUP BY invoice_id HAVING count(*) > 1`);
      const twoPaid = await q(sql`SELECT invoice_id, array_agg(id) AS ids FROM provider_transactions
        WHERE type = 'PAYOUT' AND status = 'DONE' GROUP BY invoice_id HAVING count(*) > 1`);

      // ---- (b) every callback event delivered under exactly one webhook-id
      const rows = await q<{
        id: string;
        invoice_id: string;
        url: string;
        payload: unknown;
        status: string;
        attempts: number;
        run_attempts: number;
        run_codes: (number | null)[] | null;
      }>(sql`
        SELECT c.id, c.invoice_id, c.url, c.payload, c.status, c.attempts,
          (SELECT count(*)::int FROM callback_attempts a WHERE a.callback_id = c.id
             AND a.attempted_at >= ${runStart.toISOString()}::timestamptz) AS run_attempts,
          (SELECT array_agg(a.response_code ORDER BY a.id) FROM callback_attempts a WHERE a.callback_id = c.id
             AND a.attempted_at >= ${runStart.toISOString()}::timestamptz) AS run_codes
        FROM callbacks c
        WHERE c.url IN (${rx.url}, ${demoUrl}) OR c.invoice_id IN ${runInvoices}`);
      const byId = new Map(rows.map((r) => [r.id, r]));
      const received = new Map<string, Delivery[]>();
      for (const d of rx.deliveries) received.set(d.id, [...(received.get(d.id) ?? []), d]);
      const unsigned = rx.deliveries.filter((d) => !d.verified);
      const unknownIds: string[] = [];
      const idForTwoEvents: Record<string, unknown>[] = [];
      const deliveredTwice: Record<string, unknown>[] = [];
      const attemptMismatch: Record<string, unknown>[] = [];
      const notDelivered: Record<string, unknown>[] = [];
      for (const [id, ds] of received) {
        const row = byId.get(id);
        if (!row) {
          unknownIds.push(id);
          continue;
        }
        // one id, one event: every request under it carried that row's payload, byte for byte the same
        const bodies = new Set(ds.map((d) => d.body));
        if (bodies.size > 1 || JSON.stringify(JSON.parse([...bodies][0]!)) !== JSON.stringify(row.payload)) {
          idForTwoEvents.push({ id, bodies: [...bodies], payload: row.payload });
        }
        const accepted = ds.filter((d) => d.answered >= 200 && d.answered < 300).length;
        if (accepted !== 1) deliveredTwice.push({ id, accepted, requests: ds.length });
        // every request the receiver saw is one attempt of the outbox row, and no attempt is missing
        if (ds.length !== row.run_attempts) {
          attemptMismatch.push({ id, requests: ds.length, attempts: row.run_attempts, codes: row.run_codes });
        }
      }
      for (const r of rows) {
        if (r.url === rx.url && r.status === 'DELIVERED' && r.run_attempts > 0 && !received.has(r.id)) {
          notDelivered.push({ id: r.id, why: 'DELIVERED but never received' });
        }
        if (r.status !== 'DELIVERED' && (r.url === rx.url || r.url === demoUrl)) {
          notDelivered.push({ id: r.id, status: r.status, url: r.url, attempts: r.attempts });
        }
        // the built-in receiver answers 204 to a good signature, 401 to a bad one: one accepted attempt
        if (r.url === demoUrl) {
          const ok = (r.run_codes ?? []).filter((c) => c === 204).length;
          if (ok !== 1 || (r.run_codes ?? []).includes(401)) deliveredTwice.push({ id: r.id, demoCodes: r.run_codes });
        }
      }
      const otherUrls = rows.filter((r) => r.url !== rx.url && r.url !== demoUrl);
      // one event, one row: no status change or amount change of an invoice enqueued under two ids
      const sameEventTwice = await q(sql`
        SELECT invoice_id, payload->>'type' AS type, payload->>'status' AS status, array_agg(id) AS ids
        FROM callbacks WHERE invoice_id IN ${runInvoices} AND NOT manual
        GROUP BY invoice_id, payload->>'type', payload->>'status', payload->>'statusDate', payload->>'amount', create_date
        HAVING count(*) > 1`);
      // every status change after creation enqueued exactly one status callback
      const eventsWithoutOneCallback = await q(sql`
        SELECT i.id,
          (SELECT count(*)::int FROM invoice_status_events e WHERE e.invoice_id = i.id) - 1 AS changes,
          (SELECT count(*)::int FROM callbacks c WHERE c.invoice_id = i.id AND c.payload->>'type' = 'invoice.status') AS callbacks
        FROM invoices i WHERE i.id IN ${runInvoices}
          AND (SELECT count(*) FROM invoice_status_events e WHERE e.invoice_id = i.id) - 1
           <> (SELECT count(*) FROM callbacks c WHERE c.invoice_id = i.id AND c.payload->>'type' = 'invoice.status')`);

      // ---- numbers
      const counts = (
        await q<{
          invoices: number;
          payouts: number;
          payouts_done: number;
          deposits_done: number;
          retried: number;
          expired: number;
          delivered: number;
        }>(sql`SELECT
        (SELECT count(*)::int FROM invoices WHERE id IN ${runInvoices}) AS invoices,
        (SELECT count(*)::int FROM provider_transactions WHERE type = 'PAYOUT' AND invoice_id IN ${runInvoices}) AS payouts,
        (SELECT count(*)::int FROM provider_transactions WHERE type = 'PAYOUT' AND status = 'DONE' AND invoice_id IN ${runInvoices}) AS payouts_done,
        (SELECT count(*)::int FROM invoices WHERE flow_type = 'DEPOSIT' AND status = 'DONE' AND id IN ${runInvoices}) AS deposits_done,
        (SELECT count(*)::int FROM provider_transactions WHERE attempt > 1 AND invoice_id IN ${runInvoices}) AS retried,
        (SELECT count(*)::int FROM event_log WHERE code = 'EXPIRED' AND invoice_id IN ${runInvoices}) AS expired,
        (SELECT count(*)::int FROM callbacks WHERE status = 'DELIVERED' AND url IN (${rx.url}, ${demoUrl})) AS delivered`)
      )[0]!;
      const summary = {
        seed: SEED,
        operations: ops.length,
        concurrency: CONCURRENCY,
        requests: requestNo,
        ...counts,
        receiverRequests: rx.deliveries.length,
        receiverIds: received.size,
        refusedOnce: rx.deliveries.filter((d) => d.answered === 503).length,
        workloadSeconds: Math.round(workloadMs / 1000),
        settleSeconds: Math.round(settleMs / 1000),
        totalSeconds: Math.round((Date.now() - started) / 1000),
        answers: Object.fromEntries([...histogram.entries()].sort()),
      };
      console.log(`scale-out run: ${JSON.stringify(summary, null, 2)}`);

      const report = async (label: string, rows: Record<string, unknown>[], withHistory = false) => {
        const h = withHistory
          ? `\nhistory: ${JSON.stringify(await history(rows.map((r) => r.invoice_id)), null, 1)}`
          : '';
        return `${label} (seed ${SEED}): ${JSON.stringify(rows, null, 1).slice(0, 4000)}${h.slice(0, 12000)}`;
      };
      // every finding is reported, not only the first
      expect.soft(problems, problems.join('\n\n')).toEqual([]);
      // (a) no provider transaction issued twice
      expect
        .soft(duplicateAttempts, await report('one attempt number issued twice', duplicateAttempts, true))
        .toEqual([]);
      expect
        .soft(overlapping, await report('a transaction issued while another was PENDING', overlapping, true))
        .toEqual([]);
      expect.soft(pendingNow, await report('two PENDING transactions of one invoice', pendingNow, true)).toEqual([]);
      expect.soft(twoPaid, await report('two DONE payouts of one invoice', twoPaid, true)).toEqual([]);
      // (b) every callback event delivered under exactly one webhook-id
      expect
        .soft(
          unsigned.map((d) => d.id),
          'callbacks whose signature did not verify',
        )
        .toEqual([]);
      expect.soft(unknownIds, 'webhook-ids of no callback row').toEqual([]);
      expect.soft(idForTwoEvents, await report('one webhook-id carried two events', idForTwoEvents)).toEqual([]);
      expect
        .soft(deliveredTwice, await report('an event accepted more (or less) than once', deliveredTwice))
        .toEqual([]);
      expect.soft(attemptMismatch, await report('requests received ≠ attempts recorded', attemptMismatch)).toEqual([]);
      expect.soft(notDelivered, await report('events never delivered', notDelivered)).toEqual([]);
      expect
        .soft(
          otherUrls.map((r) => r.url),
          'callbacks to another URL',
        )
        .toEqual([]);
      expect.soft(sameEventTwice, await report('one event enqueued under two ids', sameEventTwice, true)).toEqual([]);
      expect
        .soft(eventsWithoutOneCallback, await report('status changes ≠ status callbacks', eventsWithoutOneCallback))
        .toEqual([]);
      // (c) the books: reconciled, no live balance below zero, no active (account, amount) twice
      await expect.soft(checkMoneyInvariants(dbh.db, log.slice(-200))).resolves.toBeUndefined();
      expect.soft(await reconcileLedger(dbh.db)).toEqual({ drift: [], unbalanced: [] });
      // the run really exercised what it claims to
      expect(counts.invoices).toBeGreaterThan(STEPS / 10);
      expect(summary.receiverIds).toBeGreaterThan(0);
    },
    30 * 60_000,
  );
});
