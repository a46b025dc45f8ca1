import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { minorToMajorString, statusByCode } from '@paydesk/contracts';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';
import { injectSigned, invoiceBody, merchantSigner, type Signer } from '../../../test/merchant-client';
import { reconcileLedger } from '../ledger/reconcile';

/**
 * The invariants hold whoever acts (engine/guards.ts enforceInvariants): operator scenarios that would break a money
 * invariant, each refused with a message naming the rule (or, for money that arrived, accepted and flagged).
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
const setStatus = (invoiceId: string, status: string, extra: Record<string, unknown> = {}) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/v1/invoice/status?merchantId=${t.demo.merchantId}`,
    headers: { cookie: ops },
    payload: { invoiceId, statusId: statusByCode(status)!.id, reason: 'operator correction', ...extra },
  });
const setAmount = (invoiceId: string, amount: number) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/v1/invoice/amount?merchantId=${t.demo.merchantId}`,
    headers: { cookie: ops },
    payload: { invoiceId, amount, reason: 'operator correction' },
  });
const ledgerSnapshot = async () =>
  JSON.stringify(await q(sql`SELECT count(*)::int AS n, coalesce(sum(abs(amount)), 0)::text AS s FROM ledger_entries`));
const liveBalance = async (currency: string) =>
  Number(
    (
      await q<{ b: string }>(sql`SELECT coalesce(-sum(b.balance), 0)::text AS b FROM ledger_balances b
        JOIN currencies c ON c.id = b.currency_id
        WHERE b.merchant_id = ${t.demo.merchantId} AND b.account = 'merchant' AND b.book = 'live' AND c.code = ${currency}`)
    )[0]!.b,
  );

/** A live (non-sandbox) provider account taking the currency. */
async function liveAccount(currency: 'UZS' | 'RUB') {
  const [acc] = await q<{ id: number }>(sql`SELECT a.id FROM provider_accounts a
    JOIN payment_methods m ON m.id = a.payment_method_id JOIN currencies c ON c.id = m.currency_id
    JOIN providers p ON p.id = a.provider_id WHERE c.code = ${currency} AND NOT p.is_sandbox LIMIT 1`);
  return acc!;
}

async function newInvoice(flow: 'DEPOSIT' | 'WITHDRAWAL', currency: 'UZS' | 'RUB', amount: number) {
  const terminal = t.demo.terminals.find((x) => x.flowType === flow && x.currency === currency && !x.isTest)!;
  const res = await injectSigned(t.app, sign, 'POST', '/api/merchant/v1/invoices', invoiceBody(terminal, { amount }));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { invoiceId: string; formId: string };
}

describe('operator changes go through the same guards', () => {
  it('a withdrawal the balance does not cover cannot be set DONE (or IN_PROGRESS): 409, nothing moves', async () => {
    // a RUB withdrawal of 200,000.00 more than is left after a settlement (the case: 300,000.00 with
    // 100,000.00 left); the demo's balance follows the moment the demo data was made, so the figures come from it
    // (at most 100,000.00 left, and at most half of it: a withdrawal's maximum is 300,000.00)
    const admin = await loginAs(t.app, 'admin');
    const rubTerminal = t.demo.terminals.find((x) => x.currency === 'RUB' && !x.isTest)!;
    const start = await liveBalance('RUB');
    expect(start, 'the demo merchant holds roubles').toBeGreaterThanOrEqual(2_00);
    const settled = start - Math.min(100_000_00, Math.floor(start / 2));
    const settle = await t.app.inject({
      method: 'POST',
      url: `/api/v1/settlement?merchantId=${t.demo.merchantId}`,
      headers: { cookie: admin },
      payload: { terminalId: rubTerminal.id, baseAmount: Number(minorToMajorString(settled, 2)), settlementAmount: 1 },
    });
    expect(settle.statusCode, settle.body).toBe(200);
    const balance = await liveBalance('RUB');
    expect(balance).toBe(start - settled);
    const { invoiceId } = await newInvoice('WITHDRAWAL', 'RUB', balance + 200_000_00);
    const before = await ledgerSnapshot();
    for (const status of ['DONE', 'IN_PROGRESS']) {
      const res = await setStatus(invoiceId, status);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().error.code).toBe('INSUFFICIENT_BALANCE');
      expect(res.json().error.message).toMatch(/balance .* does not cover .*; it would go below zero/);
    }
    expect(await ledgerSnapshot()).toBe(before);
    expect(await liveBalance('RUB')).toBe(balance);
  });

  it('PAYED is a deposit status: a withdrawal cannot be set to it', async () => {
    const { invoiceId } = await newInvoice('WITHDRAWAL', 'UZS', 1_000_00);
    const res = await setStatus(invoiceId, 'PAYED');
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('PAYED is not a status of a withdrawal');
  });

  it('a deposit set DONE with no routed account needs the account the money arrived on', async () => {
    const { invoiceId } = await newInvoice('DEPOSIT', 'UZS', 777_000_00);
    const before = await ledgerSnapshot();
    const bare = await setStatus(invoiceId, 'DONE');
    expect(bare.statusCode).toBe(409);
    expect(bare.json().error.fields).toEqual({ peopleAccountId: 'Choose the account the money arrived on' });
    expect(await ledgerSnapshot()).toBe(before);
    const rub = await liveAccount('RUB');
    expect((await setStatus(invoiceId, 'DONE', { peopleAccountId: rub.id })).statusCode).toBe(400);
    const uzs = await liveAccount('UZS');
    const ok = await setStatus(invoiceId, 'DONE', { peopleAccountId: uzs.id });
    expect(ok.statusCode, ok.body).toBe(200);
    const legs = await q<{ account: string; provider_account_id: number | null }>(
      sql`SELECT account, provider_account_id FROM ledger_entries WHERE invoice_id = ${invoiceId} AND account = 'provider_account'`,
    );
    expect(legs).toEqual([{ account: 'provider_account', provider_account_id: uzs.id }]);
  });

  it('money that arrived may take an account over its limit: accepted, flagged, out of routing until raised', async () => {
    const { invoiceId } = await newInvoice('DEPOSIT', 'UZS', 900_000_00);
    const [acc] = await q<{ id: number; limit: string }>(sql`
      SELECT a.id, l."limit"::text AS limit FROM provider_accounts a JOIN account_limits l ON l.account_id = a.id
      JOIN payment_methods m ON m.id = a.payment_method_id JOIN currencies c ON c.id = m.currency_id
      JOIN providers p ON p.id = a.provider_id WHERE c.code = 'UZS' AND NOT p.is_sandbox ORDER BY a.id LIMIT 1`);
    // one minor unit of room left: the deposit's money takes the account past its limit
    await t.ctx.db.execute(sql`UPDATE account_limits SET "limit" = 1 + COALESCE((SELECT SUM(b.balance)
      FROM ledger_balances b WHERE b.provider_account_id = ${acc!.id} AND b.account = 'provider_account'
        AND b.book = 'live'), 0) WHERE account_id = ${acc!.id}`);
    const res = await setStatus(invoiceId, 'DONE', { peopleAccountId: acc!.id });
    expect(res.statusCode, res.body).toBe(200);
    const [flag] = await q<{ over: boolean }>(
      sql`SELECT over_limit_since IS NOT NULL AS over FROM account_limits WHERE account_id = ${acc!.id}`,
    );
    expect(flag!.over).toBe(true);
    const events = await q<{ code: string }>(sql`SELECT code FROM event_log WHERE invoice_id = ${invoiceId}`);
    expect(events.map((e) => e.code)).toContain('ACCOUNT_OVER_LIMIT');
    // raising the limit clears the flag
    const admin = await loginAs(t.app, 'admin');
    const raised = await t.app.inject({
      method: 'PUT',
      url: `/api/router/v1/people/account/limit/${acc!.id}`,
      headers: { cookie: admin },
      payload: { peopleAccountId: acc!.id, limit: 999_999_999_999_00, priority: 1, checkUniqueAmount: false },
    });
    expect(raised.statusCode, raised.body).toBe(200);
    const [after] = await q<{ over: boolean }>(
      sql`SELECT over_limit_since IS NOT NULL AS over FROM account_limits WHERE account_id = ${acc!.id}`,
    );
    expect(after!.over).toBe(false);
  });

  it('a deposit moved back to IN_PROGRESS may not share (account, amount) with another active one', async () => {
    // two deposits of one amount on one unique-amount account: the customer path gives the second another account
    const [acc] = await q<{ id: number; method: number }>(sql`
      SELECT a.id, a.payment_method_id AS method FROM provider_accounts a JOIN account_limits l ON l.account_id = a.id
      JOIN payment_methods m ON m.id = a.payment_method_id JOIN currencies c ON c.id = m.currency_id
      JOIN providers p ON p.id = a.provider_id
      WHERE c.code = 'UZS' AND NOT p.is_sandbox AND l.check_unique_amount AND a.enabled ORDER BY a.id LIMIT 1`);
    expect(acc, 'the demo has a unique-amount UZS account').toBeDefined();
    await t.ctx.db.execute(sql`UPDATE account_limits SET "limit" = 999999999999900 WHERE account_id = ${acc!.id}`);
    const amount = 123_456_00;
    const a = await newInvoice('DEPOSIT', 'UZS', amount);
    const b = await newInvoice('DEPOSIT', 'UZS', amount);
    // a: active on the account (DONE then back to IN_PROGRESS); b: DONE on the same account
    expect((await setStatus(a.invoiceId, 'DONE', { peopleAccountId: acc!.id })).statusCode).toBe(200);
    expect((await setStatus(b.invoiceId, 'DONE', { peopleAccountId: acc!.id })).statusCode).toBe(200);
    expect((await setStatus(a.invoiceId, 'IN_PROGRESS')).statusCode).toBe(200);
    const clash = await setStatus(b.invoiceId, 'IN_PROGRESS');
    expect(clash.statusCode).toBe(409);
    expect(clash.json().error.message).toMatch(/another active deposit on account \d+ has the amount/);
    // changing the active one's amount onto another active amount is refused the same way
    expect((await setAmount(a.invoiceId, amount + 1)).statusCode).toBe(200);
    expect((await setStatus(b.invoiceId, 'IN_PROGRESS')).statusCode).toBe(200);
    expect((await setAmount(a.invoiceId, amount)).statusCode).toBe(409);
  });

  it('an amount change re-checks the withdrawal hold against the balance', async () => {
    const balance = await liveBalance('UZS');
    const { invoiceId, formId } = await newInvoice('WITHDRAWAL', 'UZS', 1_000_00);
    const init = (await t.app.inject({ method: 'POST', url: `/api/payments/form/${formId}/init` })).json().data;
    await t.app.inject({
      method: 'POST',
      url: `/api/payments/form/${formId}/credential`,
      payload: { amount: 1_000_00, paymentMethodId: init.methods[0].id },
    });
    const done = await t.app.inject({
      method: 'POST',
      url: `/api/payments/form/${formId}/complete`,
      payload: { credential: '8600123456789012' },
    });
    expect(done.statusCode, done.body).toBe(200);
    const res = await setAmount(invoiceId, balance + 1_000_00);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.code).toBe('INSUFFICIENT_BALANCE');
  });

  it('payment form: a new amount after requisites were issued re-issues them; after "Have paid" it is refused', async () => {
    const terminal = t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && x.currency === 'UZS' && !x.isTest)!;
    const res = await injectSigned(
      t.app,
      sign,
      'POST',
      '/api/merchant/v1/invoices',
      invoiceBody(terminal, { amount: 33_000_00, canChangeAmount: true }),
    );
    const { invoiceId, formId } = res.json().data;
    const form = `/api/payments/form/${formId}`;
    const init = (await t.app.inject({ method: 'POST', url: `${form}/init` })).json().data;
    const ask = (amount: number) =>
      t.app.inject({
        method: 'POST',
        url: `${form}/credential`,
        payload: { amount, paymentMethodId: init.methods[0].id },
      });
    expect((await ask(33_000_00)).json().data.amount).toBe(33_000_00);
    const again = await ask(36_000_00);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.amount).toBe(36_000_00);
    const [row] = await q<{ amount: string; status: string }>(
      sql`SELECT amount::text, status FROM invoices WHERE id = ${invoiceId}`,
    );
    expect(row).toEqual({ amount: '3600000', status: 'IN_PROGRESS' });
    const types = await q<{ type: string }>(
      sql`SELECT payload->>'type' AS type FROM callbacks WHERE invoice_id = ${invoiceId}`,
    );
    expect(types.map((r) => r.type)).toContain('invoice.amount_changed');
    await t.app.inject({ method: 'POST', url: `${form}/complete`, payload: {} });
    const late = await ask(40_000_00);
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toMatch(/can no longer change/);
    expect((await ask(36_000_00)).json().data.amount).toBe(36_000_00);
  });

  it('a deposit waits for money only on given requisites: NEW → IN_PROGRESS needs the account', async () => {
    const { invoiceId } = await newInvoice('DEPOSIT', 'UZS', 4_321_00);
    const bare = await setStatus(invoiceId, 'IN_PROGRESS');
    expect(bare.statusCode).toBe(409);
    expect(bare.json().error.message).toMatch(/IN_PROGRESS only once requisites of a provider account were given/);
    const [uzs] = await q<{
      id: number;
    }>(sql`SELECT a.id FROM provider_accounts a JOIN payment_methods m ON m.id = a.payment_method_id
      JOIN currencies c ON c.id = m.currency_id JOIN providers p ON p.id = a.provider_id
      JOIN account_limits l ON l.account_id = a.id
      WHERE c.code = 'UZS' AND NOT p.is_sandbox AND NOT l.check_unique_amount ORDER BY a.id LIMIT 1`);
    await t.ctx.db.execute(sql`UPDATE account_limits SET "limit" = 999999999999900 WHERE account_id = ${uzs!.id}`);
    expect((await setStatus(invoiceId, 'IN_PROGRESS', { peopleAccountId: uzs!.id })).statusCode).toBe(200);
  });

  it('an answer the engine refuses is kept as the provider gave it and queued for staff; the sandbox goes on', async () => {
    const { tickSandbox } = await import('../sandbox/service');
    // a state only a bug or a raw write could make: a PAYED test deposit with no account, its answer due
    const terminal = t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && x.isTest && x.currency === 'UZS')!;
    const res = await injectSigned(
      t.app,
      sign,
      'POST',
      '/api/merchant/v1/invoices',
      invoiceBody(terminal, { amount: 7_000_00 }),
    );
    const bad = res.json().data.invoiceId as string;
    await t.ctx.db.execute(sql`UPDATE invoices SET status = 'PAYED' WHERE id = ${bad}`);
    await t.ctx.db
      .execute(sql`INSERT INTO provider_transactions (invoice_id, type, status, attempt, sandbox_due_at, create_date, status_date)
      VALUES (${bad}, 'DEPOSIT', 'PENDING', 1, now() - interval '1 minute', now(), now())`);
    await tickSandbox(t.ctx);
    const [txn] = await q<{ status: string }>(sql`SELECT status FROM provider_transactions WHERE invoice_id = ${bad}`);
    expect(txn!.status).toBe('DONE');
    const [inv] = await q<{ status: string }>(sql`SELECT status FROM invoices WHERE id = ${bad}`);
    expect(inv!.status).toBe('PAYED');
    const queued = await q<{ provider_status: string; note: string }>(
      sql`SELECT provider_status, note FROM provider_contradictions WHERE invoice_id = ${bad}`,
    );
    expect(queued).toEqual([
      { provider_status: 'DONE', note: expect.stringMatching(/the engine refused it: A deposit becomes DONE only/) },
    ]);
  });

  it('retry never doubles a payout: a withdrawal whose payout is with the provider is not declined or canceled beside it', async () => {
    const { invoiceId, formId } = await newInvoice('WITHDRAWAL', 'UZS', 1_234_00);
    const form = `/api/payments/form/${formId}`;
    const init = (await t.app.inject({ method: 'POST', url: `${form}/init` })).json().data;
    await t.app.inject({
      method: 'POST',
      url: `${form}/credential`,
      payload: { amount: init.amount, paymentMethodId: init.methods[0].id },
    });
    const sent = await t.app.inject({
      method: 'POST',
      url: `${form}/complete`,
      payload: { credential: '8600123456789012' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const pending = () =>
      q<{ status: string; attempt: number }>(
        sql`SELECT status, attempt FROM provider_transactions WHERE invoice_id = ${invoiceId} ORDER BY attempt`,
      );
    expect(await pending()).toEqual([{ status: 'PENDING', attempt: 1 }]);
    const before = await ledgerSnapshot();
    // found by the two-process run: moved back to NEW, the customer's payout details sent a second payout
    for (const status of ['DECLINED', 'CANCELED', 'NEW']) {
      const res = await setStatus(invoiceId, status);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().error.message).toMatch(/payout attempt 1 is still with the provider/);
    }
    const retry = await t.app.inject({
      method: 'POST',
      url: `/api/v1/invoice/retry?merchantId=${t.demo.merchantId}`,
      headers: { cookie: await loginAs(t.app, 'admin') },
      payload: { invoiceId },
    });
    expect(retry.statusCode).toBe(409);
    expect(await pending()).toEqual([{ status: 'PENDING', attempt: 1 }]);
    expect(await ledgerSnapshot()).toBe(before);
    // staff who know it was paid may still close it as DONE: the attempt stays with the provider, whose answer only
    // the provider gives; the decision is recorded beside it
    expect((await setStatus(invoiceId, 'DONE')).statusCode).toBe(200);
    expect(await pending()).toEqual([{ status: 'PENDING', attempt: 1 }]);
    const [decided] = await q<{ decided_status: string }>(
      sql`SELECT decided_status FROM provider_transactions WHERE invoice_id = ${invoiceId}`,
    );
    expect(decided!.decided_status).toBe('DONE');
  });

  it('a seeded RUB withdrawal whose payout is pending, declined by an operator: refused, naming the withdrawal and its payout', async () => {
    // the demo data, as every operator meets it first: the seed writes its payouts as the engine does
    const [seeded] = await q<{ id: string; attempt: number; type: string }>(sql`
      SELECT i.id, t.attempt, t.type FROM invoices i
        JOIN currencies c ON c.id = i.currency_id
        JOIN provider_transactions t ON t.invoice_id = i.id AND t.status = 'PENDING'
       WHERE i.merchant_id = ${t.demo.merchantId} AND i.flow_type = 'WITHDRAWAL' AND i.status = 'IN_PROGRESS'
         AND c.code = 'RUB' AND NOT i.is_test
       ORDER BY i.created_at LIMIT 1`);
    expect(seeded, 'a seeded RUB withdrawal in progress with its payout pending').toBeDefined();
    expect(seeded!.type).toBe('PAYOUT');
    const before = await ledgerSnapshot();
    const res = await setStatus(seeded!.id, 'DECLINED', { reason: 'Customer asked to stop the payout' });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.code).toBe('INVALID_STATE');
    expect(res.json().error.message).toBe(
      `Refused: payout attempt ${seeded!.attempt} is still with the provider; the withdrawal becomes DECLINED only after the provider declined it (set DONE if it was paid)`,
    );
    expect(await ledgerSnapshot()).toBe(before);
    const [still] = await q<{ status: string }>(sql`SELECT status FROM invoices WHERE id = ${seeded!.id}`);
    expect(still!.status).toBe('IN_PROGRESS');
  });

  it('a deposit being confirmed by the provider is not moved back; "Have paid" twice asks the provider once', async () => {
    const terminal = t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && x.currency === 'UZS' && !x.isTest)!;
    const res = await injectSigned(
      t.app,
      sign,
      'POST',
      '/api/merchant/v1/invoices',
      invoiceBody(terminal, { amount: 2_468_00 }),
    );
    const { invoiceId, formId } = res.json().data;
    const form = `/api/payments/form/${formId}`;
    const init = (await t.app.inject({ method: 'POST', url: `${form}/init` })).json().data;
    const cred = await t.app.inject({
      method: 'POST',
      url: `${form}/credential`,
      payload: { amount: 2_468_00, paymentMethodId: init.methods[0].id },
    });
    expect(cred.statusCode, cred.body).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: `${form}/complete`, payload: {} })).statusCode).toBe(200);
    const txns = () =>
      q<{ status: string }>(sql`SELECT status FROM provider_transactions WHERE invoice_id = ${invoiceId}`);
    expect(await txns()).toEqual([{ status: 'PENDING' }]);
    const back = await setStatus(invoiceId, 'NEW');
    expect(back.statusCode, back.body).toBe(409);
    expect(back.json().error.message).toMatch(/still confirming this deposit/);
    // back to IN_PROGRESS still waits for the same answer; "Have paid" again does not ask a second time
    expect((await setStatus(invoiceId, 'IN_PROGRESS')).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: `${form}/complete`, payload: {} })).statusCode).toBe(200);
    expect(await txns()).toEqual([{ status: 'PENDING' }]);
    // staff may end it; the request stays with the provider (its late confirmation would be held in suspense)
    expect((await setStatus(invoiceId, 'CANCELED')).statusCode).toBe(200);
    expect(await txns()).toEqual([{ status: 'PENDING' }]);
  });

  it('approving a ticket on a never-routed deposit names the account the money arrived on', async () => {
    const { invoiceId, formId } = await newInvoice('DEPOSIT', 'UZS', 654_000_00);
    const opened = await t.app.inject({
      method: 'POST',
      url: `/api/payments/form/${formId}/support`,
      payload: { description: 'I paid but the page did not show the card' },
    });
    expect(opened.statusCode, opened.body).toBe(200);
    const ticketId = opened.json().data.ticketId as number;
    const decide = (decision: string, payload: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/merchant/support/${decision}?merchantId=${t.demo.merchantId}`,
        headers: { cookie: ops },
        payload,
      });
    const before = await ledgerSnapshot();
    const bare = await decide('approve', { ticketId });
    expect(bare.statusCode).toBe(409);
    expect(bare.json().error.fields).toEqual({ peopleAccountId: 'Choose the account the money arrived on' });
    expect((await decide('reject', { ticketId, peopleAccountId: 1 })).statusCode).toBe(400);
    const rub = await liveAccount('RUB');
    expect((await decide('approve', { ticketId, peopleAccountId: rub!.id })).statusCode).toBe(400);
    expect(await ledgerSnapshot()).toBe(before);
    const [ticket] = await q<{ status: string }>(sql`SELECT status FROM support_tickets WHERE id = ${ticketId}`);
    expect(ticket!.status).toBe('NEW');

    const uzs = await liveAccount('UZS');
    const ok = await decide('approve', { ticketId, peopleAccountId: uzs!.id });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.status.code).toBe('SOLVED');
    const legs = await q<{ provider_account_id: number }>(
      sql`SELECT provider_account_id FROM ledger_entries WHERE invoice_id = ${invoiceId} AND account = 'provider_account'`,
    );
    expect(legs).toEqual([{ provider_account_id: uzs.id }]);
  });

  it('the books still reconcile after all of it', async () => {
    expect(await reconcileLedger(t.ctx.db)).toEqual({ drift: [], unbalanced: [] });
  });
});
