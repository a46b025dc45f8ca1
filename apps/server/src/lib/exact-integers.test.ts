import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, loginAs, type TestApp } from '../../test/harness';
import { rebuildLedgerBalances, reconcileLedger } from '../modules/ledger/reconcile';

/**
 * Exact integers (money-invariants issue, item 7): no int8 passes through a JS number that can lose
 * precision. Limits and balances past 2^53 travel as plain JSON integers and come back digit for
 * digit; bounded amounts are refused past 2^53 − 1 rather than rounded.
 */
let t: TestApp;
let admin = '';
let owner = '';
let accountId = 0;

beforeAll(async () => {
  t = await createTestApp();
  admin = await loginAs(t.app, 'admin');
  owner = await loginAs(t.app, 'owner');
  const [a] = (
    await t.ctx.db.execute<{ id: number }>(sql`SELECT a.id FROM provider_accounts a
      JOIN providers p ON p.id = a.provider_id WHERE NOT p.is_sandbox ORDER BY a.id LIMIT 1`)
  ).rows;
  accountId = Number(a!.id);
});
afterAll(async () => t?.close());

const putLimit = (rawLimit: string) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/router/v1/people/account/limit/${accountId}`,
    headers: { cookie: admin, 'content-type': 'application/json' },
    payload: `{"peopleAccountId":${accountId},"limit":${rawLimit},"priority":3,"checkUniqueAmount":false}`,
  });

describe('exact integers through the API', () => {
  for (const limit of ['9007199254740993', '9223372036854775807', '12345678901234567']) {
    it(`a limit of ${limit} round-trips digit for digit (PUT, GET, database)`, async () => {
      const put = await putLimit(limit);
      expect(put.statusCode, put.body).toBe(200);
      expect(put.body).toContain(`"limit":${limit}`);
      const get = await t.app.inject({
        method: 'GET',
        url: `/api/router/v1/people/account/limit/${accountId}`,
        headers: { cookie: admin },
      });
      expect(get.body).toContain(`"limit":${limit}`);
      const [row] = (
        await t.ctx.db.execute<{ limit: string }>(
          sql`SELECT "limit"::text AS limit FROM account_limits WHERE account_id = ${accountId}`,
        )
      ).rows;
      expect(row!.limit).toBe(limit);
      // the audit trail keeps the digits too
      const [audit] = (
        await t.ctx.db.execute<{ after: { limit: string } }>(
          sql`SELECT after FROM audit_log WHERE action = 'account.limit_changed' ORDER BY id DESC LIMIT 1`,
        )
      ).rows;
      expect(audit!.after.limit).toBe(limit);
    });
  }

  it('a limit past PostgreSQL bigint, or not whole, is refused with a clear 400 and nothing changes', async () => {
    const before = (
      await t.ctx.db.execute<{ limit: string }>(
        sql`SELECT "limit"::text AS limit FROM account_limits WHERE account_id = ${accountId}`,
      )
    ).rows[0]!.limit;
    for (const [raw, message] of [
      ['9223372036854775808', 'Must fit a 64-bit integer'],
      ['-1', 'Limit must be at least 0'],
      ['1.5', 'Limit must be a whole number of minor units'],
      ['"100"', 'Limit is required'],
    ]) {
      const res = await putLimit(raw!);
      expect(res.statusCode, raw).toBe(400);
      expect(res.json().error.fields.limit, raw).toBe(message);
    }
    const after = (
      await t.ctx.db.execute<{ limit: string }>(
        sql`SELECT "limit"::text AS limit FROM account_limits WHERE account_id = ${accountId}`,
      )
    ).rows[0]!.limit;
    expect(after).toBe(before);
  });

  it('routing and the guards compare limits exactly: a limit just past 2^53 still has room', async () => {
    expect((await putLimit('9007199254740993')).statusCode).toBe(200);
    const [row] = (
      await t.ctx.db.execute<{ ok: boolean }>(
        sql`SELECT "limit" > 9007199254740992 AS ok FROM account_limits WHERE account_id = ${accountId}`,
      )
    ).rows;
    expect(row!.ok).toBe(true);
  });

  it('a merchant balance past 2^53 is served exactly by the balance endpoint', async () => {
    // two balanced postings of 2^53 − 1 (the largest a leg may be) credit the merchant 2^54 − 2 more
    const [c] = (
      await t.ctx.db.execute<{ currency_id: number; terminal_id: string }>(sql`
        SELECT t.currency_id, t.id AS terminal_id FROM terminals t JOIN currencies c ON c.id = t.currency_id
        WHERE t.merchant_id = ${t.demo.merchantId} AND NOT t.is_test AND c.code = 'UZS' ORDER BY t.created_at LIMIT 1`)
    ).rows;
    const before = await t.app.inject({
      method: 'GET',
      url: '/api/v1/merchant/balance',
      headers: { cookie: owner },
    });
    const uzs = (before.json().data as { currency: string; sum: number }[]).find((b) => b.currency === 'UZS')!;
    for (let i = 0; i < 2; i++) {
      await t.ctx.db.execute(sql`
        INSERT INTO ledger_entries (tx_id, account, merchant_id, terminal_id, currency_id, amount, kind, book)
        VALUES (gen_random_uuid(), 'merchant', ${t.demo.merchantId}, ${c!.terminal_id}, ${c!.currency_id}, -9007199254740991, 'test_exact', 'live'),
               (gen_random_uuid(), 'settlement', ${t.demo.merchantId}, ${c!.terminal_id}, ${c!.currency_id}, 9007199254740991, 'test_exact', 'live')`);
    }
    await rebuildLedgerBalances(t.ctx.db);
    expect(await reconcileLedger(t.ctx.db)).toEqual({ drift: [], unbalanced: [] });
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/merchant/balance', headers: { cookie: owner } });
    expect(res.statusCode).toBe(200);
    const expected = (BigInt(uzs.sum) + 2n * 9_007_199_254_740_991n).toString();
    expect(res.body).toContain(`"sum":${expected}`);
  });

  it('an invoice amount past 2^53 − 1 is refused, never rounded', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/invoice/amount?merchantId=${t.demo.merchantId}`,
      headers: { cookie: admin, 'content-type': 'application/json' },
      payload: `{"invoiceId":"00000000-0000-4000-8000-000000000000","amount":9007199254740993,"reason":"x"}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields.amount).toBeTruthy();
  });

  it('a body with a __proto__ key is refused as Fastify refuses it', async () => {
    const res = await putLimit('1, "__proto__": {"x": 1}');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_ERROR');
    const bad = await putLimit('12345678901234567,');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toBe('The request body is not valid JSON');
  });
});
