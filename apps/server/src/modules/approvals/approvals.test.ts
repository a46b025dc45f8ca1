import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';
import { depositGivenRequisites, injectSigned, merchantSigner, type Signer } from '../../../test/merchant-client';
import { checkMoneyInvariants } from '../engine/invariants.testkit';

/*
 * Two-person control: under a policy a covered action answers 202 with a request and changes nothing; the maker
 * cannot approve it; another person holding the permission approves it and the engine carries it out, checking every
 * rule again; a request whose invoice moved meanwhile, or past its expiry, is not carried out.
 */
let t: TestApp;
let sign: Signer;
const cookies: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
  // a second platform admin: settlements are an admin's action, and the maker never approves their own
  await t.ctx.db.execute(sql`INSERT INTO users (username, password_hash, first_name, last_name, role_id)
    SELECT 'admin2', password_hash, 'Second', 'Admin', role_id FROM users WHERE username = 'admin'`);
  for (const u of ['admin', 'admin2', 'ops', 'owner', 'finance', 'support', 'viewer', 'shop2'])
    cookies[u] = await loginAs(t.app, u);
});
afterAll(async () => t?.close());

const q = async <T extends Record<string, unknown>>(s: ReturnType<typeof sql>) => (await t.ctx.db.execute<T>(s)).rows;
const as = (who: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: cookies[who]! }, ...(payload === undefined ? {} : { payload }) });
const scoped = (url: string) => `${url}${url.includes('?') ? '&' : '?'}merchantId=${t.demo.merchantId}`;
const liveUzs = (flow: 'DEPOSIT' | 'WITHDRAWAL') =>
  t.demo.terminals.find((x) => x.flowType === flow && x.currency === 'UZS' && !x.isTest)!;

/** A live UZS deposit whose customer got requisites (IN_PROGRESS). */
const deposit = async (amount: number) => (await depositGivenRequisites(t, sign, amount)).invoiceId;
const invoice = async (id: string) =>
  (await q<{ status: string; amount: string }>(sql`SELECT status, amount::text FROM invoices WHERE id = ${id}`))[0]!;
const counts = async () =>
  (
    await q<{ e: number; l: number; c: number }>(sql`SELECT (SELECT count(*) FROM event_log)::int AS e,
      (SELECT count(*) FROM ledger_entries)::int AS l, (SELECT count(*) FROM callbacks)::int AS c`)
  )[0]!;
const setDone = (who: string, invoiceId: string, reason = 'customer paid, bank statement shows it') =>
  as(who, 'PATCH', scoped('/api/v1/invoice/status'), { invoiceId, statusId: 4, reason });

describe('approval policies', () => {
  it('are all off at first; platform admins set them, audited; bad thresholds are refused', async () => {
    const list = await as('admin', 'GET', '/api/v1/approval-policies');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data).toHaveLength(6);
    expect(list.json().data.every((p: { enabled: boolean }) => !p.enabled)).toBe(true);
    // ops does not manage the team; merchant staff see only their own key policy
    expect((await as('ops', 'GET', '/api/v1/approval-policies')).statusCode).toBe(403);
    const own = await as('owner', 'GET', '/api/v1/approval-policies');
    expect(own.json().data).toEqual([
      expect.objectContaining({ action: 'merchant.key.edit', merchantId: t.demo.merchantId, enabled: false }),
    ]);
    const put = (who: string, action: string, body: object) =>
      as(who, 'PUT', `/api/v1/approval-policies/${action}`, body);
    for (const [who, action] of [
      ['ops', 'invoice.status.change'],
      ['owner', 'invoice.status.change'],
      ['finance', 'merchant.key.edit'],
    ] as const)
      expect((await put(who, action, { enabled: true })).statusCode, `${who} ${action}`).toBe(403);
    expect((await put('admin', 'no.such.action', { enabled: true })).statusCode).toBe(400);
    expect((await put('admin', 'invoice.status.change', { enabled: true, thresholds: { UZS: -1 } })).statusCode).toBe(
      400,
    );
    expect((await put('admin', 'invoice.status.change', { enabled: true, thresholds: { XXX: 1 } })).statusCode).toBe(
      400,
    );
    expect(await q(sql`SELECT 1 FROM approval_policies`)).toEqual([]);

    const on = await put('admin', 'invoice.status.change', { enabled: true, thresholds: { UZS: 1_000_000_00 } });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().data).toMatchObject({ enabled: true, thresholds: { UZS: 1_000_000_00 }, updatedBy: 'admin' });
    const amount = await put('admin', 'invoice.amount.change', { enabled: true });
    expect(amount.statusCode).toBe(200);
    const audited = await q<{ target_id: string; after: unknown }>(
      sql`SELECT target_id, after FROM audit_log WHERE action = 'approval.policy_changed' ORDER BY id`,
    );
    expect(audited).toEqual([
      { target_id: 'invoice.status.change', after: { enabled: true, thresholds: { UZS: 1_000_000_00 } } },
      { target_id: 'invoice.amount.change', after: { enabled: true, thresholds: {} } },
    ]);
  });
});

describe('requests instead of actions', () => {
  it('a covered action answers 202 and changes nothing; the maker cannot approve; a second person applies it', async () => {
    const id = await deposit(15_000_000_00 + 7);
    const before = await counts();
    const held = await setDone('ops', id);
    expect(held.statusCode, held.body).toBe(202);
    const requestId = held.json().data.approvalRequestId as string;
    expect(held.json().data).toMatchObject({ status: 'PENDING', message: expect.stringContaining('held') });
    expect((await invoice(id)).status).toBe('IN_PROGRESS');
    const after = await counts();
    expect(after).toEqual(before);
    // the same request again, while the first waits: refused, nothing stored
    const again = await setDone('admin', id, 'asked twice');
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('A request for this is already waiting for approval (asked by ops)');
    expect(await q(sql`SELECT 1 FROM approval_requests WHERE reason = 'asked twice'`)).toEqual([]);
    const [requested] = await q<{ actor_username: string; reason: string }>(sql`SELECT actor_username, reason
      FROM audit_log WHERE action = 'approval.requested' AND target_id = ${requestId}`);
    expect(requested).toEqual({ actor_username: 'ops', reason: 'customer paid, bank statement shows it' });

    // the invoice shows its pending request; the queue counts it for admin, not for its maker
    const listed = await as('admin', 'GET', `/api/v1/approvals?status=PENDING&targetId=${id}`);
    expect(listed.json().data).toEqual([
      expect.objectContaining({ id: requestId, maker: 'ops', canDecide: true, action: 'invoice.status.change' }),
    ]);
    expect((await as('admin', 'GET', '/api/v1/approvals/count')).json().data.pending).toBeGreaterThanOrEqual(1);
    const mine = await as('ops', 'GET', `/api/v1/approvals?targetId=${id}`);
    expect(mine.json().data[0]).toMatchObject({ id: requestId, canDecide: false });

    // the maker's own approval, and anyone without the permission: refused, nothing changes
    const own = await as('ops', 'POST', `/api/v1/approvals/${requestId}/approve`, {});
    expect(own.statusCode).toBe(403);
    expect(own.json().error.message).toMatch(/another person/);
    for (const u of ['owner', 'finance', 'support', 'viewer', 'shop2']) {
      const res = await as(u, 'POST', `/api/v1/approvals/${requestId}/approve`, {});
      expect(res.statusCode, u).toBe(404);
      expect((await as(u, 'GET', `/api/v1/approvals/${requestId}`)).statusCode, u).toBe(404);
    }
    expect((await invoice(id)).status).toBe('IN_PROGRESS');
    expect(await counts()).toEqual(before);

    const ok = await as('admin', 'POST', `/api/v1/approvals/${requestId}/approve`, { reason: 'statement checked' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({
      status: 'APPROVED',
      decidedBy: 'admin',
      decisionReason: 'statement checked',
    });
    expect((await invoice(id)).status).toBe('DONE');
    const [event] = await q<{ description: string }>(sql`SELECT description FROM event_log
      WHERE invoice_id = ${id} ORDER BY id DESC LIMIT 1`);
    expect(event!.description).toMatch(/asked by ops, approved by admin/);
    const [approved] = await q<{ actor_username: string }>(sql`SELECT actor_username FROM audit_log
      WHERE action = 'approval.approved' AND target_id = ${requestId}`);
    expect(approved).toEqual({ actor_username: 'admin' });
    // once is enough
    expect((await as('admin', 'POST', `/api/v1/approvals/${requestId}/approve`, {})).statusCode).toBe(409);
    // the maker is told: a Closed notification with who approved it
    const told = await as('ops', 'GET', '/api/v1/notifications');
    expect(told.statusCode, told.body).toBe(200);
    expect(told.json().data).toContainEqual(
      expect.objectContaining({
        id: `APPROVAL:${requestId}`,
        status: 'Closed',
        paymentStatus: 'Approved by admin: statement checked',
        link: '/approvals',
      }),
    );
    await checkMoneyInvariants(t.ctx.db);
  });

  it('under the threshold, and on test invoices, the action is carried out at once', async () => {
    const small = await deposit(500_000_00 + 3);
    expect((await setDone('ops', small)).statusCode).toBe(200);
    expect((await invoice(small)).status).toBe('DONE');
  });

  it('an approval after the invoice moved is refused with the rule; the request shows why, then is rejected', async () => {
    const id = await deposit(16_000_000_00 + 9);
    const held = await setDone('ops', id);
    expect(held.statusCode).toBe(202);
    const requestId = held.json().data.approvalRequestId as string;
    // meanwhile the merchant cancels it
    expect((await injectSigned(t.app, sign, 'POST', `/api/merchant/v1/invoices/${id}/cancel`, {})).statusCode).toBe(
      200,
    );
    const before = await counts();
    const refused = await as('admin', 'POST', `/api/v1/approvals/${requestId}/approve`, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(
      'Not approved: The invoice is now CANCELED; it was IN_PROGRESS when the change was asked for',
    );
    expect((await invoice(id)).status).toBe('CANCELED');
    expect(await counts()).toEqual(before);
    const shown = await as('admin', 'GET', `/api/v1/approvals/${requestId}`);
    expect(shown.json().data).toMatchObject({
      status: 'PENDING',
      refusal: 'The invoice is now CANCELED; it was IN_PROGRESS when the change was asked for',
    });
    expect((await as('admin', 'POST', `/api/v1/approvals/${requestId}/reject`, {})).statusCode).toBe(400);
    const rejected = await as('admin', 'POST', `/api/v1/approvals/${requestId}/reject`, {
      reason: 'merchant cancelled',
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().data).toMatchObject({ status: 'REJECTED', decisionReason: 'merchant cancelled' });
    expect((await as('admin', 'POST', `/api/v1/approvals/${requestId}/approve`, {})).statusCode).toBe(409);
  });

  it('an expired request can no longer be approved', async () => {
    const id = await deposit(17_000_000_00 + 1);
    const requestId = (await setDone('ops', id)).json().data.approvalRequestId as string;
    t.clock.advance(25 * 3600_000);
    try {
      const late = await as('admin', 'POST', `/api/v1/approvals/${requestId}/approve`, {});
      expect(late.statusCode).toBe(409);
      expect(late.json().error.message).toMatch(/expired/);
      expect((await invoice(id)).status).not.toBe('DONE');
      const listed = await as('admin', 'GET', `/api/v1/approvals?status=EXPIRED`);
      expect(listed.json().data.map((r: { id: string }) => r.id)).toContain(requestId);
    } finally {
      t.clock.reset();
    }
  });

  it('amount changes are held too, and carried out on approval', async () => {
    const id = await deposit(1_234_000_00 + 5);
    // an amount with minor units, as the file's others: the demo's deposits are whole sums, and one still active on
    // the same account with this amount would (rightly) refuse the change
    const held = await as('ops', 'PATCH', scoped('/api/v1/invoice/amount'), {
      invoiceId: id,
      amount: 1_200_000_00 + 13,
      reason: 'customer paid less',
    });
    expect(held.statusCode, held.body).toBe(202);
    expect(Number((await invoice(id)).amount)).toBe(1_234_000_00 + 5);
    const requestId = held.json().data.approvalRequestId as string;
    const ok = await as('admin', 'POST', `/api/v1/approvals/${requestId}/approve`, {});
    expect(ok.statusCode, ok.body).toBe(200);
    expect(Number((await invoice(id)).amount)).toBe(1_200_000_00 + 13);
    await checkMoneyInvariants(t.ctx.db);
  });

  it('lists by status, action and maker with keyset pages; bad filters are 400', async () => {
    const page1 = await as('admin', 'GET', '/api/v1/approvals?limit=2');
    expect(page1.statusCode).toBe(200);
    expect(page1.json().data).toHaveLength(2);
    const page2 = await as('admin', 'GET', `/api/v1/approvals?limit=2&after=${page1.json().next}`);
    expect(page2.json().data[0].id).not.toBe(page1.json().data[1].id);
    const byMaker = await as('admin', 'GET', '/api/v1/approvals?maker=ops&action=invoice.amount.change');
    expect(byMaker.json().data.every((r: { maker: string; action: string }) => r.maker === 'ops')).toBe(true);
    expect((await as('admin', 'GET', '/api/v1/approvals?status=LOST')).statusCode).toBe(400);
    expect((await as('admin', 'GET', '/api/v1/approvals?after=nonsense')).statusCode).toBe(400);
    // merchant staff without a key policy's permission see none of the platform's requests
    expect((await as('viewer', 'GET', '/api/v1/approvals')).json().data).toEqual([]);
  });
});

describe('every covered action', () => {
  const put = (action: string, body: object) => as('admin', 'PUT', `/api/v1/approval-policies/${action}`, body);
  type Held = { statusCode: number; body: string; json(): { data: { approvalRequestId: string } } };
  const approve = async (held: Held, by = 'admin') => {
    expect(held.statusCode, held.body).toBe(202);
    const ok = await as(by, 'POST', `/api/v1/approvals/${held.json().data.approvalRequestId}/approve`, {});
    expect(ok.statusCode, ok.body).toBe(200);
  };

  it('settlements: held, nothing debited, then recorded on approval', async () => {
    expect((await put('settlement.create', { enabled: true })).statusCode).toBe(200);
    const terminalId = liveUzs('DEPOSIT').id;
    const n = async () => (await q<{ n: number }>(sql`SELECT count(*)::int AS n FROM settlements`))[0]!.n;
    const before = await n();
    const held = await as('admin', 'POST', scoped('/api/v1/settlement'), {
      baseAmount: 1000.5,
      settlementAmount: 0.08,
      terminalId,
      reason: 'weekly payout to the merchant',
    });
    expect(await n()).toBe(before);
    await approve(held, 'admin2');
    expect(await n()).toBe(before + 1);
    await checkMoneyInvariants(t.ctx.db);
  });

  it('unmatched money: a match is held and carried out on approval, from suspense', async () => {
    expect((await put('incoming.resolve', { enabled: true, thresholds: { UZS: 0 } })).statusCode).toBe(200);
    const amount = 2_345_000_00 + 11;
    const id = await deposit(amount);
    expect((await injectSigned(t.app, sign, 'POST', `/api/merchant/v1/invoices/${id}/cancel`, {})).statusCode).toBe(
      200,
    );
    const [acc] = await q<{ account_id: number; code: string }>(sql`SELECT i.account_id, p.code FROM invoices i
      JOIN provider_accounts a ON a.id = i.account_id JOIN providers p ON p.id = a.provider_id WHERE i.id = ${id}`);
    const rep = await t.app.inject({
      method: 'POST',
      url: '/api/provider/v1/incoming',
      headers: { authorization: `Bearer dev:${acc!.code}` },
      payload: {
        accountId: Number(acc!.account_id),
        amount,
        occurredAt: t.clock.now().toISOString(),
        reference: `ap-${id}`,
      },
    });
    expect(rep.json().data.status).toBe('UNMATCHED');
    const held = await as('ops', 'POST', `/api/v1/incoming/${rep.json().data.id}/match`, {
      invoiceId: id,
      reason: 'customer paid late',
    });
    expect((await invoice(id)).status).toBe('CANCELED');
    await approve(held);
    expect((await invoice(id)).status).toBe('DONE');
    await checkMoneyInvariants(t.ctx.db);
  });

  it('provider accounts: a limit raise and a credential change are held; a limit cut is not', async () => {
    expect((await put('people.account.edit', { enabled: true, thresholds: { UZS: 10_000_000_00 } })).statusCode).toBe(
      200,
    );
    const [acc] = await q<{ account_id: number; limit: string }>(sql`SELECT l.account_id, l."limit"::text AS limit
      FROM account_limits l JOIN provider_accounts a ON a.id = l.account_id
      JOIN payment_methods m ON m.id = a.payment_method_id JOIN currencies c ON c.id = m.currency_id
      WHERE c.code = 'UZS' ORDER BY l.account_id LIMIT 1`);
    const accountId = Number(acc!.account_id);
    const limitOf = async () =>
      (
        await q<{ limit: string }>(
          sql`SELECT "limit"::text AS limit FROM account_limits WHERE account_id = ${accountId}`,
        )
      )[0]!.limit;
    const old = BigInt(acc!.limit);
    const setLimit = (limit: bigint) =>
      as('ops', 'PUT', `/api/router/v1/people/account/limit/${accountId}`, {
        peopleAccountId: accountId,
        limit: Number(limit),
        priority: 1,
        checkUniqueAmount: false,
      });
    const raise = await setLimit(old * 10n);
    expect(await limitOf()).toBe(String(old));
    await approve(raise);
    expect(await limitOf()).toBe(String(old * 10n));
    const cut = await setLimit(old);
    expect(cut.statusCode, cut.body).toBe(200);
    expect(await limitOf()).toBe(String(old));

    const [cred] = await q<{ id: number }>(sql`SELECT id FROM account_credentials WHERE account_id = ${accountId}
      AND credential_type = 'CARD' LIMIT 1`);
    const change = await as('ops', 'PUT', `/api/v1/people/account/credentials/${cred!.id}`, {
      value: '4000 0012 3456 7899',
    });
    const [row0] = await q<{ value_masked: string }>(
      sql`SELECT value_masked FROM account_credentials WHERE id = ${cred!.id}`,
    );
    expect(row0!.value_masked).not.toBe('400000******7899');
    // the request holds the new number encrypted, and shows it masked
    const [req] = await q<{ payload: unknown; summary: string }>(sql`SELECT payload, summary FROM approval_requests
      WHERE id = ${change.json().data.approvalRequestId}`);
    expect(JSON.stringify(req)).not.toContain('4000001234567899');
    expect(req!.summary).toContain('400000******7899');
    await approve(change);
    const [row1] = await q<{ value_masked: string }>(
      sql`SELECT value_masked FROM account_credentials WHERE id = ${cred!.id}`,
    );
    expect(row1!.value_masked).toBe('400000******7899');
  });

  it('a merchant owner may require approval of its own API key replacement; another person approves it', async () => {
    const own = await as('owner', 'PUT', '/api/v1/approval-policies/merchant.key.edit', { enabled: true });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().data).toMatchObject({ merchantId: t.demo.merchantId, enabled: true });
    const { publicKey } = generateKeyPairSync('ed25519');
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const keyOf = async () =>
      (await q<{ k: string }>(sql`SELECT client_public_key AS k FROM merchants WHERE id = ${t.demo.merchantId}`))[0]!.k;
    const before = await keyOf();
    const held = await as('owner', 'PUT', `/api/v1/merchant/${t.demo.merchantId}/public-key`, { clientPublicKey: pem });
    expect(held.statusCode, held.body).toBe(202);
    expect(await keyOf()).toBe(before);
    // another merchant's owner sees nothing of it
    expect((await as('shop2', 'GET', `/api/v1/approvals/${held.json().data.approvalRequestId}`)).statusCode).toBe(404);
    await approve(held);
    expect(await keyOf()).not.toBe(before);
    // turn it off again: the signed merchant-API calls of this file's other tests use the demo key
    await as('owner', 'PUT', '/api/v1/approval-policies/merchant.key.edit', { enabled: false });
  });
});
