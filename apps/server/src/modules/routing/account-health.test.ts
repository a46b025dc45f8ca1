import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';
import { depositGivenRequisites, merchantSigner, type Signer } from '../../../test/merchant-client';
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

/** A deposit whose customer asked for requisites: the account routing gave, and its routing record. */
async function given(amount: number) {
  const { invoiceId, accountId } = await depositGivenRequisites(t, sign, amount);
  const [event] = await q<{
    data: { routing: { accountId: number; outcome: string }[] };
  }>(sql`SELECT data FROM event_log
    WHERE invoice_id = ${invoiceId} AND data ? 'routing' ORDER BY id DESC LIMIT 1`);
  return { invoiceId, accountId, routing: event!.data.routing };
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

  it('the pause rule is a platform setting: staff change it with a reason, audited; it applies at the next pass', async () => {
    const rule = async (cookie: string) =>
      t.app.inject({ method: 'GET', url: '/api/v1/people/account/pause-rule', headers: { cookie } });
    const put = (cookie: string, payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PUT', url: '/api/v1/people/account/pause-rule', headers: { cookie }, payload });
    const stored = async () => q<{ value: string }>(sql`SELECT value FROM settings WHERE key = 'routing.pause_rule'`);
    const audits = async () =>
      q<{ before: unknown; after: unknown; reason: string; actor_kind: string }>(sql`SELECT before, after, reason,
        actor_kind FROM audit_log WHERE action = 'settings.changed' AND target_id = 'routing.pause_rule' ORDER BY id`);

    expect((await rule(ops)).json().data).toEqual({
      pauseAfter: 10,
      windowMinutes: 30,
      updatedAt: null,
      updatedBy: null,
    });

    // merchant staff may neither read nor change it; bad rules are refused field by field; nothing is written
    expect((await rule(owner)).statusCode).toBe(403);
    expect((await put(owner, { pauseAfter: 1, windowMinutes: 1, reason: 'mine' })).statusCode).toBe(403);
    const bad = await put(ops, { pauseAfter: -1, windowMinutes: 0, reason: '' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().error.fields ?? {}).sort()).toEqual(['pauseAfter', 'reason', 'windowMinutes']);
    expect((await put(ops, { pauseAfter: 2.5, windowMinutes: 5, reason: 'fractional' })).statusCode).toBe(400);
    expect((await put(ops, { pauseAfter: 3, windowMinutes: 5, reason: 'tighter', extra: 1 })).statusCode).toBe(400);
    expect(await stored()).toEqual([]);
    expect(await audits()).toEqual([]);

    const ok = await put(ops, { pauseAfter: 3, windowMinutes: 5, reason: 'cards fail fast this week' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ pauseAfter: 3, windowMinutes: 5, updatedBy: 'ops' });
    expect(await audits()).toEqual([
      {
        before: { pauseAfter: 10, windowMinutes: 30 },
        after: { pauseAfter: 3, windowMinutes: 5 },
        reason: 'cards fail fast this week',
        actor_kind: 'platform',
      },
    ]);

    // three unpaid deposits, each given more than five minutes ago, now pause the account
    const first = await given(20_000_00 + 1);
    await given(20_000_00 + 2);
    await given(20_000_00 + 3);
    t.clock.advance(6 * 60_000);
    const paused = await pauseUnpaidAccounts(t.ctx);
    expect(paused).toContain(first.accountId);
    const [audit] = await q<{ reason: string }>(sql`SELECT reason FROM audit_log
      WHERE action = 'account.paused' AND target_id = ${String(first.accountId)} ORDER BY id DESC LIMIT 1`);
    expect(audit!.reason).toBe('none of the last 3 deposits given its requisites was paid within 5 minutes');
    for (const a of paused)
      await t.app.inject({
        method: 'POST',
        url: `/api/v1/people/account/${a}/resume`,
        headers: { cookie: ops },
        payload: { reason: 'card replaced' },
      });

    // 0 turns automatic pausing off
    expect(
      (await put(ops, { pauseAfter: 0, windowMinutes: 5, reason: 'provider incident, pause by hand' })).statusCode,
    ).toBe(200);
    await given(20_000_00 + 4);
    await given(20_000_00 + 5);
    await given(20_000_00 + 6);
    await given(20_000_00 + 7);
    t.clock.advance(6 * 60_000);
    expect(await pauseUnpaidAccounts(t.ctx)).toEqual([]);
    expect((await audits()).map((a) => a.after)).toEqual([
      { pauseAfter: 3, windowMinutes: 5 },
      { pauseAfter: 0, windowMinutes: 5 },
    ]);
  });
});
