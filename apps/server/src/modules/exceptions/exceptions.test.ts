import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';
import {
  depositGivenRequisites,
  injectSigned,
  invoiceBody,
  merchantSigner,
  type Signer,
} from '../../../test/merchant-client';
import { reconcileLedger } from '../ledger/reconcile';
import { checkMoneyInvariants } from '../engine/invariants.testkit';

/**
 * The operations desk over HTTP: money that matched no invoice is on the books in suspense from the moment it arrives,
 * staff match or return it through the engine, and a provider's answer that contradicts staff is kept and queued.
 */
let t: TestApp;
let sign: Signer;
const cookies: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
  for (const u of ['admin', 'ops', 'owner', 'finance', 'support', 'viewer', 'shop2'])
    cookies[u] = await loginAs(t.app, u);
});
afterAll(async () => t?.close());

const q = async <T extends Record<string, unknown>>(s: ReturnType<typeof sql>) => (await t.ctx.db.execute<T>(s)).rows;
const as = (who: string, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: cookies[who]! }, ...(payload === undefined ? {} : { payload }) });

const liveUzs = (flow: 'DEPOSIT' | 'WITHDRAWAL') =>
  t.demo.terminals.find((x) => x.flowType === flow && x.currency === 'UZS' && !x.isTest)!;

/** A live UZS deposit whose customer got requisites: its id, form and account. */
const depositWithRequisites = (amount: number, customer?: Record<string, string>) =>
  depositGivenRequisites(t, sign, amount, customer ? { customer } : {});

let refs = 0;
const report = (provider: string, accountId: number, amount: number) =>
  t.app.inject({
    method: 'POST',
    url: '/api/provider/v1/incoming',
    headers: { authorization: `Bearer dev:${provider}` },
    payload: { accountId, amount, occurredAt: t.clock.now().toISOString(), reference: `late-${process.pid}-${++refs}` },
  });

async function suspense(currency = 'UZS', book = 'live') {
  const res = await as('ops', 'GET', '/api/v1/ledger/suspense');
  expect(res.statusCode, res.body).toBe(200);
  const row = (res.json().data as { currency: string; book: string; amount: number }[]).find(
    (r) => r.currency === currency && r.book === book,
  );
  return Number(row?.amount ?? 0);
}
async function accountBalance(accountId: number) {
  const [r] = await q<{ v: string }>(sql`SELECT coalesce(sum(balance), 0)::text AS v FROM ledger_balances
    WHERE account = 'provider_account' AND provider_account_id = ${accountId} AND book = 'live'`);
  return Number(r!.v);
}
async function merchantBalance(merchantId = t.demo.merchantId) {
  const [r] = await q<{ v: string }>(sql`SELECT coalesce(-sum(b.balance), 0)::text AS v FROM ledger_balances b
    JOIN currencies c ON c.id = b.currency_id
    WHERE b.merchant_id = ${merchantId} AND b.account = 'merchant' AND b.book = 'live' AND c.code = 'UZS'`);
  return Number(r!.v);
}
const status = async (invoiceId: string) =>
  (await q<{ status: string }>(sql`SELECT status FROM invoices WHERE id = ${invoiceId}`))[0]!.status;
const counts = async () =>
  (
    await q<{ ledger: number; audit: number; items: string }>(sql`SELECT
      (SELECT count(*)::int FROM ledger_entries) AS ledger, (SELECT count(*)::int FROM audit_log) AS audit,
      (SELECT string_agg(id::text || status, ',' ORDER BY id) FROM incoming_payments) AS items`)
  )[0]!;

describe('unmatched money', () => {
  it('a late payment: cancelled deposit → money reported → suspense and account up → matched → credited once', async () => {
    const amount = 1_250_000_00 + 17;
    const dep = await depositWithRequisites(amount);
    const cancel = await injectSigned(t.app, sign, 'POST', `/api/merchant/v1/invoices/${dep.invoiceId}/cancel`, {});
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(await status(dep.invoiceId)).toBe('CANCELED');

    const [s0, a0, m0] = [await suspense(), await accountBalance(dep.accountId), await merchantBalance()];
    const rep = await report(dep.provider, dep.accountId, amount);
    expect(rep.statusCode, rep.body).toBe(200);
    const item = rep.json().data as { id: string; status: string };
    expect(item.status).toBe('UNMATCHED');
    // on the books from the moment it arrived: the account counts it, suspense holds it, the books reconcile
    expect(await suspense()).toBe(s0 + amount);
    expect(await accountBalance(dep.accountId)).toBe(a0 + amount);
    expect(await merchantBalance()).toBe(m0);
    expect(await reconcileLedger(t.ctx.db)).toEqual({ drift: [], unbalanced: [] });

    const list = await as('ops', 'GET', `/api/v1/incoming?status=UNMATCHED&accountId=${dep.accountId}`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((r: { id: string }) => r.id)).toContain(item.id);
    const detail = await as('ops', 'GET', `/api/v1/incoming/${item.id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().data.candidates[0]).toMatchObject({ invoiceId: dep.invoiceId, status: 'CANCELED' });
    expect(detail.json().data.candidates[0].reasons).toEqual(expect.arrayContaining(['same account', 'same amount']));

    const match = await as('ops', 'POST', `/api/v1/incoming/${item.id}/match`, {
      invoiceId: dep.invoiceId,
      reason: 'customer paid three minutes after expiry',
    });
    expect(match.statusCode, match.body).toBe(200);
    expect(match.json().data).toMatchObject({ status: 'MATCHED', matchedInvoiceId: dep.invoiceId, resolvedBy: 'ops' });
    expect(await status(dep.invoiceId)).toBe('DONE');
    const [fee] = await q<{ fee: string }>(sql`SELECT fee::text FROM invoices WHERE id = ${dep.invoiceId}`);
    expect(await merchantBalance()).toBe(m0 + amount - Number(fee!.fee));
    expect(await accountBalance(dep.accountId)).toBe(a0 + amount); // counted once
    expect(await suspense()).toBe(s0);
    const audit = await q<{ action: string; reason: string }>(sql`SELECT action, reason FROM audit_log
      WHERE target_type = 'incoming' AND target_id = ${item.id}`);
    expect(audit).toEqual([{ action: 'incoming.matched', reason: 'customer paid three minutes after expiry' }]);
    await checkMoneyInvariants(t.ctx.db);

    // matching twice: 409, nothing written
    const before = await counts();
    const again = await as('ops', 'POST', `/api/v1/incoming/${item.id}/match`, {
      invoiceId: dep.invoiceId,
      reason: 'once more',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toMatch(/already MATCHED/);
    expect(await counts()).toEqual(before);
  });

  it('ranks the deposits of the customer the bank named as payer first, and says so', async () => {
    const amount = 730_000_00 + 41;
    const ivan = await depositWithRequisites(amount, {
      externalId: 'cust-ivan',
      firstName: 'Ivan',
      lastName: 'Petrov',
    });
    // a deposit's amount is taken on its account while it is open: cancel it before the next of the same amount
    const cancel = (id: string) => injectSigned(t.app, sign, 'POST', `/api/merchant/v1/invoices/${id}/cancel`, {});
    expect((await cancel(ivan.invoiceId)).statusCode).toBe(200);
    t.clock.advance(60_000);
    const aziz = await depositWithRequisites(amount);
    expect(aziz.accountId).toBe(ivan.accountId);
    expect((await cancel(aziz.invoiceId)).statusCode).toBe(200);
    t.clock.advance(60_000);
    const candidatesFor = async (payerName?: string) => {
      const rep = await t.app.inject({
        method: 'POST',
        url: '/api/provider/v1/incoming',
        headers: { authorization: `Bearer dev:${ivan.provider}` },
        payload: {
          accountId: ivan.accountId,
          amount,
          occurredAt: t.clock.now().toISOString(),
          reference: `payer-${process.pid}-${++refs}`,
          ...(payerName ? { payerName } : {}),
        },
      });
      expect(rep.statusCode, rep.body).toBe(200);
      expect(rep.json().data.payerName).toBe(payerName ?? null);
      const detail = await as('ops', 'GET', `/api/v1/incoming/${rep.json().data.id}`);
      expect(detail.json().data.item.payerName).toBe(payerName ?? null);
      return detail.json().data.candidates as { invoiceId: string; reasons: string[]; customer: string }[];
    };
    // without a payer's name the nearer deposit in time comes first
    expect((await candidatesFor()).map((c) => c.invoiceId).slice(0, 2)).toEqual([aziz.invoiceId, ivan.invoiceId]);
    const named = await candidatesFor('PETROV IVAN');
    expect(named[0]).toMatchObject({ invoiceId: ivan.invoiceId, customer: 'Ivan Petrov' });
    expect(named[0]!.reasons).toContain('the payer is this customer');
    expect((await candidatesFor('IVAN P.'))[0]!.reasons).toContain("the payer's name fits this customer");
    const tooLong = await t.app.inject({
      method: 'POST',
      url: '/api/provider/v1/incoming',
      headers: { authorization: `Bearer dev:${ivan.provider}` },
      payload: {
        accountId: ivan.accountId,
        amount,
        occurredAt: t.clock.now().toISOString(),
        reference: 'x-long',
        payerName: 'x'.repeat(129),
      },
    });
    expect(tooLong.statusCode).toBe(400);
    expect(await q(sql`SELECT 1 FROM incoming_payments WHERE reference = 'x-long'`)).toEqual([]);
  });

  it('another amount is corrected on the invoice to what arrived, with the reason', async () => {
    const dep = await depositWithRequisites(300_000_00 + 19);
    await injectSigned(t.app, sign, 'POST', `/api/merchant/v1/invoices/${dep.invoiceId}/cancel`, {});
    const rep = await report(dep.provider, dep.accountId, 299_000_00 + 19);
    const s0 = await suspense();
    const match = await as('ops', 'POST', `/api/v1/incoming/${rep.json().data.id}/match`, {
      invoiceId: dep.invoiceId,
      reason: 'customer sent less',
    });
    expect(match.statusCode, match.body).toBe(200);
    const [inv] = await q<{ amount: string; status: string }>(sql`SELECT amount::text, status FROM invoices
      WHERE id = ${dep.invoiceId}`);
    expect(inv).toEqual({ amount: String(299_000_00 + 19), status: 'DONE' });
    expect(await suspense()).toBe(s0 - (299_000_00 + 19));
    await checkMoneyInvariants(t.ctx.db);
  });

  it('a return: suspense goes out against the provider account, with its reference; twice is 409', async () => {
    const dep = await depositWithRequisites(77_000_00 + 23);
    const rep = await report(dep.provider, dep.accountId, 12_345_00 + 1);
    const id = rep.json().data.id as string;
    const [s0, a0] = [await suspense(), await accountBalance(dep.accountId)];
    const ret = await as('ops', 'POST', `/api/v1/incoming/${id}/return`, {
      reference: 'RET-0001',
      reason: 'payer asked for it back',
    });
    expect(ret.statusCode, ret.body).toBe(200);
    expect(ret.json().data).toMatchObject({ status: 'RETURNED', returnReference: 'RET-0001' });
    expect(await suspense()).toBe(s0 - (12_345_00 + 1));
    expect(await accountBalance(dep.accountId)).toBe(a0 - (12_345_00 + 1));
    const before = await counts();
    expect(
      (await as('ops', 'POST', `/api/v1/incoming/${id}/return`, { reference: 'x', reason: 'again' })).statusCode,
    ).toBe(409);
    expect(
      (await as('ops', 'POST', `/api/v1/incoming/${id}/match`, { invoiceId: dep.invoiceId, reason: 'now' })).statusCode,
    ).toBe(409);
    expect(await counts()).toEqual(before);
    await checkMoneyInvariants(t.ctx.db);
  });

  it('refuses a deposit of another currency (400), a withdrawal (400), bad input (400); writes nothing', async () => {
    const dep = await depositWithRequisites(55_000_00 + 29);
    const id = (await report(dep.provider, dep.accountId, 1_000_00 + 3)).json().data.id as string;
    const rub = t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && x.currency === 'RUB' && !x.isTest)!;
    const other = await injectSigned(
      t.app,
      sign,
      'POST',
      '/api/merchant/v1/invoices',
      invoiceBody(rub, { amount: 1_000_00 }),
    );
    const wd = await injectSigned(
      t.app,
      sign,
      'POST',
      '/api/merchant/v1/invoices',
      invoiceBody(liveUzs('WITHDRAWAL'), { amount: 1_000_00 }),
    );
    const before = await counts();
    const rubMatch = await as('ops', 'POST', `/api/v1/incoming/${id}/match`, {
      invoiceId: other.json().data.invoiceId,
      reason: 'wrong one',
    });
    expect(rubMatch.statusCode).toBe(400);
    expect(rubMatch.json().error.fields.invoiceId).toMatch(/UZS.*RUB/);
    const wdMatch = await as('ops', 'POST', `/api/v1/incoming/${id}/match`, {
      invoiceId: wd.json().data.invoiceId,
      reason: 'no',
    });
    expect(wdMatch.statusCode).toBe(400);
    for (const body of [
      {},
      { invoiceId: 'x', reason: 'ok ok' },
      { invoiceId: dep.invoiceId },
      { invoiceId: dep.invoiceId, reason: 'a' },
    ]) {
      const res = await as('ops', 'POST', `/api/v1/incoming/${id}/match`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await as('ops', 'POST', `/api/v1/incoming/${id}/return`, { reason: 'no reference' })).statusCode).toBe(400);
    expect((await as('ops', 'GET', '/api/v1/incoming?after=nonsense')).statusCode).toBe(400);
    expect((await as('ops', 'GET', `/api/v1/incoming/00000000-0000-4000-8000-000000000000`)).statusCode).toBe(404);
    expect(await counts()).toEqual(before);
  });

  it('merchant staff of any role are refused every desk route (403) and change nothing', async () => {
    const dep = await depositWithRequisites(66_000_00 + 31);
    const id = (await report(dep.provider, dep.accountId, 2_000_00 + 7)).json().data.id as string;
    const before = await counts();
    for (const who of ['owner', 'finance', 'support', 'viewer', 'shop2']) {
      for (const [method, url, body] of [
        ['GET', '/api/v1/incoming', undefined],
        ['GET', `/api/v1/incoming/${id}`, undefined],
        ['GET', '/api/v1/ledger/suspense', undefined],
        ['GET', '/api/v1/contradictions', undefined],
        ['POST', `/api/v1/incoming/${id}/match`, { invoiceId: dep.invoiceId, reason: 'mine now' }],
        ['POST', `/api/v1/incoming/${id}/return`, { reference: 'R', reason: 'give back' }],
        ['POST', '/api/v1/contradictions/1/resolve', { resolution: 'KEEP_BOOKS', reason: 'fine by me' }],
      ] as const) {
        const res = await as(who, method, url, body);
        expect(res.statusCode, `${who} ${method} ${url}`).toBe(403);
      }
    }
    expect(await counts()).toEqual(before);
  });
});

describe('the reverse order, and tickets', () => {
  it('money reported for a deposit staff already set DONE confirms it: no second credit, the account counted once', async () => {
    const amount = 88_000_00 + 37;
    const dep = await depositWithRequisites(amount);
    const done = await as('ops', 'PATCH', `/api/v1/invoice/status?merchantId=${t.demo.merchantId}`, {
      invoiceId: dep.invoiceId,
      statusId: 4,
      reason: 'customer showed the receipt',
    });
    expect(done.statusCode, done.body).toBe(200);
    const [s0, a0, m0] = [await suspense(), await accountBalance(dep.accountId), await merchantBalance()];
    const rep = await report(dep.provider, dep.accountId, amount);
    expect(rep.json().data).toMatchObject({ status: 'MATCHED', matchedInvoiceId: dep.invoiceId });
    expect([await suspense(), await accountBalance(dep.accountId), await merchantBalance()]).toEqual([s0, a0, m0]);
    await checkMoneyInvariants(t.ctx.db);
  });

  it('a ticket approved after the money arrived unmatched takes that money: it never credits twice', async () => {
    const amount = 41_000_00 + 41;
    const dep = await depositWithRequisites(amount);
    await injectSigned(t.app, sign, 'POST', `/api/merchant/v1/invoices/${dep.invoiceId}/cancel`, {});
    const item = (await report(dep.provider, dep.accountId, amount)).json().data as { id: string };
    const [s1, a1, m1] = [await suspense(), await accountBalance(dep.accountId), await merchantBalance()];
    const opened = await t.app.inject({
      method: 'POST',
      url: `/api/payments/form/${dep.formId}/support`,
      payload: { description: 'I paid' },
    });
    expect(opened.statusCode, opened.body).toBe(200);
    const approve = await as('ops', 'POST', `/api/v1/merchant/support/approve?merchantId=${t.demo.merchantId}`, {
      ticketId: opened.json().data.ticketId,
    });
    expect(approve.statusCode, approve.body).toBe(200);
    const [fee] = await q<{ fee: string }>(sql`SELECT fee::text FROM invoices WHERE id = ${dep.invoiceId}`);
    expect(await suspense()).toBe(s1 - amount);
    expect(await accountBalance(dep.accountId)).toBe(a1);
    expect(await merchantBalance()).toBe(m1 + amount - Number(fee!.fee));
    const [it1] = await q<{ status: string; matched_invoice_id: string }>(sql`SELECT status, matched_invoice_id
      FROM incoming_payments WHERE id = ${item.id}`);
    expect(it1).toEqual({ status: 'MATCHED', matched_invoice_id: dep.invoiceId });
    await checkMoneyInvariants(t.ctx.db);
  });
});

describe("a provider's answer is never lost", () => {
  it('operator DONE on a withdrawal with its payout pending, then the provider declines: stored, 2xx, contradiction queued', async () => {
    const create = await injectSigned(
      t.app,
      sign,
      'POST',
      '/api/merchant/v1/invoices',
      invoiceBody(liveUzs('WITHDRAWAL'), { amount: 10_000_00 }),
    );
    const { invoiceId, formId } = create.json().data as { invoiceId: string; formId: string };
    const init = await t.app.inject({ method: 'POST', url: `/api/payments/form/${formId}/init` });
    await t.app.inject({
      method: 'POST',
      url: `/api/payments/form/${formId}/credential`,
      payload: { amount: 10_000_00, paymentMethodId: init.json().data.methods[0].id },
    });
    const complete = await t.app.inject({
      method: 'POST',
      url: `/api/payments/form/${formId}/complete`,
      payload: { credential: '8600123456789012' },
    });
    expect(complete.statusCode, complete.body).toBe(200);
    const [txn] = await q<{ id: string; code: string }>(sql`SELECT pt.id, p.code FROM provider_transactions pt
      JOIN provider_accounts a ON a.id = pt.account_id JOIN providers p ON p.id = a.provider_id
      WHERE pt.invoice_id = ${invoiceId} AND pt.status = 'PENDING'`);
    const m0 = await merchantBalance();
    const done = await as('ops', 'PATCH', `/api/v1/invoice/status?merchantId=${t.demo.merchantId}`, {
      invoiceId,
      statusId: 4,
      reason: 'operator says paid',
    });
    expect(done.statusCode, done.body).toBe(200);
    // the transaction stays open: only the provider's answer closes it; the operator's decision sits beside it
    const [open] = await q<{ status: string; decided_status: string }>(sql`SELECT status, decided_status
      FROM provider_transactions WHERE id = ${txn!.id}`);
    expect(open).toEqual({ status: 'PENDING', decided_status: 'DONE' });

    const answer = await t.app.inject({
      method: 'POST',
      url: `/api/provider/v1/payouts/${txn!.id}`,
      headers: { authorization: `Bearer dev:${txn!.code}` },
      payload: { status: 'DECLINED', reason: 'card blocked' },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().data).toMatchObject({ transactionStatus: 'DECLINED', invoiceStatus: 'DONE' });
    const list = await as('ops', 'GET', '/api/v1/contradictions?status=OPEN');
    const c = (list.json().data as { id: number; invoiceId: string; effect: unknown[] }[]).find(
      (x) => x.invoiceId === invoiceId,
    )!;
    expect(c).toMatchObject({ providerStatus: 'DECLINED', booksStatus: 'DONE', invoiceStatus: 'DONE' });
    expect(c.effect.length).toBeGreaterThan(0);
    // the same answer again is idempotent; the other answer is refused
    const same = await t.app.inject({
      method: 'POST',
      url: `/api/provider/v1/payouts/${txn!.id}`,
      headers: { authorization: `Bearer dev:${txn!.code}` },
      payload: { status: 'DECLINED' },
    });
    expect(same.statusCode).toBe(200);

    const resolve = await as('ops', 'POST', `/api/v1/contradictions/${c.id}/resolve`, {
      resolution: 'ACCEPT_PROVIDER',
      reason: 'bank confirms the card was blocked',
    });
    expect(resolve.statusCode, resolve.body).toBe(200);
    expect(resolve.json().data).toMatchObject({
      status: 'RESOLVED',
      resolution: 'ACCEPT_PROVIDER',
      invoiceStatus: 'DECLINED',
    });
    // the merchant's held and paid funds come back: the withdrawal was not paid
    const [inv] = await q<{ amount: string; fee: string }>(
      sql`SELECT amount::text, fee::text FROM invoices WHERE id = ${invoiceId}`,
    );
    expect(await merchantBalance()).toBe(m0 + Number(inv!.amount) + Number(inv!.fee));
    const twice = await as('ops', 'POST', `/api/v1/contradictions/${c.id}/resolve`, {
      resolution: 'KEEP_BOOKS',
      reason: 'again',
    });
    expect(twice.statusCode).toBe(409);
    await checkMoneyInvariants(t.ctx.db);
  });
});

describe('the books against the provider, the other way round, and every resolution', () => {
  type Book = 'live' | 'test';
  /** The merchant's available UZS balance in a book (liabilities are shown negated). */
  const merchantIn = async (book: Book) => {
    const [r] = await q<{ v: string }>(sql`SELECT coalesce(-sum(b.balance), 0)::text AS v FROM ledger_balances b
      JOIN currencies c ON c.id = b.currency_id
      WHERE b.merchant_id = ${t.demo.merchantId} AND b.account = 'merchant' AND b.book = ${book} AND c.code = 'UZS'`);
    return Number(r!.v);
  };
  const accountIn = async (accountId: number, book: Book) => {
    const [r] = await q<{ v: string }>(sql`SELECT coalesce(sum(balance), 0)::text AS v FROM ledger_balances
      WHERE account = 'provider_account' AND provider_account_id = ${accountId} AND book = ${book}`);
    return Number(r!.v);
  };
  const ledgerCount = async () => (await q<{ n: number }>(sql`SELECT count(*)::int AS n FROM ledger_entries`))[0]!.n;
  const setStatus = (invoiceId: string, statusId: number, reason: string) =>
    as('ops', 'PATCH', `/api/v1/invoice/status?merchantId=${t.demo.merchantId}`, { invoiceId, statusId, reason });
  const transactionOf = async (invoiceId: string) =>
    (
      await q<{ id: string; status: string; decided_status: string | null; code: string }>(sql`
        SELECT pt.id, pt.status, pt.decided_status, p.code FROM provider_transactions pt
        JOIN provider_accounts a ON a.id = pt.account_id JOIN providers p ON p.id = a.provider_id
        WHERE pt.invoice_id = ${invoiceId} ORDER BY pt.attempt DESC LIMIT 1`)
    )[0]!;
  const contradictionOf = async (invoiceId: string, state = 'OPEN') => {
    const list = await as('ops', 'GET', `/api/v1/contradictions?status=${state}&limit=200`);
    expect(list.statusCode, list.body).toBe(200);
    return (
      list.json().data as {
        id: number;
        invoiceId: string;
        providerStatus: string;
        booksStatus: string;
        invoiceStatus: string;
        effect: { account: string; amount: number }[];
      }[]
    ).find((x) => x.invoiceId === invoiceId);
  };
  const auditOf = (contradictionId: number) =>
    q<{ action: string; actor_username: string; reason: string; before: unknown; after: unknown }>(sql`
      SELECT action, actor_username, reason, before, after FROM audit_log
      WHERE target_type = 'contradiction' AND target_id = ${String(contradictionId)} ORDER BY id`);
  const callbacksOf = (invoiceId: string) =>
    q<{ type: string; status: string }>(sql`SELECT payload->>'type' AS type, payload->>'status' AS status
      FROM callbacks WHERE invoice_id = ${invoiceId} ORDER BY create_date, id`);

  /** A live UZS withdrawal whose payout is with the provider: its id, and the pending transaction. */
  async function withdrawalWithPayout(amount: number) {
    const create = await injectSigned(
      t.app,
      sign,
      'POST',
      '/api/merchant/v1/invoices',
      invoiceBody(liveUzs('WITHDRAWAL'), { amount }),
    );
    expect(create.statusCode, create.body).toBe(201);
    const { invoiceId, formId } = create.json().data as { invoiceId: string; formId: string };
    const init = await t.app.inject({ method: 'POST', url: `/api/payments/form/${formId}/init` });
    await t.app.inject({
      method: 'POST',
      url: `/api/payments/form/${formId}/credential`,
      payload: { amount, paymentMethodId: init.json().data.methods[0].id },
    });
    const complete = await t.app.inject({
      method: 'POST',
      url: `/api/payments/form/${formId}/complete`,
      payload: { credential: '8600123456789012' },
    });
    expect(complete.statusCode, complete.body).toBe(200);
    const txn = await transactionOf(invoiceId);
    expect(txn.status).toBe('PENDING');
    return { invoiceId, txn };
  }
  const answerPayout = (txn: { id: string; code: string }, status: 'DONE' | 'DECLINED', reason?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/provider/v1/payouts/${txn.id}`,
      headers: { authorization: `Bearer dev:${txn.code}` },
      payload: { status, ...(reason ? { reason } : {}) },
    });

  /** A test (sandbox) UZS deposit whose customer pressed "Have paid": its confirmation is with the sandbox provider. */
  async function testDepositPayed(amount: number) {
    const terminal = t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && x.currency === 'UZS' && x.isTest)!;
    const create = await injectSigned(
      t.app,
      sign,
      'POST',
      '/api/merchant/v1/invoices',
      invoiceBody(terminal, { amount }),
    );
    expect(create.statusCode, create.body).toBe(201);
    const { invoiceId, formId } = create.json().data as { invoiceId: string; formId: string };
    const init = await t.app.inject({ method: 'POST', url: `/api/payments/form/${formId}/init` });
    const cred = await t.app.inject({
      method: 'POST',
      url: `/api/payments/form/${formId}/credential`,
      payload: { amount, paymentMethodId: init.json().data.methods[0].id },
    });
    expect(cred.statusCode, cred.body).toBe(200);
    const paid = await t.app.inject({ method: 'POST', url: `/api/payments/form/${formId}/complete`, payload: {} });
    expect(paid.statusCode, paid.body).toBe(200);
    const [row] = await q<{ account_id: number; fee: string }>(sql`SELECT account_id, fee::text FROM invoices
      WHERE id = ${invoiceId}`);
    expect((await transactionOf(invoiceId)).status).toBe('PENDING');
    return { invoiceId, accountId: Number(row!.account_id), fee: Number(row!.fee) };
  }

  it('staff cannot decline or cancel a withdrawal whose payout is with the provider: refused, nothing written; the provider then pays, 2xx', async () => {
    const { invoiceId, txn } = await withdrawalWithPayout(12_000_00);
    const before = [await ledgerCount(), await counts(), await callbacksOf(invoiceId), await transactionOf(invoiceId)];
    // the books can never say "not paid" while the provider may still pay: the reverse contradiction cannot arise
    for (const statusId of [5, 6]) {
      const res = await setStatus(invoiceId, statusId, 'customer asked to stop the payout');
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({
        error: {
          code: 'INVALID_STATE',
          message: expect.stringMatching(/payout attempt 1 is still with the provider/),
        },
      });
    }
    expect([await ledgerCount(), await counts(), await callbacksOf(invoiceId), await transactionOf(invoiceId)]).toEqual(
      before,
    );
    expect(await status(invoiceId)).toBe('IN_PROGRESS');
    const paid = await answerPayout(txn, 'DONE');
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().data).toMatchObject({ transactionStatus: 'DONE', invoiceStatus: 'DONE' });
    expect(await contradictionOf(invoiceId)).toBeUndefined();
    expect(await reconcileLedger(t.ctx.db)).toEqual({ drift: [], unbalanced: [] });
  });

  it('staff decline a deposit the provider is confirming, then the provider confirms it: kept, held in suspense, offered against that deposit', async () => {
    const { tickSandbox } = await import('../sandbox/service');
    const amount = 46_000_00 + 47;
    const dep = await testDepositPayed(amount);
    const declined = await setStatus(dep.invoiceId, 5, 'customer says the transfer bounced');
    expect(declined.statusCode, declined.body).toBe(200);
    // the decision is the operator's, beside the transaction, which stays open for the provider's answer
    expect(await transactionOf(dep.invoiceId)).toMatchObject({ status: 'PENDING', decided_status: 'DECLINED' });
    const [s0, a0, m0] = [
      await suspense('UZS', 'test'),
      await accountIn(dep.accountId, 'test'),
      await merchantIn('test'),
    ];

    // the provider (the sandbox, for a test deposit) confirms the money after all
    await tickSandbox(t.ctx);
    expect(await transactionOf(dep.invoiceId)).toMatchObject({ status: 'DONE', decided_status: 'DECLINED' });
    expect(await status(dep.invoiceId)).toBe('DECLINED');
    // the money is on the card: on the books at once, in suspense, and the account counts it; the merchant is not
    // credited for a deposit the books say was declined
    expect(await suspense('UZS', 'test')).toBe(s0 + amount);
    expect(await accountIn(dep.accountId, 'test')).toBe(a0 + amount);
    expect(await merchantIn('test')).toBe(m0);
    expect(await reconcileLedger(t.ctx.db)).toEqual({ drift: [], unbalanced: [] });
    const [item] = await q<{ id: string; status: string; in_suspense: boolean; book: string }>(sql`
      SELECT id, status, in_suspense, book FROM incoming_payments WHERE hint_invoice_id = ${dep.invoiceId}`);
    expect(item).toMatchObject({ status: 'UNMATCHED', in_suspense: true, book: 'test' });
    const [logged] = await q<{ code: string }>(sql`SELECT code FROM event_log WHERE invoice_id = ${dep.invoiceId}
      ORDER BY id DESC LIMIT 1`);
    expect(logged!.code).toBe('LATE_PAYMENT_IN_SUSPENSE');
    // staff see it on the unmatched queue with the deposit it was for first; it is no contradiction
    const detail = await as('ops', 'GET', `/api/v1/incoming/${item!.id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().data.candidates[0]).toMatchObject({ invoiceId: dep.invoiceId, status: 'DECLINED' });
    expect(await contradictionOf(dep.invoiceId)).toBeUndefined();

    const match = await as('ops', 'POST', `/api/v1/incoming/${item!.id}/match`, {
      invoiceId: dep.invoiceId,
      reason: 'the bank confirms the transfer did arrive',
    });
    expect(match.statusCode, match.body).toBe(200);
    expect(await status(dep.invoiceId)).toBe('DONE');
    expect(await merchantIn('test')).toBe(m0 + amount - dep.fee);
    expect(await accountIn(dep.accountId, 'test')).toBe(a0 + amount); // counted once
    expect(await suspense('UZS', 'test')).toBe(s0);
    await checkMoneyInvariants(t.ctx.db);
  });

  it('a deposit staff set DONE that the provider declines: a contradiction showing its effect; ACCEPT_PROVIDER takes the credit back', async () => {
    const { tickSandbox } = await import('../sandbox/service');
    // the sandbox declines amounts whose minor units end in 13
    const amount = 52_000_00 + 13;
    const dep = await testDepositPayed(amount);
    const m0 = await merchantIn('test');
    const done = await setStatus(dep.invoiceId, 4, 'customer sent a receipt');
    expect(done.statusCode, done.body).toBe(200);
    expect(await merchantIn('test')).toBe(m0 + amount - dep.fee);
    await tickSandbox(t.ctx);
    expect(await transactionOf(dep.invoiceId)).toMatchObject({ status: 'DECLINED', decided_status: 'DONE' });
    expect(await status(dep.invoiceId)).toBe('DONE');
    const c = await contradictionOf(dep.invoiceId);
    expect(c).toMatchObject({ providerStatus: 'DECLINED', booksStatus: 'DONE', invoiceStatus: 'DONE' });
    // what accepting the provider's answer would do to the books: the deposit's credit reversed
    expect(c!.effect).toEqual(
      expect.arrayContaining([
        { account: 'provider_account', amount: -amount },
        { account: 'merchant', amount: amount - dep.fee },
        { account: 'fees', amount: dep.fee },
      ]),
    );
    expect(c!.effect).toHaveLength(3);

    const accept = await as('ops', 'POST', `/api/v1/contradictions/${c!.id}/resolve`, {
      resolution: 'ACCEPT_PROVIDER',
      reason: 'the bank returned the transfer',
    });
    expect(accept.statusCode, accept.body).toBe(200);
    expect(accept.json().data).toMatchObject({
      status: 'RESOLVED',
      resolution: 'ACCEPT_PROVIDER',
      invoiceStatus: 'DECLINED',
      resolvedBy: 'ops',
      reason: 'the bank returned the transfer',
      effect: [],
    });
    expect(await status(dep.invoiceId)).toBe('DECLINED');
    expect(await merchantIn('test')).toBe(m0);
    expect((await callbacksOf(dep.invoiceId)).at(-1)).toEqual({ type: 'invoice.status', status: 'DECLINED' });
    expect(await auditOf(c!.id)).toEqual([
      expect.objectContaining({
        action: 'contradiction.resolved',
        actor_username: 'ops',
        reason: 'the bank returned the transfer',
        after: { resolution: 'ACCEPT_PROVIDER' },
      }),
    ]);
    expect(await reconcileLedger(t.ctx.db)).toEqual({ drift: [], unbalanced: [] });
    await checkMoneyInvariants(t.ctx.db);
  });

  it('KEEP_BOOKS: staff keep an operator DONE against the provider DECLINED; nothing moves, the provider keeps its word, audited', async () => {
    const { invoiceId, txn } = await withdrawalWithPayout(14_000_00);
    const done = await setStatus(invoiceId, 4, 'paid by hand from the reserve card');
    expect(done.statusCode, done.body).toBe(200);
    const declined = await answerPayout(txn, 'DECLINED', 'card blocked');
    expect(declined.statusCode, declined.body).toBe(200);
    const c = await contradictionOf(invoiceId);
    expect(c).toMatchObject({ providerStatus: 'DECLINED', booksStatus: 'DONE' });
    expect(c!.effect.length).toBeGreaterThan(0);

    const [l0, m0, cb0] = [await ledgerCount(), await merchantIn('live'), await callbacksOf(invoiceId)];
    const keep = await as('ops', 'POST', `/api/v1/contradictions/${c!.id}/resolve`, {
      resolution: 'KEEP_BOOKS',
      reason: 'the reserve card paid the customer',
    });
    expect(keep.statusCode, keep.body).toBe(200);
    expect(keep.json().data).toMatchObject({
      status: 'RESOLVED',
      resolution: 'KEEP_BOOKS',
      invoiceStatus: 'DONE',
      resolvedBy: 'ops',
      reason: 'the reserve card paid the customer',
      effect: [],
    });
    // the books stay as staff set them: no posting, no status change, no callback; the provider's answer stays its own
    expect([await ledgerCount(), await merchantIn('live'), await callbacksOf(invoiceId)]).toEqual([l0, m0, cb0]);
    expect(await status(invoiceId)).toBe('DONE');
    expect(await transactionOf(invoiceId)).toMatchObject({ status: 'DECLINED', decided_status: 'DONE' });
    const [event] = await q<{ code: string; description: string }>(sql`SELECT code, description FROM event_log
      WHERE invoice_id = ${invoiceId} ORDER BY id DESC LIMIT 1`);
    expect(event).toEqual({
      code: 'CONTRADICTION_RESOLVED',
      description: expect.stringMatching(/keep the books \(DONE\) against the provider's DECLINED/),
    });
    expect(await auditOf(c!.id)).toEqual([
      {
        action: 'contradiction.resolved',
        actor_username: 'ops',
        reason: 'the reserve card paid the customer',
        before: { invoiceId, invoice: 'DONE', provider: 'DECLINED' },
        after: { resolution: 'KEEP_BOOKS' },
      },
    ]);
    expect(await contradictionOf(invoiceId)).toBeUndefined();
    expect(await contradictionOf(invoiceId, 'RESOLVED')).toMatchObject({ id: c!.id });

    // resolved once: either resolution again is 409 in the error shape, and nothing is written
    const before = [await ledgerCount(), await counts()];
    for (const resolution of ['KEEP_BOOKS', 'ACCEPT_PROVIDER']) {
      const again = await as('ops', 'POST', `/api/v1/contradictions/${c!.id}/resolve`, { resolution, reason: 'again' });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({
        error: { code: 'INVALID_STATE', message: 'This contradiction is already resolved' },
      });
    }
    expect([await ledgerCount(), await counts()]).toEqual(before);
    expect(await reconcileLedger(t.ctx.db)).toEqual({ drift: [], unbalanced: [] });
    await checkMoneyInvariants(t.ctx.db);
  });

  it('ACCEPT_PROVIDER after staff already made the books agree: the invoice is not moved twice, the money not twice', async () => {
    // before the payout's hold: a declined withdrawal takes nothing from the merchant
    const m0 = await merchantIn('live');
    const { invoiceId, txn } = await withdrawalWithPayout(16_000_00);
    expect((await setStatus(invoiceId, 4, 'operator says paid')).statusCode).toBe(200);
    expect((await answerPayout(txn, 'DECLINED', 'card blocked')).statusCode).toBe(200);
    const c = await contradictionOf(invoiceId);
    expect(c).toBeDefined();
    // the provider answered, so staff may now set it DECLINED themselves: the merchant's funds come back
    const back = await setStatus(invoiceId, 5, 'provider says the card was blocked');
    expect(back.statusCode, back.body).toBe(200);
    expect(await merchantIn('live')).toBe(m0);
    const l0 = await ledgerCount();
    const accept = await as('ops', 'POST', `/api/v1/contradictions/${c!.id}/resolve`, {
      resolution: 'ACCEPT_PROVIDER',
      reason: 'already corrected',
    });
    expect(accept.statusCode, accept.body).toBe(200);
    expect(accept.json().data).toMatchObject({
      status: 'RESOLVED',
      resolution: 'ACCEPT_PROVIDER',
      invoiceStatus: 'DECLINED',
    });
    expect(await ledgerCount()).toBe(l0);
    expect(await merchantIn('live')).toBe(m0);
    const [event] = await q<{ code: string; description: string }>(sql`SELECT code, description FROM event_log
      WHERE invoice_id = ${invoiceId} ORDER BY id DESC LIMIT 1`);
    expect(event).toEqual({
      code: 'CONTRADICTION_RESOLVED',
      description: expect.stringMatching(/the invoice already was DECLINED/),
    });
    expect(await auditOf(c!.id)).toHaveLength(1);
    expect(await reconcileLedger(t.ctx.db)).toEqual({ drift: [], unbalanced: [] });
    await checkMoneyInvariants(t.ctx.db);
  });
});

describe('the queues', () => {
  it('count every queue with its oldest item, and list what waits too long, oldest first', async () => {
    const dep = await depositWithRequisites(33_000_00 + 43);
    const paid = await t.app.inject({ method: 'POST', url: `/api/payments/form/${dep.formId}/complete`, payload: {} });
    expect(paid.statusCode, paid.body).toBe(200);
    const summary = async () => {
      const res = await as('ops', 'GET', '/api/v1/exceptions/summary');
      expect(res.statusCode, res.body).toBe(200);
      return Object.fromEntries(
        (res.json().data as { queue: string; count: number }[]).map((r) => [r.queue, r.count]),
      ) as Record<string, number>;
    };
    const stuck = async () => {
      const res = await as('ops', 'GET', '/api/v1/exceptions/stuck?kind=PAYED&limit=200');
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data as { invoiceId: string }[]).map((r) => r.invoiceId);
    };
    const before = await summary();
    expect(Object.keys(before).sort()).toEqual(
      [
        'callbacksFailed',
        'contradictions',
        'payedStuck',
        'payoutStuck',
        'pausedAccounts',
        'statementExceptions',
        'unmatched',
      ].sort(),
    );
    const stuckBefore = await stuck();
    expect(stuckBefore).not.toContain(dep.invoiceId);
    t.clock.advance(31 * 60_000);
    try {
      // the demo's own PAYED deposits, made relative to the time the test database was seeded, may cross the
      // threshold in the same 31 minutes: the count grows by exactly the deposits that joined the queue
      const joined = (await stuck()).filter((id) => !stuckBefore.includes(id));
      expect(joined).toContain(dep.invoiceId);
      expect((await summary()).payedStuck).toBe(before.payedStuck! + joined.length);
      const first = await as('ops', 'GET', '/api/v1/exceptions/stuck?kind=PAYED&limit=1');
      const next = first.json().next as string | null;
      if (next) {
        const second = await as(
          'ops',
          'GET',
          `/api/v1/exceptions/stuck?kind=PAYED&limit=1&after=${encodeURIComponent(next)}`,
        );
        expect(second.statusCode, second.body).toBe(200);
        expect(second.json().data[0].invoiceId).not.toBe(first.json().data[0].invoiceId);
      }
    } finally {
      t.clock.advance(-31 * 60_000);
    }
    expect((await as('ops', 'GET', '/api/v1/exceptions/stuck?kind=NOPE')).statusCode).toBe(400);
    // each queue downloads as CSV, oldest first, amounts in major units
    const csv = await as('ops', 'GET', '/api/v1/exceptions/csv?queue=PAYED');
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.headers['content-disposition']).toContain('Exceptions-PAYED.csv');
    expect(csv.body.split('\n')[0]).toMatch(
      /^Waiting since,Merchant,Invoice,Invoice ID,Status,Amount,Currency,Waiting for/,
    );
    for (const queue of ['unmatched', 'PAYOUT', 'CALLBACK', 'contradictions']) {
      expect((await as('ops', 'GET', `/api/v1/exceptions/csv?queue=${queue}`)).statusCode, queue).toBe(200);
    }
    expect((await as('ops', 'GET', '/api/v1/exceptions/csv?queue=all')).statusCode).toBe(400);
    expect((await as('owner', 'GET', '/api/v1/exceptions/csv?queue=unmatched')).statusCode).toBe(403);
    expect((await as('owner', 'GET', '/api/v1/exceptions/summary')).statusCode).toBe(403);
  });
});

describe('a filtered queue downloads as what the desk shows', () => {
  /** The CSV's rows as objects by header (no cell of these queues holds a comma or a quote). */
  const rowsOf = (body: string) => {
    const [head, ...lines] = body.trim().split('\n');
    const keys = head!.split(',');
    return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [keys[i], v])) as Record<string, string>);
  };

  it('unmatched money by account and amount range: the same rows as the list, nothing outside the range', async () => {
    const dep = await depositWithRequisites(91_000_00 + 47);
    const [a, b, c] = [7_100_00 + 53, 7_200_00 + 53, 7_300_00 + 53];
    const refOf = async (amount: number) => {
      const rep = await report(dep.provider, dep.accountId, amount);
      expect(rep.statusCode, rep.body).toBe(200);
      return (rep.json().data as { reference: string }).reference;
    };
    const [ra, rb, rc] = [await refOf(a), await refOf(b), await refOf(c)];
    const filters = `accountId=${dep.accountId}&amountFrom=${a}&amountTo=${b}`;

    const csv = await as('ops', 'GET', `/api/v1/exceptions/csv?queue=unmatched&${filters}`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-disposition']).toContain('Exceptions-unmatched.csv');
    const rows = rowsOf(csv.body);
    expect(rows.map((r) => r.Reference)).toEqual(expect.arrayContaining([ra, rb]));
    expect(rows.map((r) => r.Reference)).not.toContain(rc);
    for (const r of rows) {
      expect(r.Account).toBe(String(dep.accountId));
      expect(Number(r.Amount!.replace('.', ''))).toBeGreaterThanOrEqual(a);
      expect(Number(r.Amount!.replace('.', ''))).toBeLessThanOrEqual(b);
    }
    // exactly the list's unmatched rows under the same filters
    const list = await as('ops', 'GET', `/api/v1/incoming?status=UNMATCHED&limit=200&${filters}`);
    expect(list.statusCode, list.body).toBe(200);
    const listed = (list.json().data as { reference: string }[]).map((r) => r.reference);
    expect(rows.map((r) => r.Reference).sort()).toEqual([...listed].sort());

    // another account's money is not in this account's file; the reported time narrows too
    const none = await as('ops', 'GET', `/api/v1/exceptions/csv?queue=unmatched&accountId=${dep.accountId + 100_000}`);
    expect(none.statusCode, none.body).toBe(200);
    expect(rowsOf(none.body)).toEqual([]);
    const future = new Date(t.clock.now().getTime() + 60_000).toISOString();
    const later = await as('ops', 'GET', `/api/v1/exceptions/csv?queue=unmatched&${filters}&from=${future}`);
    expect(rowsOf(later.body)).toEqual([]);
  });

  it("a stuck queue by merchant: another merchant's file leaves the demo merchant's invoices out", async () => {
    const other = '00000000-0000-4000-8000-000000000000';
    const csv = await as('ops', 'GET', `/api/v1/exceptions/csv?queue=CALLBACK&merchant=${other}`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(rowsOf(csv.body)).toEqual([]);
    const own = await as('ops', 'GET', `/api/v1/exceptions/csv?queue=CALLBACK&merchant=${t.demo.merchantId}`);
    expect(own.statusCode, own.body).toBe(200);
  });

  it('a bad or foreign filter answers 400 with the field named, and no file', async () => {
    const uuid = '00000000-0000-4000-8000-000000000000';
    const before = await counts();
    for (const [query, field, message] of [
      ['queue=unmatched&amountFrom=abc', 'amountFrom', /whole number of minor units/],
      ['queue=unmatched&amountTo=12.5', 'amountTo', /whole number of minor units/],
      ['queue=unmatched&amountFrom=-1', 'amountFrom', /0 or more/],
      ['queue=unmatched&accountId=0', 'accountId', /positive whole number/],
      ['queue=unmatched&providerId=x', 'providerId', /positive whole number/],
      ['queue=unmatched&from=yesterday', 'from', /ISO date-time/],
      ['queue=unmatched&amountFrom=500&amountTo=400', 'amountTo', /not be below amountFrom/],
      ['queue=unmatched&from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', 'to', /after from/],
      [`queue=unmatched&merchant=${uuid}`, 'merchant', /unmatched queue has no merchant filter/],
      ['queue=PAYED&accountId=1', 'accountId', /PAYED queue has no accountId filter/],
      [`queue=contradictions&merchant=${uuid}`, 'merchant', /contradictions queue has no merchant filter/],
      ['queue=PAYOUT&merchant=nope', 'merchant', /merchant id/],
      ['queue=unmatched&sort=amount', 'sort', /Unknown field/],
    ] as const) {
      const res = await as('ops', 'GET', `/api/v1/exceptions/csv?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.headers['content-type'], query).toMatch(/application\/json/);
      expect(res.headers['content-disposition'], query).toBeUndefined();
      expect(String(res.headers['set-cookie'] ?? ''), query).not.toContain('paydesk-download-started');
      const { error } = res.json() as { error: { code: string; message: string; fields: Record<string, string> } };
      expect(error.code, query).toBe('VALIDATION_ERROR');
      expect(error.fields[field], query).toMatch(message);
    }
    // the list takes the same filters with the same words
    const list = await as('ops', 'GET', '/api/v1/incoming?amountFrom=500&amountTo=400');
    expect(list.statusCode).toBe(400);
    expect(list.json().error.fields.amountTo).toMatch(/not be below amountFrom/);
    expect(await counts()).toEqual(before);
  });
});
