import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { AccountHealth } from '@paydesk/contracts';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';
import { depositGivenRequisites, merchantSigner, type Signer } from '../../../test/merchant-client';

/**
 * The health figures of every provider account, for a known day: the deposits given its requisites over the last
 * 24 h, how many were paid, their share, and when money last arrived on it.
 */
let t: TestApp;
let sign: Signer;
let ops = '';
let owner = '';

beforeAll(async () => {
  t = await createTestApp();
  sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
  ops = await loginAs(t.app, 'ops');
  owner = await loginAs(t.app, 'owner');
  // two days on: the demo's own deposits are older than the window, so the day holds only this file's
  t.clock.advance(2 * 86_400_000);
});
afterAll(async () => t?.close());

const given = (amount: number) => depositGivenRequisites(t, sign, amount);

const report = (provider: string, accountId: number, amount: number, reference: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/provider/v1/incoming',
    headers: { authorization: `Bearer dev:${provider}` },
    payload: { accountId, amount, occurredAt: t.clock.now().toISOString(), reference },
  });

async function health(cookie = ops) {
  const res = await t.app.inject({ method: 'GET', url: '/api/v1/people/account/health', headers: { cookie } });
  return { status: res.statusCode, data: res.statusCode === 200 ? (res.json().data as AccountHealth[]) : [] };
}

describe('provider account health figures', () => {
  it('every account has its figures: three given, one paid → 33.3 %; money last arrived at the latest report', async () => {
    const before = await health();
    expect(before.status).toBe(200);
    const [{ n }] = (await t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM provider_accounts`))
      .rows as [{ n: number }];
    // every account, paused or not, enabled or not; none given anything in the day yet
    expect(before.data).toHaveLength(Number(n));
    for (const h of before.data)
      expect(h, `account ${h.accountId}`).toMatchObject({ given: 0, paid: 0, successRate: null });

    const first = await given(41_000_00 + 1);
    const second = await given(41_000_00 + 2);
    const third = await given(41_000_00 + 3);
    const account = first.accountId;
    // the same top-priority account takes all three while it has room
    expect([second.accountId, third.accountId]).toEqual([account, account]);

    // the first one's money arrives and finishes it; later, money no deposit takes arrives on the same account
    const paid = await report(first.provider, account, 41_000_00 + 1, `health-paid-${process.pid}`);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().data).toMatchObject({ status: 'MATCHED', matchedInvoiceId: first.invoiceId });
    t.clock.advance(5 * 60_000);
    const lastAt = t.clock.now();
    const stray = await report(first.provider, account, 7_77, `health-stray-${process.pid}`);
    expect(stray.json().data).toMatchObject({ status: 'UNMATCHED' });

    const after = await health();
    const mine = after.data.find((h) => h.accountId === account)!;
    expect(mine).toMatchObject({
      given: 3,
      paid: 1,
      successRate: 33.3,
      enabled: true,
      pausedAt: null,
      pausedReason: null,
      pausedBy: null,
    });
    // the provider's answer is stored at the server's clock: the second report is the latest money
    expect(Math.abs(Date.parse(mine.lastMoneyAt!) - lastAt.getTime())).toBeLessThan(1_000);
    // the others were given nothing
    for (const h of after.data.filter((x) => x.accountId !== account))
      expect(h, `account ${h.accountId}`).toMatchObject({ given: 0, paid: 0, successRate: null });

    // a day later the deposits have left the window; the last money stays what it was
    t.clock.advance(24 * 3_600_000 + 60_000);
    const dayAfter = (await health()).data.find((h) => h.accountId === account)!;
    expect(dayAfter).toMatchObject({ given: 0, paid: 0, successRate: null, lastMoneyAt: mine.lastMoneyAt });

    // merchant staff never see provider accounts
    expect((await health(owner)).status).toBe(403);
  });
});
