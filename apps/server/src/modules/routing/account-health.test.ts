import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';
import { injectSigned, invoiceBody, merchantSigner, type Signer } from '../../../test/merchant-client';
import { pauseUnpaidAccounts } from './account-health';

/**
 * A provider account whose requisites stop being paid leaves routing by itself, with the reason, an audit record and
 * the desk's queue; staff resume it. Each deposit records why routing skipped each account.
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
});
afterAll(async () => t?.close());

const q = async <T extends Record<string, unknown>>(s: ReturnType<typeof sql>) => (await t.ctx.db.execute<T>(s)).rows;
const terminal = () => t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && x.currency === 'UZS' && !x.isTest)!;

/** A deposit whose customer asked for requisites: the account routing gave, and its routing record. */
async function given(amount: number) {
  const res = await injectSigned(t.app, sign, 'POST', '/api/merchant/v1/invoices', invoiceBody(terminal(), { amount }));
  const { invoiceId, formId } = res.json().data as { invoiceId: string; formId: string };
  const init = await t.app.inject({ method: 'POST', url: `/api/payments/form/${formId}/init` });
  const cred = await t.app.inject({
    method: 'POST',
    url: `/api/payments/form/${formId}/credential`,
    payload: { amount, paymentMethodId: init.json().data.methods[0].id },
  });
  expect(cred.statusCode, cred.body).toBe(200);
  const [row] = await q<{ account_id: number }>(sql`SELECT account_id FROM invoices WHERE id = ${invoiceId}`);
  const [event] = await q<{
    data: { routing: { accountId: number; outcome: string }[] };
  }>(sql`SELECT data FROM event_log
    WHERE invoice_id = ${invoiceId} AND data ? 'routing' ORDER BY id DESC LIMIT 1`);
  return { invoiceId, accountId: Number(row!.account_id), routing: event!.data.routing };
}

describe('account health and automatic pause', () => {
  it('the demo data pauses no account', async () => {
    expect(await pauseUnpaidAccounts(t.ctx)).toEqual([]);
  });

  it('ten unpaid deposits in a row pause the account; routing then skips it, saying why; staff resume it', async () => {
    const first = await given(10_000_00 + 1);
    const account = first.accountId;
    expect(first.routing.at(-1)).toEqual({ accountId: account, outcome: 'given' });
    for (let k = 2; k <= 10; k++) {
      const g = await given(10_000_00 + k);
      // the same top-priority account gets each of them while it has room
      if (g.accountId !== account) throw new Error(`routing moved to account ${g.accountId} at deposit ${k}`);
    }
    expect(await pauseUnpaidAccounts(t.ctx)).toEqual([]); // not yet: they had no time to be paid
    t.clock.advance(31 * 60_000);
    expect(await pauseUnpaidAccounts(t.ctx)).toEqual([account]);
    const [audit] = await q<{
      action: string;
      actor_kind: string;
      reason: string;
    }>(sql`SELECT action, actor_kind, reason
      FROM audit_log WHERE target_type = 'account' AND target_id = ${String(account)} ORDER BY id DESC LIMIT 1`);
    expect(audit).toEqual({
      action: 'account.paused',
      actor_kind: 'system',
      reason: 'none of the last 10 deposits given its requisites was paid within 30 minutes',
    });
    const health = await t.app.inject({
      method: 'GET',
      url: '/api/v1/people/account/health',
      headers: { cookie: ops },
    });
    expect(health.statusCode, health.body).toBe(200);
    const mine = (health.json().data as { accountId: number; pausedBy: string; given: number; paid: number }[]).find(
      (h) => h.accountId === account,
    )!;
    expect(mine).toMatchObject({ pausedBy: 'health check' });
    expect(mine.given).toBeGreaterThanOrEqual(10);
    const summary = await t.app.inject({ method: 'GET', url: '/api/v1/exceptions/summary', headers: { cookie: ops } });
    expect(summary.json().data).toContainEqual(expect.objectContaining({ queue: 'pausedAccounts', count: 1 }));

    // routing passes over it, and the deposit's routing record says why
    const next = await given(10_000_00 + 11);
    expect(next.accountId).not.toBe(account);
    expect(next.routing).toContainEqual({ accountId: account, outcome: 'paused' });
    // platform staff read it in the invoice's event log; the merchant's staff never see provider accounts' routing
    const eventsAs = async (cookie: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/event/invoice?invoiceId=${next.invoiceId}&merchantId=${t.demo.merchantId}`,
        headers: { cookie },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as { routing?: unknown[] }[];
    };
    expect((await eventsAs(ops)).flatMap((e) => e.routing ?? [])).toContainEqual({
      accountId: account,
      outcome: 'paused',
    });
    expect((await eventsAs(owner)).some((e) => 'routing' in e)).toBe(false);

    // merchant staff may neither read nor change an account's health; nothing changes
    for (const [method, url] of [
      ['GET', '/api/v1/people/account/health'],
      ['POST', `/api/v1/people/account/${account}/resume`],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: { cookie: owner },
        payload: method === 'POST' ? { reason: 'mine' } : undefined,
      });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    const bad = await t.app.inject({
      method: 'POST',
      url: `/api/v1/people/account/${account}/resume`,
      headers: { cookie: ops },
      payload: { reason: '' },
    });
    expect(bad.statusCode).toBe(400);

    const resumed = await t.app.inject({
      method: 'POST',
      url: `/api/v1/people/account/${account}/resume`,
      headers: { cookie: ops },
      payload: { reason: 'provider replaced the card' },
    });
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(resumed.json().data).toMatchObject({ pausedAt: null });
    // the unpaid deposits before the resume do not pause it again
    expect(await pauseUnpaidAccounts(t.ctx)).toEqual([]);
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/v1/people/account/${account}/resume`,
      headers: { cookie: ops },
      payload: { reason: 'twice' },
    });
    expect(again.statusCode).toBe(409);
    // staff may also pause by hand, with a reason
    const paused = await t.app.inject({
      method: 'POST',
      url: `/api/v1/people/account/${account}/pause`,
      headers: { cookie: ops },
      payload: { reason: 'bank reports the card blocked' },
    });
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json().data).toMatchObject({ pausedBy: 'ops', pausedReason: 'bank reports the card blocked' });
    await t.app.inject({
      method: 'POST',
      url: `/api/v1/people/account/${account}/resume`,
      headers: { cookie: ops },
      payload: { reason: 'card unblocked' },
    });
  });
});
