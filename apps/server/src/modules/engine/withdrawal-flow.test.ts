import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';
import { injectSigned, invoiceBody, merchantSigner, validCard, type Signer } from '../../../test/merchant-client';
import { ledgerTotals } from '../ledger/service';
import { setSetting } from '../settings/service';
import { SYSTEM_ACTOR } from '../audit/service';

let t: TestApp;
let sign: Signer;
/** The merchant owner: reads balances. */
let cookie: string;
/** Platform staff: ops retries payouts, admin records settlements (platform permissions). */
let ops: string;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({ sandboxDelayMs: 0 });
  sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
  cookie = await loginAs(t.app, 'owner');
  ops = await loginAs(t.app, 'ops');
  admin = await loginAs(t.app, 'admin');
});
afterAll(async () => t?.close());

/** Balance and paid-out sums of one terminal, in the book its invoices post to (test terminals: the test book). */
async function sums(terminalId: string) {
  const book = t.demo.terminals.find((x) => x.id === terminalId)!.isTest ? 'test' : 'live';
  const get = async (k: string) =>
    (
      await t.app.inject({
        method: 'GET',
        url: `/api/v1/merchant/${k}?terminalId=${terminalId}&book=${book}`,
        headers: { cookie },
      })
    ).json().data[0].sum as number;
  return { balance: await get('balance'), withdrawal: await get('withdrawal') };
}

async function payoutTxns(invoiceId: string) {
  const r = await t.ctx.db.execute<{ id: string; status: string; attempt: number; code: string }>(sql`
    SELECT pt.id, pt.status, pt.attempt, p.code FROM provider_transactions pt
    JOIN provider_accounts a ON a.id = pt.account_id JOIN providers p ON p.id = a.provider_id
    WHERE pt.invoice_id = ${invoiceId} ORDER BY pt.attempt`);
  return r.rows;
}

describe('withdrawal flow', () => {
  it('create → complete with a card → payout DECLINED → automatic retry → DONE; funds held then settled', async () => {
    await setSetting(t.ctx, SYSTEM_ACTOR, t.demo.merchantId, 'settings.withdrawal.retry.auto.enable', 'true');
    const terminal = t.demo.terminals.find((x) => x.flowType === 'WITHDRAWAL' && x.currency === 'UZS' && !x.isTest)!;
    const before = await sums(terminal.id);
    const amount = 40_000_00;
    const create = await injectSigned(
      t.app,
      sign,
      'POST',
      '/api/merchant/v1/invoices',
      invoiceBody(terminal, { amount, paymentMethod: 'HUMOUZS' }),
    );
    expect(create.statusCode, create.body).toBe(201);
    const { invoiceId, formId } = create.json().data;
    const form = `/api/payments/form/${formId}`;
    const init = (await t.app.inject({ method: 'POST', url: `${form}/init` })).json().data;
    expect(init.type).toBe('Withdrawal');
    const cred = await t.app.inject({
      method: 'POST',
      url: `${form}/credential`,
      payload: { amount, paymentMethodId: init.paymentMethodId },
    });
    expect(cred.statusCode, cred.body).toBe(200);
    expect(cred.json().data).toEqual({ amount, credentials: null });

    const bad = await t.app.inject({
      method: 'POST',
      url: `${form}/complete`,
      payload: { credential: '4111111111111112' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toMatch(/Card number/);

    const done = await t.app.inject({ method: 'POST', url: `${form}/complete`, payload: { credential: validCard } });
    expect(done.statusCode, done.body).toBe(200);
    const fee = Math.floor((amount * 150 + 5000) / 10000);
    const held = await sums(terminal.id);
    expect(before.balance - held.balance).toBe(amount + fee);

    const [first] = await payoutTxns(invoiceId);
    expect(first).toMatchObject({ status: 'PENDING', attempt: 1 });
    const auth = { authorization: `Bearer dev:${first!.code}` };
    const decline = await t.app.inject({
      method: 'POST',
      url: `/api/provider/v1/payouts/${first!.id}`,
      headers: auth,
      payload: { status: 'DECLINED', reason: 'card blocked' },
    });
    expect(decline.statusCode, decline.body).toBe(200);
    // retried automatically: still in progress, a second attempt pending, funds still held
    expect(decline.json().data.invoiceStatus).toBe('IN_PROGRESS');
    const txns = await payoutTxns(invoiceId);
    expect(txns.map((x) => [x.attempt, x.status])).toEqual([
      [1, 'DECLINED'],
      [2, 'PENDING'],
    ]);
    expect((await sums(terminal.id)).balance).toBe(held.balance);

    const ok = await t.app.inject({
      method: 'POST',
      url: `/api/provider/v1/payouts/${txns[1]!.id}`,
      headers: auth,
      payload: { status: 'DONE' },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.invoiceStatus).toBe('DONE');
    // repeated report: idempotent
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/provider/v1/payouts/${txns[1]!.id}`,
      headers: auth,
      payload: { status: 'DONE' },
    });
    expect(again.statusCode).toBe(200);
    const after = await sums(terminal.id);
    expect(before.balance - after.balance).toBe(amount + fee);
    expect(after.withdrawal - before.withdrawal).toBe(amount + fee);
    for (const row of await ledgerTotals(t.ctx.db)) expect(row.total).toBe(0);
    const codes = await t.ctx.db.execute<{ code: string }>(
      sql`SELECT code FROM event_log WHERE invoice_id = ${invoiceId} ORDER BY id`,
    );
    expect(codes.rows.map((r) => r.code)).toContain('PAYOUT_RETRY');
  });

  it('without auto retry a declined payout declines the invoice (hold released); manual retry re-holds; sandbox pays', async () => {
    await setSetting(t.ctx, SYSTEM_ACTOR, t.demo.merchantId, 'settings.withdrawal.retry.auto.enable', 'false');
    const { tickSandbox } = await import('../sandbox/service');
    const terminal = t.demo.terminals.find((x) => x.flowType === 'WITHDRAWAL' && x.isTest)!;
    const before = await sums(terminal.id);
    const amount = 20_000_13; // the sandbox declines amounts ending in 13
    const create = await injectSigned(
      t.app,
      sign,
      'POST',
      '/api/merchant/v1/invoices',
      invoiceBody(terminal, { amount }),
    );
    const { invoiceId, formId } = create.json().data;
    const form = `/api/payments/form/${formId}`;
    const init = (await t.app.inject({ method: 'POST', url: `${form}/init` })).json().data;
    const card = init.methods.find((m: { type: string }) => m.type === 'card');
    await t.app.inject({ method: 'POST', url: `${form}/credential`, payload: { amount, paymentMethodId: card.id } });
    expect(
      (await t.app.inject({ method: 'POST', url: `${form}/complete`, payload: { credential: validCard } })).statusCode,
    ).toBe(200);
    expect(await tickSandbox(t.ctx)).toBeGreaterThanOrEqual(1);
    expect((await t.app.inject({ method: 'POST', url: `${form}/status` })).json().data.status).toBe('DECLINED');
    expect((await sums(terminal.id)).balance).toBe(before.balance);

    const retryAs = (who: string, id = invoiceId) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/invoice/retry?merchantId=${t.demo.merchantId}`,
        headers: { cookie: who },
        payload: { invoiceId: id },
      });
    // re-sending a payout is for platform staff only: the merchant's owner is refused and nothing moves
    const denied = await retryAs(cookie);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.message).toBe('Only platform staff may do this.');
    expect((await payoutTxns(invoiceId)).map((x) => [x.attempt, x.status])).toEqual([[1, 'DECLINED']]);
    expect((await sums(terminal.id)).balance).toBe(before.balance);

    const retry = await retryAs(ops);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json().data).toMatchObject({ status: 'IN_PROGRESS', attempt: 2 });
    const reheld = (await sums(terminal.id)).balance;
    expect(reheld).toBeLessThan(before.balance);
    // never a second payout beside a pending one: 409, no third attempt, nothing held twice
    const twice = await retryAs(ops);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error.code).toBe('INVALID_STATE');
    expect(twice.json().error.message).toMatch(/still with the provider/);
    expect((await payoutTxns(invoiceId)).map((x) => [x.attempt, x.status])).toEqual([
      [1, 'DECLINED'],
      [2, 'PENDING'],
    ]);
    expect((await sums(terminal.id)).balance).toBe(reheld);
    const other = await retryAs(ops, '00000000-0000-4000-8000-000000000000');
    expect(other.statusCode).toBe(404);
  });
});

describe('withdrawal funding', () => {
  it('refuses a payout the merchant balance does not cover: 409, the invoice stays NEW, nothing held', async () => {
    const terminal = t.demo.terminals.find((x) => x.flowType === 'WITHDRAWAL' && x.currency === 'UZS' && !x.isTest)!;
    const cur = await t.ctx.db.execute<{ id: number }>(
      sql`SELECT currency_id AS id FROM terminals WHERE id = ${terminal.id}`,
    );
    const currencyId = cur.rows[0]!.id;
    const available = async () =>
      Number(
        (
          await t.ctx.db.execute<{ b: string }>(sql`
            SELECT COALESCE(-SUM(amount), 0) AS b FROM ledger_entries
            WHERE merchant_id = ${t.demo.merchantId} AND account = 'merchant' AND currency_id = ${currencyId}
              AND book = 'live'`)
        ).rows[0]!.b,
      );
    // settle all but 1,000.00 UZS out of the balance
    const settle = (await available()) - 1_000_00;
    expect(settle).toBeGreaterThan(0);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/settlement?merchantId=${t.demo.merchantId}`,
      headers: { cookie: admin },
      payload: { terminalId: terminal.id, baseAmount: settle / 100, settlementAmount: 1 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await available()).toBe(1_000_00);

    const amount = 5_000_00;
    const create = await injectSigned(
      t.app,
      sign,
      'POST',
      '/api/merchant/v1/invoices',
      invoiceBody(terminal, { amount, paymentMethod: 'HUMOUZS' }),
    );
    expect(create.statusCode, create.body).toBe(201);
    const { invoiceId, formId } = create.json().data;
    const form = `/api/payments/form/${formId}`;
    const init = (await t.app.inject({ method: 'POST', url: `${form}/init` })).json().data;
    await t.app.inject({
      method: 'POST',
      url: `${form}/credential`,
      payload: { amount, paymentMethodId: init.paymentMethodId },
    });
    const done = await t.app.inject({ method: 'POST', url: `${form}/complete`, payload: { credential: validCard } });
    expect(done.statusCode).toBe(409);
    expect(done.json().error.code).toBe('INSUFFICIENT_BALANCE');
    const inv = await t.ctx.db.execute<{ status: string }>(sql`SELECT status FROM invoices WHERE id = ${invoiceId}`);
    expect(inv.rows[0]!.status).toBe('NEW');
    expect(await available()).toBe(1_000_00);
    expect(await payoutTxns(invoiceId)).toEqual([]);
    expect((await ledgerTotals(t.ctx.db)).every((r) => r.total === 0)).toBe(true);
  });
});
