import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { DemoMerchantFile } from '../../db/seed';
import { fetchSigned, invoiceBody, merchantSigner, startReceiver, uniqueId } from '../../../test/merchant-client';
import { emptyDatabase } from '../../../test/global-setup';
import { freePort } from '../../../test/server-process';

const ROOT = path.resolve(import.meta.dirname, '../../../../..');

function startServer(env: Record<string, string>): ChildProcess {
  // node --import tsx (what `npx tsx` runs) so that SIGKILL hits the server itself, not an npx wrapper
  return spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function waitHealthy(base: string, ms = 60_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start');
}

describe.skipIf(!process.env.DATABASE_URL)('crash recovery (PostgreSQL, separate server process)', () => {
  const url = process.env.DATABASE_URL!;
  let database: Awaited<ReturnType<typeof emptyDatabase>> | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'paydesk-crash-'));
  let child: ChildProcess | undefined;
  let db: pg.Client | undefined;

  afterAll(async () => {
    child?.kill('SIGKILL');
    await db?.end();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('SIGKILL during a burst of 500 creates/completes: acknowledged work survives, ledger balances, callbacks still go out', async () => {
    database = await emptyDatabase(url, 'paydesk_crash');
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const env = {
      DATABASE_URL: database.url,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'development',
      SEED_DEMO: 'true',
      WORKERS: 'true',
      SANDBOX_DELAY_MS: '0',
      LOG_LEVEL: 'fatal',
      PUBLIC_URL: base,
    };
    child = startServer(env);
    await waitHealthy(base);
    const demo = JSON.parse(fs.readFileSync(path.join(dataDir, 'demo-merchant.json'), 'utf8')) as DemoMerchantFile;
    const sign = merchantSigner(demo.merchantId, demo.privateKeyPem);
    const terminal = demo.terminals.find((t) => t.flowType === 'DEPOSIT' && t.isTest)!;
    const rx = await startReceiver(undefined, () => [demo.webhookSecret]);

    const created: string[] = [];
    const completed: string[] = [];
    let next = 0;
    const flow = async () => {
      while (next < 500) {
        next++;
        try {
          const amount = 10_000_00 + Math.floor(Math.random() * 100_000) * 100;
          const c = await fetchSigned(
            base,
            sign,
            'POST',
            '/api/merchant/v1/invoices',
            invoiceBody(terminal, { amount, callbackUrl: rx.url, merchantInvoiceId: uniqueId('crash') }),
          );
          if (c.status !== 201) continue;
          created.push(c.json.data.invoiceId);
          const form = `${base}/api/payments/form/${c.json.data.formId}`;
          const init = (await (await fetch(`${form}/init`, { method: 'POST' })).json()) as any;
          const cr = await fetch(`${form}/credential`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ amount, paymentMethodId: init.data.methods[0].id }),
          });
          if (cr.status !== 200) continue;
          const done = await fetch(`${form}/complete`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{}',
          });
          if (done.status === 200) completed.push(c.json.data.invoiceId);
        } catch {
          /* the server is gone: not acknowledged */
        }
      }
    };
    const burst = Promise.all(Array.from({ length: 30 }, flow));
    while (created.length < 120) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGKILL');
    await burst;
    expect(created.length).toBeGreaterThanOrEqual(120);
    expect(created.length).toBeLessThan(500);

    child = startServer({ ...env, SEED_DEMO: 'false' });
    await waitHealthy(base);
    db = new pg.Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    const found = await db.query(`SELECT id, status FROM invoices WHERE id = ANY($1::uuid[])`, [created]);
    expect(found.rowCount).toBe(created.length);
    const status = new Map(found.rows.map((r) => [r.id as string, r.status as string]));
    for (const id of completed) expect(['PAYED', 'DONE']).toContain(status.get(id));

    // the restarted workers finish the sandbox confirmations and deliver every pending callback
    const deadline = Date.now() + 120_000;
    for (;;) {
      const pending = await db.query(
        `SELECT count(*)::int AS n FROM callbacks WHERE invoice_id = ANY($1::uuid[]) AND status <> 'DELIVERED'`,
        [created],
      );
      const open = await db.query(
        `SELECT count(*)::int AS n FROM provider_transactions WHERE invoice_id = ANY($1::uuid[]) AND status = 'PENDING'`,
        [created],
      );
      if (pending.rows[0].n === 0 && open.rows[0].n === 0) break;
      if (Date.now() > deadline)
        throw new Error(`callbacks still pending: ${pending.rows[0].n}, transactions ${open.rows[0].n}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    const sums = await db.query(
      `SELECT currency_id, SUM(amount)::bigint AS total FROM ledger_entries GROUP BY currency_id`,
    );
    for (const r of sums.rows) expect(Number(r.total)).toBe(0);
    const cbs = await db.query(`SELECT id FROM callbacks WHERE invoice_id = ANY($1::uuid[])`, [created]);
    const got = new Set(rx.received.map((h) => h.headers['webhook-id']));
    for (const r of cbs.rows) expect(got.has(r.id)).toBe(true);
    for (const id of completed) {
      const done = await db.query(`SELECT status FROM invoices WHERE id = $1`, [id]);
      expect(done.rows[0].status).toBe('DONE');
    }
    await rx.close();
  }, 300_000);
});
