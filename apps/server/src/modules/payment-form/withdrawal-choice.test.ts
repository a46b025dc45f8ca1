import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { feeFor } from '@paydesk/contracts';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';
import { injectSigned, invoiceBody, merchantSigner, type Signer } from '../../../test/merchant-client';
import { reconcileLedger } from '../ledger/reconcile';
import { checkMoneyInvariants } from '../engine/invariants.testkit';

/**
 * The payment form's withdrawal step (the customer chooses how, and where the form allows it how much, a withdrawal
 * is paid out) goes through the engine's one write path (engine/service.ts writeInvoice): the engine's guards before
 * anything is written, the event-log entry, and the merchant's callback when the amount moved. A refusal answers 4xx
 * in the documented shape and writes nothing.
 */
let t: TestApp;
let sign: Signer;
let ops = '';

beforeAll(async () => {
  t = await createTestApp();
  sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
  ops = await loginAs(t.app, 'ops');
});
afterAll(async () => t?.close());

const q = async <T extends Record<string, unknown>>(s: ReturnType<typeof sql>) => (await t.ctx.db.execute<T>(s)).rows;
const terminal = () => t.demo.terminals.find((x) => x.flowType === 'WITHDRAWAL' && x.currency === 'UZS' && !x.isTest)!;

/** A live UZS withdrawal whose form lets the customer change the amount, and its form's methods. */
async function withdrawal(amount: number) {
  const res = await injectSigned(
    t.app,
    sign,
    'POST',
    '/api/merchant/v1/invoices',
    invoiceBody(terminal(), { amount, canChangeAmount: true }),
  );
  expect(res.statusCode, res.body).toBe(201);
  const { invoiceId, formId } = res.json().data as { invoiceId: string; formId: string };
  const init = await t.app.inject({ method: 'POST', url: `/api/payments/form/${formId}/init` });
  expect(init.statusCode, init.body).toBe(200);
  const methods = init.json().data.methods as { id: number; name: string; minAmount: number; maxAmount: number }[];
  return { invoiceId, formId, methods };
}

const choose = (formId: string, amount: number, paymentMethodId: number) =>
  t.app.inject({
    method: 'POST',
    url: `/api/payments/form/${formId}/credential`,
    payload: { amount, paymentMethodId },
  });

/** Everything a write of the invoice would touch: its row, its events, callbacks and transactions, the ledger, audit. */
async function footprint(invoiceId: string) {
  const [row] = await q(sql`SELECT i.status, i.amount::text AS amount, i.fee::text AS fee, i.payment_method_id,
      (SELECT count(*)::int FROM event_log WHERE invoice_id = i.id) AS events,
      (SELECT count(*)::int FROM invoice_status_events WHERE invoice_id = i.id) AS status_events,
      (SELECT count(*)::int FROM callbacks WHERE invoice_id = i.id) AS callbacks,
      (SELECT string_agg(status || coalesce(decided_status, ''), ',' ORDER BY attempt)
         FROM provider_transactions WHERE invoice_id = i.id) AS transactions,
      (SELECT count(*)::int FROM ledger_entries) AS ledger,
      (SELECT count(*)::int FROM audit_log) AS audit
    FROM invoices i WHERE i.id = ${invoiceId}`);
  return row!;
}
const callbacksOf = (invoiceId: string) =>
  q<{ type: string; amount: number; status: string; invoice_status: string }>(sql`
    SELECT payload->>'type' AS type, (payload->>'amount')::int AS amount, payload->>'status' AS status, invoice_status
    FROM callbacks WHERE invoice_id = ${invoiceId} ORDER BY create_date, id`);

describe("the payment form's withdrawal step writes through the engine", () => {
  it('a new amount: the invoice, its fee, the event and the merchant callback, in one write', async () => {
    const amount = 20_000_00;
    const { invoiceId, formId, methods } = await withdrawal(amount);
    const method = methods[0]!;
    const chosen = 25_000_00;
    expect(chosen).toBeLessThanOrEqual(method.maxAmount);
    const before = await footprint(invoiceId);
    const res = await choose(formId, chosen, method.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ amount: chosen, credentials: null });

    const [bps] = await q<{ fee_bps: number }>(sql`SELECT fee_bps FROM terminals WHERE id = ${terminal().id}`);
    const after = await footprint(invoiceId);
    expect(after).toMatchObject({
      status: 'NEW',
      amount: String(chosen),
      fee: String(feeFor(chosen, Number(bps!.fee_bps))),
      payment_method_id: method.id,
      events: Number(before.events) + 1,
      // the status did not move: no status event
      status_events: before.status_events,
      callbacks: Number(before.callbacks) + 1,
    });
    const [event] = await q<{ code: string; description: string; data: Record<string, unknown> }>(sql`
      SELECT code, description, data FROM event_log WHERE invoice_id = ${invoiceId} ORDER BY id DESC LIMIT 1`);
    expect(event).toMatchObject({
      code: 'PAYOUT_METHOD_CHOSEN',
      data: { actor: 'customer', paymentMethodId: method.id, amount: chosen },
    });
    expect(event!.description).toContain(method.name);
    // the merchant hears of the new amount: an invoice.amount_changed callback queued in the same transaction
    expect(await callbacksOf(invoiceId)).toEqual([
      { type: 'invoice.amount_changed', amount: chosen, status: 'NEW', invoice_status: 'NEW' },
    ]);
    // a withdrawal still NEW holds no funds: the change posts nothing
    expect(await q(sql`SELECT id FROM ledger_entries WHERE invoice_id = ${invoiceId}`)).toEqual([]);

    // the same choice again moves no amount: logged, but the merchant gets no second callback
    const again = await choose(formId, chosen, method.id);
    expect(again.statusCode, again.body).toBe(200);
    expect(await callbacksOf(invoiceId)).toHaveLength(1);

    // the payout then goes out for the amount the customer chose, and its hold is that amount and its fee
    const complete = await t.app.inject({
      method: 'POST',
      url: `/api/payments/form/${formId}/complete`,
      payload: { credential: '8600123456789012' },
    });
    expect(complete.statusCode, complete.body).toBe(200);
    const [hold] = await q<{ v: string }>(sql`SELECT coalesce(-sum(amount), 0)::text AS v FROM ledger_entries
      WHERE invoice_id = ${invoiceId} AND account = 'merchant_hold'`);
    expect(Number(hold!.v)).toBe(chosen + feeFor(chosen, Number(bps!.fee_bps)));
    await checkMoneyInvariants(t.ctx.db);
  });

  it('an amount outside the method or a fixed amount is refused 4xx in the error shape, writing nothing', async () => {
    const { invoiceId, formId, methods } = await withdrawal(10_000_00);
    const method = methods[0]!;
    const before = await footprint(invoiceId);
    const over = await choose(formId, method.maxAmount + 1, method.id);
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({
      error: {
        code: 'AMOUNT_OUT_OF_RANGE',
        message: expect.stringMatching(/outside the limits/),
        fields: expect.any(Object),
      },
    });
    const unknown = await choose(formId, 10_000_00, 999_999);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.code).toBe('VALIDATION_ERROR');
    expect(await footprint(invoiceId)).toEqual(before);

    const fixed = await injectSigned(
      t.app,
      sign,
      'POST',
      '/api/merchant/v1/invoices',
      invoiceBody(terminal(), { amount: 10_000_00, canChangeAmount: false }),
    );
    const { invoiceId: fixedId, formId: fixedForm } = fixed.json().data as { invoiceId: string; formId: string };
    const fixedBefore = await footprint(fixedId);
    const moved = await choose(fixedForm, 12_000_00, method.id);
    expect(moved.statusCode).toBe(400);
    expect(moved.json().error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/fixed/) });
    expect(await footprint(fixedId)).toEqual(fixedBefore);
  });

  it('the engine guard holds on this path: the amount of a payout with the provider changes only after its answer', async () => {
    const amount = 15_000_00;
    const { invoiceId, formId, methods } = await withdrawal(amount);
    const method = methods[0]!;
    expect((await choose(formId, amount, method.id)).statusCode).toBe(200);
    const sent = await t.app.inject({
      method: 'POST',
      url: `/api/payments/form/${formId}/complete`,
      payload: { credential: '8600123456789012' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const [txn] = await q<{ id: string; code: string }>(sql`SELECT pt.id, p.code FROM provider_transactions pt
      JOIN provider_accounts a ON a.id = pt.account_id JOIN providers p ON p.id = a.provider_id
      WHERE pt.invoice_id = ${invoiceId} AND pt.status = 'PENDING'`);
    expect(txn).toBeDefined();

    // the customer, once the payout is sent, cannot reach the step at all
    let before = await footprint(invoiceId);
    const late = await choose(formId, 16_000_00, method.id);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({
      error: { code: 'INVALID_STATE', message: expect.stringMatching(/already IN_PROGRESS/) },
    });
    expect(await footprint(invoiceId)).toEqual(before);

    // a withdrawal back at NEW with its payout still with the provider: a state only a bug or a raw write could make
    // (the engine refuses to move it back), in which the form's step is open again; the engine's guard, not the
    // form, must refuse the new amount
    await t.ctx.db.execute(sql`UPDATE invoices SET status = 'NEW' WHERE id = ${invoiceId}`);
    before = await footprint(invoiceId);
    const refused = await choose(formId, 16_000_00, method.id);
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toEqual({
      error: {
        code: 'INVALID_STATE',
        message:
          'Refused: payout attempt 1 is with the provider for 15,000.00 UZS; the amount can change only after the provider answered',
      },
    });
    expect(await footprint(invoiceId)).toEqual(before);
    await t.ctx.db.execute(sql`UPDATE invoices SET status = 'IN_PROGRESS' WHERE id = ${invoiceId}`);

    // staff meet the same rule through the same write path
    before = await footprint(invoiceId);
    const setAmount = (to: number) =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/v1/invoice/amount?merchantId=${t.demo.merchantId}`,
        headers: { cookie: ops },
        payload: { invoiceId, amount: to, reason: 'customer asked for more' },
      });
    const byStaff = await setAmount(16_000_00);
    expect(byStaff.statusCode).toBe(409);
    expect(byStaff.json().error).toEqual({
      code: 'INVALID_STATE',
      message: expect.stringMatching(/the amount can change only after the provider answered$/),
    });
    expect(await footprint(invoiceId)).toEqual(before);

    // the provider answers (declined): now the amount may change, and the merchant is told
    const answer = await t.app.inject({
      method: 'POST',
      url: `/api/provider/v1/payouts/${txn!.id}`,
      headers: { authorization: `Bearer dev:${txn!.code}` },
      payload: { status: 'DECLINED', reason: 'card blocked' },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const ok = await setAmount(16_000_00);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await callbacksOf(invoiceId)).at(-1)).toMatchObject({ type: 'invoice.amount_changed', amount: 16_000_00 });
    await checkMoneyInvariants(t.ctx.db);
    expect(await reconcileLedger(t.ctx.db)).toEqual({ drift: [], unbalanced: [] });
  });
});
