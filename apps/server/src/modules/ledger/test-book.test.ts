import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { minorToMajorString } from '@paydesk/contracts';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';
import { injectSigned, invoiceBody, merchantSigner, type Signer } from '../../../test/merchant-client';
import { tickSandbox } from '../sandbox/service';
import { reconcileLedger } from './reconcile';

let t: TestApp;
let sign: Signer;
let admin = '';
let owner = '';

beforeAll(async () => {
  t = await createTestApp();
  sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
  admin = await loginAs(t.app, 'admin');
  owner = await loginAs(t.app, 'owner');
});
afterAll(async () => t?.close());

const balance = async (book: 'live' | 'test') => {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/v1/merchant/balance?book=${book}`,
    headers: { cookie: owner },
  });
  expect(res.statusCode, res.body).toBe(200);
  return Object.fromEntries((res.json().data as { currency: string; sum: number }[]).map((r) => [r.currency, r.sum]));
};

/** A deposit on a test terminal, paid and confirmed by the sandbox. */
async function sandboxDeposit(amount: number) {
  const terminal = t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && x.isTest && x.currency === 'UZS')!;
  const create = await injectSigned(
    t.app,
    sign,
    'POST',
    '/api/merchant/v1/invoices',
    invoiceBody(terminal, { amount }),
  );
  expect(create.statusCode, create.body).toBe(201);
  const form = `/api/payments/form/${create.json().data.formId}`;
  const init = (await t.app.inject({ method: 'POST', url: `${form}/init` })).json().data;
  await t.app.inject({
    method: 'POST',
    url: `${form}/credential`,
    payload: { amount, paymentMethodId: init.methods[0].id },
  });
  await t.app.inject({ method: 'POST', url: `${form}/complete`, payload: {} });
  await tickSandbox(t.ctx);
  expect((await t.app.inject({ method: 'POST', url: `${form}/status` })).json().data.status).toBe('DONE');
  return create.json().data.invoiceId as string;
}

describe('the test book (test money never counts as live)', () => {
  it('a sandbox-confirmed test deposit moves the test balance only; live money, limits and reports stay', async () => {
    const liveBefore = await balance('live');
    const testBefore = await balance('test');
    const limitsBefore = (
      await t.ctx.db.execute(sql`SELECT key, balance FROM ledger_balances WHERE book = 'live' ORDER BY key`)
    ).rows;
    const id = await sandboxDeposit(48_750_000_00);
    expect(await balance('live')).toEqual(liveBefore);
    const [inv] = (await t.ctx.db.execute<{ fee: string }>(sql`SELECT fee FROM invoices WHERE id = ${id}`)).rows;
    expect((await balance('test')).UZS! - testBefore.UZS!).toBe(48_750_000_00 - Number(inv!.fee));
    expect(
      (await t.ctx.db.execute(sql`SELECT key, balance FROM ledger_balances WHERE book = 'live' ORDER BY key`)).rows,
    ).toEqual(limitsBefore);
    const books = await t.ctx.db.execute<{ book: string }>(
      sql`SELECT DISTINCT book FROM ledger_entries WHERE invoice_id = ${id}`,
    );
    expect(books.rows).toEqual([{ book: 'test' }]);
  });

  it('settlements come from live money only: never on a test terminal, never past the live balance', async () => {
    const testTerminal = t.demo.terminals.find((x) => x.isTest && x.currency === 'UZS')!;
    const onTest = await t.app.inject({
      method: 'POST',
      url: `/api/v1/settlement?merchantId=${t.demo.merchantId}`,
      headers: { cookie: admin },
      payload: { terminalId: testTerminal.id, baseAmount: 1, settlementAmount: 1 },
    });
    expect(onTest.statusCode).toBe(409);
    expect(onTest.json().error.message).toMatch(/live terminals only/);
    const live = (await balance('live')).UZS!;
    expect((await balance('test')).UZS!).toBeGreaterThan(0);
    const liveTerminal = t.demo.terminals.find((x) => !x.isTest && x.currency === 'UZS')!;
    const tooMuch = await t.app.inject({
      method: 'POST',
      url: `/api/v1/settlement?merchantId=${t.demo.merchantId}`,
      headers: { cookie: admin },
      payload: {
        terminalId: liveTerminal.id,
        baseAmount: Number(minorToMajorString(live + 1, 2)),
        settlementAmount: 1,
      },
    });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().error.code).toBe('INSUFFICIENT_BALANCE');
  });

  it('every balance row equals its entries and every book sums to zero', async () => {
    expect(await reconcileLedger(t.ctx.db)).toEqual({ drift: [], unbalanced: [] });
  });

  it('monitoring proves the books on demand for platform staff only', async () => {
    const ops = await loginAs(t.app, 'ops');
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/ledger/reconciliation', headers: { cookie: ops } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ drift: [], unbalanced: [] });
    const mine = await t.app.inject({
      method: 'GET',
      url: '/api/v1/ledger/reconciliation',
      headers: { cookie: owner },
    });
    expect(mine.statusCode).toBe(403);
  });

  it('reconciliation reports drift when a balance row is tampered with', async () => {
    await t.ctx.db.execute(sql`UPDATE ledger_balances SET balance = balance + 1
      WHERE key = (SELECT key FROM ledger_balances WHERE book = 'live' AND account = 'merchant' ORDER BY key LIMIT 1)`);
    const r = await reconcileLedger(t.ctx.db);
    expect(r.drift).toHaveLength(1);
    const shown = await t.app.inject({
      method: 'GET',
      url: '/api/v1/ledger/reconciliation',
      headers: { cookie: admin },
    });
    expect(shown.json().data.drift).toEqual(r.drift);
    expect(BigInt(r.drift[0]!.balance) - BigInt(r.drift[0]!.entries)).toBe(1n);
    expect(r.unbalanced).toEqual([]);
  });

  it("reconciliation reports a day total that is not its entries' sum", async () => {
    const before = await reconcileLedger(t.ctx.db);
    const [d] = (
      await t.ctx.db.execute<{ merchant_id: string; day: string }>(sql`
        UPDATE ledger_day_totals SET fees = fees + 1
        WHERE ctid = (SELECT ctid FROM ledger_day_totals ORDER BY merchant_id, day LIMIT 1)
        RETURNING merchant_id, to_char(day, 'YYYY-MM-DD') AS day`)
    ).rows;
    const r = await reconcileLedger(t.ctx.db);
    expect(r.drift).toHaveLength(before.drift.length + 1);
    const found = r.drift.find((x) => x.key.startsWith('day:'))!;
    expect(found.key).toContain(d!.merchant_id);
    expect(found.key.endsWith(d!.day)).toBe(true);
  });
});
