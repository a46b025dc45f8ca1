import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { WEBHOOK_SECRET_OVERLAP_HOURS, merchantResponse, webhookSecretResponse } from '@paydesk/contracts';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';
import { injectSigned, invoiceBody, merchantSigner, startReceiver } from '../../../test/merchant-client';
import { tickCallbacks } from '../callbacks/service';

let t: TestApp;
let owner = '';

beforeAll(async () => {
  t = await createTestApp();
  owner = await loginAs(t.app, 'owner');
});
afterAll(async () => t?.close());

const as = (method: string, url: string, payload?: unknown) =>
  t.app.inject({ method: method as 'GET', url, headers: { cookie: owner }, payload: payload as object });

/** A cancelled invoice whose callback goes to `url`; returns the invoice id. */
async function cancelledInvoice(url: string) {
  const sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
  const terminal = t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && !x.isTest)!;
  const c = await injectSigned(
    t.app,
    sign,
    'POST',
    '/api/merchant/v1/invoices',
    invoiceBody(terminal, { callbackUrl: url }),
  );
  const id = c.json().data.invoiceId as string;
  expect((await injectSigned(t.app, sign, 'POST', `/api/merchant/v1/invoices/${id}/cancel`)).statusCode).toBe(200);
  return id;
}

/** standardwebhooks' verifier, at the server's (simulated) time: it refuses timestamps off by more than 5 minutes. */
const verifies = (secret: string, hook: { headers: Record<string, string>; body: string }) => {
  vi.useFakeTimers({ toFake: ['Date'], now: t.clock.now() });
  try {
    new Webhook(secret).verify(hook.body, hook.headers);
    return true;
  } catch {
    return false;
  } finally {
    vi.useRealTimers();
  }
};

describe('merchant keys', () => {
  it('rotating the webhook secret: callbacks carry both signatures for 24 h, then only the new one', async () => {
    const secrets = [t.demo.webhookSecret];
    const rx = await startReceiver(
      () => 204,
      () => secrets,
    );
    try {
      const rotated = await as('POST', `/api/v1/merchant/${t.demo.merchantId}/webhook-secret`);
      expect(rotated.statusCode).toBe(200);
      const { webhookSecret, previousValidUntil } = webhookSecretResponse.parse(rotated.json()).data;
      secrets.push(webhookSecret);
      expect(webhookSecret).not.toBe(t.demo.webhookSecret);
      expect(new Date(previousValidUntil).getTime() - t.clock.now().getTime()).toBeCloseTo(
        WEBHOOK_SECRET_OVERLAP_HOURS * 3600_000,
        -4,
      );
      const me = merchantResponse.parse((await as('GET', '/api/v1/merchant/me')).json()).data;
      expect(me.previousWebhookSecretUntil).toBe(previousValidUntil);
      // the secret is shown once: no read returns it
      expect(JSON.stringify(me)).not.toContain(webhookSecret.slice(6));

      await cancelledInvoice(rx.url);
      while ((await tickCallbacks(t.ctx)) > 0);
      const during = rx.received.at(-1)!;
      expect(during.headers['webhook-signature']!.split(' ')).toHaveLength(2);
      expect(verifies(t.demo.webhookSecret, during)).toBe(true); // a merchant that has not rolled yet
      expect(verifies(webhookSecret, during)).toBe(true); // one that has

      t.clock.advance(WEBHOOK_SECRET_OVERLAP_HOURS * 3600_000 + 60_000);
      await cancelledInvoice(rx.url);
      while ((await tickCallbacks(t.ctx)) > 0);
      const after = rx.received.at(-1)!;
      expect(after.headers['webhook-signature']!.split(' ')).toHaveLength(1);
      expect(verifies(t.demo.webhookSecret, after)).toBe(false);
      expect(verifies(webhookSecret, after)).toBe(true);
      expect((await as('GET', '/api/v1/merchant/me')).json().data.previousWebhookSecretUntil).toBeNull();
    } finally {
      t.clock.reset();
      await rx.close();
    }
  });

  it('replacing the public key: requests signed with the old key are refused, the new key works', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const res = await as('PUT', `/api/v1/merchant/${t.demo.merchantId}/public-key`, { clientPublicKey: pem });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.clientPublicKey).toBe(pem);
    const terminal = t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && !x.isTest)!;
    const old = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
    expect(
      (await injectSigned(t.app, old, 'POST', '/api/merchant/v1/invoices', invoiceBody(terminal))).statusCode,
    ).toBe(401);
    const fresh = merchantSigner(
      t.demo.merchantId,
      privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      t.clock.now,
    );
    expect(
      (await injectSigned(t.app, fresh, 'POST', '/api/merchant/v1/invoices', invoiceBody(terminal))).statusCode,
    ).toBe(201);
    const same = await as('PUT', `/api/v1/merchant/${t.demo.merchantId}/public-key`, { clientPublicKey: pem });
    expect(same.statusCode).toBe(409);
    const junk = await as('PUT', `/api/v1/merchant/${t.demo.merchantId}/public-key`, {
      clientPublicKey: '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----',
    });
    expect(junk.statusCode).toBe(400);
    const records = await t.ctx.db.execute<{ action: string }>(
      sql`SELECT action FROM audit_log WHERE merchant_id = ${t.demo.merchantId} AND action LIKE 'merchant.%'`,
    );
    expect(records.rows.map((r) => r.action)).toEqual(
      expect.arrayContaining(['merchant.public_key_replaced', 'merchant.webhook_secret_rotated']),
    );
  });
});
