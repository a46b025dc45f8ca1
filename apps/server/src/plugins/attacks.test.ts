import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { statusByCode } from '@paydesk/contracts';
import { createTestApp, loginAs, type TestApp } from '../../test/harness';

/**
 * The four attacks of the trust-model issue, each tried by the role that did it (and the first
 * one also by another merchant's owner): each is refused and changes nothing.
 */
let t: TestApp;
const cookie: Record<string, string> = {};
let demoId = '';
let secondId = '';

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['owner', 'shop2', 'viewer', 'finance', 'support', 'ops']) cookie[u] = await loginAs(t.app, u);
  const ids = await t.ctx.db.execute<{ id: string; name: string }>(sql`SELECT id, name FROM merchants`);
  demoId = ids.rows.find((m) => m.name === 'Demo Merchant')!.id;
  secondId = ids.rows.find((m) => m.name === 'Second Shop')!.id;
});
afterAll(async () => t?.close());

const call = (who: string, method: string, url: string, payload?: unknown) =>
  t.app.inject({ method: method as 'GET', url, headers: { cookie: cookie[who]! }, payload: payload as object });

/** Everything an attacker could have changed, read at once, to compare before and after. */
async function snapshot() {
  const q = async (s: ReturnType<typeof sql>) => (await t.ctx.db.execute(s)).rows;
  return JSON.stringify({
    accounts: await q(sql`SELECT a.id, a.enabled, l."limit", l.priority FROM provider_accounts a
                          JOIN account_limits l ON l.account_id = a.id ORDER BY a.id`),
    credentials: await q(sql`SELECT id, account_id, value FROM account_credentials ORDER BY id`),
    invoices: await q(sql`SELECT id, status, amount FROM invoices ORDER BY id`),
    ledger: await q(sql`SELECT count(*)::int AS n, coalesce(sum(abs(amount)), 0)::text AS s FROM ledger_entries`),
    transactions: await q(sql`SELECT id, status FROM provider_transactions ORDER BY id`),
    merchants: await q(sql`SELECT id, name, client_public_key, webhook_secret FROM merchants ORDER BY id`),
    settings: await q(sql`SELECT merchant_id, key, value FROM merchant_settings ORDER BY merchant_id, key`),
  });
}

describe('attack 1: a merchant routes other merchants’ customers to its own card', () => {
  for (const who of ['owner', 'shop2']) {
    it(`${who} cannot create, prioritise or read provider accounts, nor flip auto retry for another merchant`, async () => {
      const before = await snapshot();
      const create = await call(who, 'POST', '/api/v1/people/create', { paymentMethodId: 1, paymentProviderId: 1 });
      expect(create.statusCode).toBe(403);
      expect(create.json().error.message).toBe('Only platform staff may do this.');
      const [account] = (
        await t.ctx.db.execute<{ id: number }>(sql`SELECT id FROM provider_accounts ORDER BY id LIMIT 1`)
      ).rows;
      const raise = await call(who, 'PUT', `/api/router/v1/people/account/limit/${account!.id}`, {
        peopleAccountId: account!.id,
        limit: 999_999_999_00,
        priority: 10_000,
        checkUniqueAmount: false,
      });
      expect(raise.statusCode).toBe(403);
      const add = await call(who, 'POST', '/api/v1/people/account/credentials', {
        peopleAccountId: account!.id,
        credentialType: 'CARD',
        paramType: 'S',
        value: '4111111111111111',
      });
      expect(add.statusCode).toBe(403);
      for (const url of ['/api/v1/people/account', `/api/v1/people/account/${account!.id}`]) {
        const read = await call(who, 'GET', url);
        expect(read.statusCode).toBe(403);
        expect(read.body).not.toMatch(/\d{16}/);
      }
      // auto retry: the merchant's own setting only; naming the other merchant is ignored
      const other = who === 'owner' ? secondId : demoId;
      const own = who === 'owner' ? demoId : secondId;
      const flip = await call(
        who,
        'POST',
        `/api/v1/settings/settings.withdrawal.retry.auto.enable?merchantId=${other}`,
        {
          value: 'true',
        },
      );
      expect(flip.statusCode).toBe(200);
      const rows = (
        await t.ctx.db.execute<{ merchant_id: string; value: string }>(
          sql`SELECT merchant_id, value FROM merchant_settings WHERE key = 'settings.withdrawal.retry.auto.enable'`,
        )
      ).rows;
      expect(rows.find((r) => r.merchant_id === own)?.value).toBe('true');
      expect(rows.find((r) => r.merchant_id === other)?.value ?? 'false').toBe('false');
      // put it back: everything else must be exactly as before
      await call(who, 'POST', '/api/v1/settings/settings.withdrawal.retry.auto.enable', { value: 'false' });
      const after = JSON.parse(await snapshot());
      const was = JSON.parse(before);
      expect({ ...after, settings: undefined }).toEqual({ ...was, settings: undefined });
    });
  }
});

describe('attack 2: a merchant marks its own deposit DONE', () => {
  it('owner (and every merchant role) gets 403 on a live invoice and nothing moves', async () => {
    const [inv] = (
      await t.ctx.db.execute<{ id: string }>(sql`
        SELECT id FROM invoices WHERE merchant_id = ${demoId} AND NOT is_test AND flow_type = 'DEPOSIT'
          AND status IN ('IN_PROGRESS', 'PAYED', 'NEW') ORDER BY created_at DESC LIMIT 1`)
    ).rows;
    expect(inv).toBeDefined();
    const before = await snapshot();
    for (const who of ['owner', 'finance', 'support', 'viewer']) {
      const res = await call(who, 'PATCH', '/api/v1/invoice/status', {
        invoiceId: inv!.id,
        statusId: statusByCode('DONE')!.id,
        reason: 'the customer paid, trust me',
      });
      expect(res.statusCode, who).toBe(403);
      expect(res.json().error.message).toBe('Your role does not allow you to change an invoice status.');
      const amount = await call(who, 'PATCH', '/api/v1/invoice/amount', {
        invoiceId: inv!.id,
        amount: 1,
        reason: 'make it cheaper',
      });
      expect(amount.statusCode, who).toBe(403);
    }
    expect(await snapshot()).toBe(before);
  });
});

describe('attack 3: a viewer re-issues a payout that is still with the provider', () => {
  it('viewer gets 403; even platform staff get 409 while the payout is pending; no second payout', async () => {
    const [inv] = (
      await t.ctx.db.execute<{ id: string }>(sql`
        SELECT i.id FROM invoices i WHERE i.merchant_id = ${demoId} AND i.flow_type = 'WITHDRAWAL'
          AND i.status = 'IN_PROGRESS' AND NOT i.is_test
          AND EXISTS (SELECT 1 FROM provider_transactions pt WHERE pt.invoice_id = i.id AND pt.status = 'PENDING')
        LIMIT 1`)
    ).rows;
    expect(inv, 'the demo has an in-flight payout').toBeDefined();
    const before = await snapshot();
    for (const who of ['viewer', 'owner', 'support']) {
      const res = await call(who, 'POST', '/api/v1/invoice/retry', { invoiceId: inv!.id });
      expect(res.statusCode, who).toBe(403);
    }
    const ops = await call('ops', 'POST', `/api/v1/invoice/retry?merchantId=${demoId}`, { invoiceId: inv!.id });
    expect(ops.statusCode).toBe(409);
    expect(ops.json().error.message).toMatch(/still with the provider; retry only after it is declined/);
    expect(await snapshot()).toBe(before);
  });
});

describe('attack 4: replacing the API signing key with only merchant.read', () => {
  const pem =
    '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----\n';
  it('finance (merchant.read, no merchant.key.edit) cannot change the key or the webhook secret', async () => {
    const before = await snapshot();
    const viaRename = await call('finance', 'PUT', `/api/v1/merchant/${demoId}`, {
      name: 'Demo Merchant',
      clientPublicKey: pem,
    });
    expect(viaRename.statusCode).toBe(400);
    const direct = await call('finance', 'PUT', `/api/v1/merchant/${demoId}/public-key`, { clientPublicKey: pem });
    expect(direct.statusCode).toBe(403);
    expect(direct.json().error.message).toBe('Your role does not allow you to change the API key and webhook secret.');
    const secret = await call('finance', 'POST', `/api/v1/merchant/${demoId}/webhook-secret`);
    expect(secret.statusCode).toBe(403);
    // another merchant's owner holds merchant.key.edit, but not for Demo Merchant
    const foreign = await call('shop2', 'PUT', `/api/v1/merchant/${demoId}/public-key`, { clientPublicKey: pem });
    expect(foreign.statusCode).toBe(404);
    expect(await snapshot()).toBe(before);
    // renaming still works with merchant.read (the route's access rule)
    const rename = await call('finance', 'PUT', `/api/v1/merchant/${demoId}`, { name: 'Demo Merchant' });
    expect(rename.statusCode).toBe(200);
  });
});
