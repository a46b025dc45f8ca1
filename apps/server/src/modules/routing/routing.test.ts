import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';
import { injectSigned, invoiceBody, merchantSigner, type Signer } from '../../../test/merchant-client';
import { depositCandidates } from './service';
import { reconcileLedger } from '../ledger/reconcile';
import { checkMoneyInvariants } from '../engine/invariants.testkit';

/**
 * Routing of requisites (routing/service.ts, engine/guards.ts) as the customer meets it: candidates best first, and
 * the engine's guard deciding which has room — the account with the highest priority that has room under its limit
 * and, on a unique-amount account, no active deposit of the same amount.
 */
let t: TestApp;
let sign: Signer;
let methodId = 0;
let top = 0;
let second = 0;

beforeAll(async () => {
  t = await createTestApp();
  sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
  const terminal = t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && x.currency === 'UZS' && !x.isTest)!;
  const { formId } = await create(1_000_00);
  const init = (await t.app.inject({ method: 'POST', url: `/api/payments/form/${formId}/init` })).json().data;
  methodId = init.methods[0].id;
  const [cur] = (
    await t.ctx.db.execute<{ id: number }>(sql`SELECT currency_id AS id FROM terminals WHERE id = ${terminal.id}`)
  ).rows;
  const { eligible: ids } = await depositCandidates(t.ctx.db as never, {
    paymentMethodId: methodId,
    currencyId: Number(cur!.id),
    isTest: false,
  });
  expect(ids.length).toBeGreaterThanOrEqual(2);
  [top, second] = ids as [number, number];
  // only these two take part; the others are switched off for this test
  await t.ctx.db.execute(sql`UPDATE provider_accounts SET enabled = (id IN (${top}, ${second}))
    WHERE payment_method_id = ${methodId}`);
  await t.ctx.db.execute(sql`UPDATE account_limits SET priority = CASE account_id WHEN ${top} THEN 100 ELSE 50 END,
    check_unique_amount = (account_id = ${top}) WHERE account_id IN (${top}, ${second})`);
});
afterAll(async () => t?.close());

async function create(amount: number) {
  const terminal = t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && x.currency === 'UZS' && !x.isTest)!;
  const res = await injectSigned(t.app, sign, 'POST', '/api/merchant/v1/invoices', invoiceBody(terminal, { amount }));
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { invoiceId: string; formId: string };
}
async function ask(amount: number) {
  const { invoiceId, formId } = await create(amount);
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/payments/form/${formId}/credential`,
    payload: { amount, paymentMethodId: methodId },
  });
  const [row] = (
    await t.ctx.db.execute<{ account_id: number | null }>(sql`SELECT account_id FROM invoices WHERE id = ${invoiceId}`)
  ).rows;
  return { status: res.statusCode, code: res.json().error?.code as string | undefined, account: row!.account_id };
}
/** Sets an account's limit to leave exactly `room` under it (balance and reservations included). */
async function leaveRoom(accountId: number, room: number) {
  await t.ctx.db.execute(sql`UPDATE account_limits SET "limit" =
    COALESCE((SELECT SUM(b.balance) FROM ledger_balances b WHERE b.provider_account_id = ${accountId}
              AND b.account = 'provider_account' AND b.book = 'live'), 0)
    + COALESCE((SELECT SUM(i.amount) FROM invoices i WHERE i.account_id = ${accountId} AND i.flow_type = 'DEPOSIT'
              AND i.status IN ('IN_PROGRESS', 'PAYED')), 0) + ${room}
    WHERE account_id = ${accountId}`);
}

describe('routing through the engine guard', () => {
  it('gives the highest-priority account with room; the next one when it is full', async () => {
    // amounts with minor units: the demo history's active deposits are whole amounts, so none of them can clash
    // with these on the unique-amount account (a seeded 500,000.00 deposit in flight on it once made the third go on)
    await leaveRoom(top, 1_500_000_42);
    await leaveRoom(second, 10_000_000_00);
    expect(await ask(1_000_000_13)).toMatchObject({ status: 200, account: top });
    expect(await ask(1_000_000_13)).toMatchObject({ status: 200, account: second }); // top has 500,000.29 left
    expect(await ask(500_000_29)).toMatchObject({ status: 200, account: top }); // exactly fits
  });

  it('skips a unique-amount account where the same amount is already active', async () => {
    await leaveRoom(top, 10_000_000_00);
    expect(await ask(1_234_56)).toMatchObject({ status: 200, account: top });
    expect(await ask(1_234_56)).toMatchObject({ status: 200, account: second });
  });

  it('no account with room: a clear error, the invoice keeps no account, nothing is reserved', async () => {
    await leaveRoom(top, 0);
    await leaveRoom(second, 0);
    expect(await ask(1_000_00)).toEqual({ status: 409, code: 'NO_ACCOUNT_AVAILABLE', account: null });
  });

  it('an account flagged over limit is out of routing until an operator raises its limit', async () => {
    await leaveRoom(second, 10_000_000_00);
    await t.ctx.db.execute(sql`UPDATE account_limits SET over_limit_since = now() WHERE account_id = ${second}`);
    expect(await ask(1_000_00)).toMatchObject({ status: 409, code: 'NO_ACCOUNT_AVAILABLE' });
    await t.ctx.db.execute(sql`UPDATE account_limits SET over_limit_since = NULL WHERE account_id = ${second}`);
    expect(await ask(1_000_00)).toMatchObject({ status: 200, account: second });
  });
});

describe('unmatched money counts against the limit from the moment it arrives', () => {
  /** The provider's own report of money on an account that no invoice waits for (POST /api/provider/v1/incoming). */
  const arrive = async (accountId: number, amount: number) => {
    const [acc] = (
      await t.ctx.db.execute<{ code: string }>(sql`SELECT p.code FROM provider_accounts a
        JOIN providers p ON p.id = a.provider_id WHERE a.id = ${accountId}`)
    ).rows;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/provider/v1/incoming',
      headers: { authorization: `Bearer dev:${acc!.code}` },
      payload: {
        accountId,
        amount,
        occurredAt: t.clock.now().toISOString(),
        reference: `stray-${accountId}-${amount}-${t.clock.now().getTime()}`,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'UNMATCHED', matchedInvoiceId: null });
    return res.json().data as { id: string };
  };
  const routingOf = async (invoiceId: string) =>
    (
      await t.ctx.db.execute<{ routing: { accountId: number; outcome: string }[] }>(sql`
        SELECT data->'routing' AS routing FROM event_log WHERE invoice_id = ${invoiceId} AND data ? 'routing'
        ORDER BY id DESC LIMIT 1`)
    ).rows[0]?.routing;
  const overLimitSince = async (accountId: number) =>
    (
      await t.ctx.db.execute<{ since: unknown }>(
        sql`SELECT over_limit_since AS since FROM account_limits WHERE account_id = ${accountId}`,
      )
    ).rows[0]!.since;

  it('a deposit that fitted before the arrival no longer gets that account: routing passes it to the next', async () => {
    await leaveRoom(top, 100_000_00);
    await leaveRoom(second, 10_000_000_00);
    await arrive(top, 60_000_00 + 11);
    // 50,000.00 fitted the 100,000.00 of room; 39,999.89 is left once the money on the card counts
    const moved = await ask(50_000_00 + 17);
    expect(moved).toMatchObject({ status: 200, account: second });
    const [inv] = (
      await t.ctx.db.execute<{ id: string }>(
        sql`SELECT id FROM invoices WHERE account_id = ${second} AND amount = ${50_000_00 + 17} ORDER BY created_at DESC LIMIT 1`,
      )
    ).rows;
    expect(await routingOf(inv!.id)).toEqual(
      expect.arrayContaining([
        { accountId: top, outcome: 'no room under its limit' },
        { accountId: second, outcome: 'given' },
      ]),
    );
    // what is left under the limit still fits, exactly
    expect(await ask(39_999_89)).toMatchObject({ status: 200, account: top });
    await checkMoneyInvariants(t.ctx.db);
  });

  it('with no other account, the deposit is refused with a clear error and nothing is reserved', async () => {
    await leaveRoom(top, 80_000_00);
    await leaveRoom(second, 0);
    await arrive(top, 40_000_00 + 23);
    expect(await ask(50_000_00 + 29)).toEqual({ status: 409, code: 'NO_ACCOUNT_AVAILABLE', account: null });
    await checkMoneyInvariants(t.ctx.db);
  });

  it('an arrival that takes the account past its limit flags it over limit: routing skips it until the limit is raised', async () => {
    await leaveRoom(top, 10_000_00);
    await leaveRoom(second, 10_000_000_00);
    expect(await overLimitSince(top)).toBeNull();
    // more than the room and what the deposits holding its requisites reserve: the money on the card alone is over
    const [held] = (
      await t.ctx.db.execute<{ v: string }>(sql`SELECT coalesce(sum(amount), 0)::text AS v FROM invoices
        WHERE account_id = ${top} AND flow_type = 'DEPOSIT' AND status IN ('IN_PROGRESS', 'PAYED')`)
    ).rows;
    await arrive(top, Number(held!.v) + 25_000_00 + 31);
    // money that really arrived is never refused; it is flagged, as a deposit's DONE past the limit is
    expect(await overLimitSince(top)).not.toBeNull();
    const res = await ask(1_000_00 + 37);
    expect(res).toMatchObject({ status: 200, account: second });
    const [inv] = (
      await t.ctx.db.execute<{ id: string }>(
        sql`SELECT id FROM invoices WHERE account_id = ${second} AND amount = ${1_000_00 + 37} ORDER BY created_at DESC LIMIT 1`,
      )
    ).rows;
    expect(await routingOf(inv!.id)).toEqual(expect.arrayContaining([{ accountId: top, outcome: 'over limit' }]));
    await checkMoneyInvariants(t.ctx.db);
    // staff raise the limit over the money on the card: the flag goes and the account gives requisites again
    const [now] = (
      await t.ctx.db.execute<{ balance: string; limit: string }>(sql`SELECT l."limit"::text AS limit,
        coalesce((SELECT sum(b.balance) FROM ledger_balances b WHERE b.provider_account_id = ${top}
                  AND b.account = 'provider_account' AND b.book = 'live'), 0)::text AS balance
        FROM account_limits l WHERE l.account_id = ${top}`)
    ).rows;
    const raise = await t.app.inject({
      method: 'PUT',
      url: `/api/router/v1/people/account/limit/${top}`,
      headers: { cookie: await loginAs(t.app, 'admin') },
      payload: {
        peopleAccountId: top,
        limit: Number(BigInt(now!.balance) + BigInt(held!.v) + 100_000_00n),
        priority: 100,
        checkUniqueAmount: true,
      },
    });
    expect(raise.statusCode, raise.body).toBe(200);
    expect(await overLimitSince(top)).toBeNull();
    expect(await ask(1_000_00 + 41)).toMatchObject({ status: 200, account: top });
    expect(await reconcileLedger(t.ctx.db)).toEqual({ drift: [], unbalanced: [] });
  });
});

// Row locks need a real PostgreSQL server (PGlite runs one statement at a time).
describe.skipIf(!process.env.DATABASE_URL)('routing past busy accounts (PostgreSQL)', () => {
  const routingOf = async (invoiceId: string) =>
    (
      await t.ctx.db.execute<{ data: { routing: unknown } }>(sql`
        SELECT data FROM event_log WHERE invoice_id = ${invoiceId} AND data ? 'routing' ORDER BY id DESC LIMIT 1`)
    ).rows[0]?.data.routing;
  const credential = (formId: string, amount: number) =>
    t.app.inject({
      method: 'POST',
      url: `/api/payments/form/${formId}/credential`,
      payload: { amount, paymentMethodId: methodId },
    });

  it('an account another customer is being given passes this one to the next that fits, without waiting', async () => {
    await leaveRoom(top, 10_000_000_00);
    await leaveRoom(second, 10_000_000_00);
    const { invoiceId, formId } = await create(2_345_67);
    await t.ctx.db.transaction(async (tx) => {
      // another customer's transaction holds the top account's limit-row lock
      await tx.execute(sql`SELECT 1 FROM account_limits WHERE account_id = ${top} FOR UPDATE`);
      const res = await credential(formId, 2_345_67);
      expect(res.statusCode, res.body).toBe(200);
    });
    const [row] = (
      await t.ctx.db.execute<{ account_id: number }>(sql`SELECT account_id FROM invoices WHERE id = ${invoiceId}`)
    ).rows;
    expect(row!.account_id).toBe(second);
    expect(await routingOf(invoiceId)).toEqual(
      expect.arrayContaining([
        { accountId: top, outcome: 'busy' },
        { accountId: second, outcome: 'given' },
      ]),
    );
    expect((await reconcileLedger(t.ctx.db)).drift).toEqual([]);
  });

  it('every account busy: the customer waits for the best one and gets it once it is free', async () => {
    await leaveRoom(top, 10_000_000_00);
    await leaveRoom(second, 10_000_000_00);
    const { invoiceId, formId } = await create(3_456_78);
    let answered = false;
    let pending: ReturnType<typeof credential> | undefined;
    await t.ctx.db.transaction(async (tx) => {
      await tx.execute(
        sql`SELECT 1 FROM account_limits WHERE account_id IN (${top}, ${second}) ORDER BY account_id FOR UPDATE`,
      );
      pending = credential(formId, 3_456_78);
      void pending.then(() => (answered = true));
      await new Promise((r) => setTimeout(r, 300));
      expect(answered).toBe(false);
    });
    const res = await pending!;
    expect(res.statusCode, res.body).toBe(200);
    const [row] = (
      await t.ctx.db.execute<{ account_id: number }>(sql`SELECT account_id FROM invoices WHERE id = ${invoiceId}`)
    ).rows;
    expect(row!.account_id).toBe(top);
    expect((await reconcileLedger(t.ctx.db)).drift).toEqual([]);
  });
});
