import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';

/**
 * Demo merchant ids read from this file's own database (the harness's demo JSON is one file shared by every
 * concurrent test run, so another run may have rewritten it).
 */
let t: TestApp;
/** The demo merchant and its terminals, as the seed wrote them. */
let demo: TestApp['demo'];
/** The merchant owner: reads the balance tile. */
let owner: string;
/** Platform admin: settlement.create is a platform permission (ops does not hold it either). */
let admin: string;
let uzsDeposit: { id: string; currencyId: number };

beforeAll(async () => {
  t = await createTestApp();
  demo = t.demo;
  owner = await loginAs(t.app, 'owner');
  admin = await loginAs(t.app, 'admin');
  const id = demo.terminals.find((x) => x.name === 'UZS Deposit')!.id;
  const res = await t.ctx.db.execute<{ currency_id: number }>(sql`SELECT currency_id FROM terminals WHERE id = ${id}`);
  uzsDeposit = { id, currencyId: Number(res.rows[0]!.currency_id) };
});
afterAll(async () => {
  await t.close();
});

/** −Σ live merchant ledger entries of the Demo Merchant in a currency, counted straight from the table. */
async function ledgerBalance(currencyId: number, terminalId?: string) {
  const res = await t.ctx.db.execute<{ b: string | number }>(sql`
    SELECT COALESCE(-SUM(amount), 0) AS b FROM ledger_entries
    WHERE merchant_id = ${demo.merchantId} AND account = 'merchant' AND currency_id = ${currencyId} AND book = 'live'
    ${terminalId ? sql`AND terminal_id = ${terminalId}` : sql``}`);
  return Number(res.rows[0]!.b);
}
async function counts() {
  const res = await t.ctx.db.execute<{ s: number; l: number }>(
    sql`SELECT (SELECT COUNT(*) FROM settlements)::int AS s, (SELECT COUNT(*) FROM ledger_entries)::int AS l`,
  );
  return { settlements: Number(res.rows[0]!.s), ledger: Number(res.rows[0]!.l) };
}
const settle = (cookie: string, payload: unknown, query = '') =>
  t.app.inject({ method: 'POST', url: `/api/v1/settlement${query}`, headers: { cookie }, payload: payload as object });
/** A settlement recorded by platform staff working on the Demo Merchant. */
const settleDemo = (payload: unknown) => settle(admin, payload, `?merchantId=${demo.merchantId}`);

describe('POST /api/v1/settlement', () => {
  it('debits the merchant by exactly the base amount, records USDT in micro-units, and keeps the books balanced', async () => {
    const before = await ledgerBalance(uzsDeposit.currencyId);
    const tileBefore = await t.app.inject({
      method: 'GET',
      url: `/api/v1/merchant/balance?terminalId=${uzsDeposit.id}`,
      headers: { cookie: owner },
    });
    expect(before).toBeGreaterThan(150_050);

    const res = await settleDemo({ baseAmount: 1500.5, settlementAmount: 12.345678, terminalId: uzsDeposit.id });
    expect(res.statusCode).toBe(200);
    const s = res.json().data;
    expect(s).toMatchObject({
      terminalId: uzsDeposit.id,
      currency: 'UZS',
      baseAmount: 150_050,
      settlementAmount: 12_345_678,
    });
    expect(s.balanceAfter).toBe(before - 150_050);
    expect(await ledgerBalance(uzsDeposit.currencyId)).toBe(before - 150_050);

    const tileAfter = await t.app.inject({
      method: 'GET',
      url: `/api/v1/merchant/balance?terminalId=${uzsDeposit.id}`,
      headers: { cookie: owner },
    });
    expect(tileAfter.json().data[0].sum).toBe(tileBefore.json().data[0].sum - 150_050);

    const legs = await t.ctx.db.execute<{ account: string; amount: number; tx_id: string }>(
      sql`SELECT account, amount, tx_id FROM ledger_entries WHERE settlement_id = ${s.id} ORDER BY account`,
    );
    expect(legs.rows.map((r) => [r.account, Number(r.amount)])).toEqual([
      ['merchant', 150_050],
      ['settlement', -150_050],
    ]);
    const row = await t.ctx.db.execute(
      sql`SELECT base_amount::int AS base_amount, settlement_amount::int AS settlement_amount, merchant_id FROM settlements WHERE id = ${s.id}`,
    );
    expect(row.rows[0]).toMatchObject({
      base_amount: 150_050,
      settlement_amount: 12_345_678,
      merchant_id: demo.merchantId,
    });
    const ev = await t.ctx.db.execute(
      sql`SELECT code FROM event_log WHERE code = 'SETTLEMENT_CREATED' AND merchant_id = ${demo.merchantId}`,
    );
    expect(ev.rows.length).toBe(1);
  });

  it('refuses amounts sent as strings with 400 naming the field, and writes nothing; whole numbers go through', async () => {
    const before = await counts();
    for (const [payload, field] of [
      [{ baseAmount: '1', settlementAmount: 1 }, 'baseAmount'],
      [{ baseAmount: 100, settlementAmount: '0.1' }, 'settlementAmount'],
      [{ baseAmount: ' 100 ', settlementAmount: 1 }, 'baseAmount'],
    ] as const) {
      const res = await settleDemo({ ...payload, terminalId: uzsDeposit.id });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      const err = res.json().error;
      expect(err.code).toBe('VALIDATION_ERROR');
      expect(err.fields[field], JSON.stringify(err)).toMatch(/must be a number, not a string$/);
      expect(err.message).toContain(field);
    }
    // an integer past 2^53 is read exactly (never rounded) and refused as too large
    const huge = await t.app.inject({
      method: 'POST',
      url: `/api/v1/settlement?merchantId=${demo.merchantId}`,
      headers: { cookie: admin, 'content-type': 'application/json' },
      payload: `{"baseAmount":9007199254740993,"settlementAmount":1,"terminalId":"${uzsDeposit.id}"}`,
    });
    expect(huge.statusCode).toBe(400);
    expect(huge.json().error.fields.baseAmount).toBe('Base amount is too large');
    expect(await counts()).toEqual(before);

    const balance = await ledgerBalance(uzsDeposit.currencyId);
    const res = await settleDemo({ baseAmount: 100, settlementAmount: 0.1, terminalId: uzsDeposit.id });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ baseAmount: 10_000, settlementAmount: 100_000 });
    expect(await ledgerBalance(uzsDeposit.currencyId)).toBe(balance - 10_000);
  });

  it('refuses with 409 INSUFFICIENT_BALANCE past zero and writes nothing', async () => {
    const balance = await ledgerBalance(uzsDeposit.currencyId);
    const before = await counts();
    const over = (balance + 1) / 100; // one minor unit more than there is
    const res = await settleDemo({ baseAmount: over, settlementAmount: 1, terminalId: uzsDeposit.id });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('INSUFFICIENT_BALANCE');
    expect(res.json().error.message).toMatch(/^Settlement exceeds the available balance \(.+ UZS\)$/);
    expect(await counts()).toEqual(before);
    expect(await ledgerBalance(uzsDeposit.currencyId)).toBe(balance);
  });

  it('takes the balance to exactly zero, and of two concurrent settlements that both fit alone only one passes', async () => {
    const balance = await ledgerBalance(uzsDeposit.currencyId);
    const part = Math.floor((balance * 0.6) / 100); // major units, 60 % of the balance
    const [a, b] = await Promise.all([
      settleDemo({ baseAmount: part, settlementAmount: 1, terminalId: uzsDeposit.id }),
      settleDemo({ baseAmount: part, settlementAmount: 1, terminalId: uzsDeposit.id }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const rest = await ledgerBalance(uzsDeposit.currencyId);
    expect(rest).toBe(balance - part * 100);
    const all = await settleDemo({ baseAmount: rest / 100, settlementAmount: 1, terminalId: uzsDeposit.id });
    expect(all.statusCode).toBe(200);
    expect(await ledgerBalance(uzsDeposit.currencyId)).toBe(0);
    const more = await settleDemo({ baseAmount: 0.01, settlementAmount: 1, terminalId: uzsDeposit.id });
    expect(more.statusCode).toBe(409);
  });

  it('403 without settlement.create: merchant staff (its owner and finance included), another merchant, operators; nothing written', async () => {
    const before = await counts();
    const balance = await ledgerBalance(uzsDeposit.currencyId);
    for (const u of ['owner', 'finance', 'support', 'viewer', 'shop2', 'ops']) {
      const cookie = u === 'owner' ? owner : await loginAs(t.app, u);
      const res = await settle(cookie, { baseAmount: 1, settlementAmount: 1, terminalId: uzsDeposit.id });
      expect(res.statusCode, u).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
      expect(res.json().error.message, u).toBe(
        u === 'ops' ? 'Your role does not allow you to record settlements.' : 'Only platform staff may do this.',
      );
    }
    expect(await counts()).toEqual(before);
    expect(await ledgerBalance(uzsDeposit.currencyId)).toBe(balance);
  });

  it("404 for another merchant's terminal (admin scoped to Second Shop)", async () => {
    const before = await counts();
    const second = await t.ctx.db.execute<{ id: string }>(sql`SELECT id FROM merchants WHERE name = 'Second Shop'`);
    const scoped = await settle(
      admin,
      { baseAmount: 1, settlementAmount: 1, terminalId: uzsDeposit.id },
      `?merchantId=${second.rows[0]!.id}`,
    );
    expect(scoped.statusCode).toBe(404);
    expect(scoped.json().error).toMatchObject({ code: 'NOT_FOUND', message: 'Terminal not found' });
    const unknown = await settleDemo({
      baseAmount: 1,
      settlementAmount: 1,
      terminalId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.statusCode).toBe(404);
    expect(await counts()).toEqual(before);
  });

  it('400 with clear messages for bad bodies, never 500', async () => {
    const id = uzsDeposit.id;
    const cases: [unknown, string, RegExp][] = [
      [{ baseAmount: 'abc', settlementAmount: 1, terminalId: id }, 'baseAmount', /Base amount must be a number/],
      [
        { baseAmount: 1, settlementAmount: 'ten', terminalId: id },
        'settlementAmount',
        /Settlement amount must be a number/,
      ],
      [{ settlementAmount: 1, terminalId: id }, 'baseAmount', /Base amount is required/],
      [{ baseAmount: '', settlementAmount: 1, terminalId: id }, 'baseAmount', /Base amount must be a number/],
      [{ baseAmount: 1, terminalId: id }, 'settlementAmount', /Settlement amount is required/],
      [{ baseAmount: -5, settlementAmount: 1, terminalId: id }, 'baseAmount', /greater than 0/],
      [{ baseAmount: 0, settlementAmount: 1, terminalId: id }, 'baseAmount', /greater than 0/],
      [{ baseAmount: 1, settlementAmount: 1.1234567, terminalId: id }, 'settlementAmount', /at most 6 decimals/],
      [{ baseAmount: 1.123, settlementAmount: 1, terminalId: id }, 'baseAmount', /at most 2 decimals for UZS/],
      [{ baseAmount: 1e300, settlementAmount: 1, terminalId: id }, 'baseAmount', /./],
      [{ baseAmount: null, settlementAmount: 1, terminalId: id }, 'baseAmount', /must be a number/],
      [{ baseAmount: 1, settlementAmount: 1 }, 'terminalId', /./],
      [{ baseAmount: 1, settlementAmount: 1, terminalId: 'nope' }, 'terminalId', /UUID/],
      [{ baseAmount: 1, settlementAmount: 1, terminalId: id, extra: true }, 'extra', /Unknown field/],
    ];
    const before = await counts();
    for (const [payload, field, msg] of cases) {
      const res = await settleDemo(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      const err = res.json().error;
      expect(err.code).toBe('VALIDATION_ERROR');
      expect(err.fields?.[field], JSON.stringify(err)).toMatch(msg);
    }
    const notJson = await t.app.inject({
      method: 'POST',
      url: `/api/v1/settlement?merchantId=${demo.merchantId}`,
      headers: { cookie: admin, 'content-type': 'application/json' },
      payload: '{"baseAmount":',
    });
    expect(notJson.statusCode).toBe(400);
    expect(await counts()).toEqual(before);
  });

  it('401 without a session', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/settlement',
      payload: { baseAmount: 1, settlementAmount: 1, terminalId: uzsDeposit.id },
    });
    expect(res.statusCode).toBe(401);
  });
});
