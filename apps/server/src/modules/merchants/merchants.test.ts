import { generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MERCHANT_API_PREFIX, merchantSignaturePayload, PUBLIC_KEY_MESSAGE } from '@paydesk/contracts';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';
import { merchants } from '../../db/schema';

let t: TestApp;
const cookies: Record<string, string> = {};
let secondId: string;
/** Read from the database itself (not the shared demo file, which concurrent runs may rewrite). */
let demoId: string;

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['owner', 'shop2', 'admin', 'ops', 'finance', 'viewer', 'support'])
    cookies[u] = await loginAs(t.app, u);
  demoId = (await call('GET', '/api/v1/people/me', 'owner')).json().data.merchantId;
  const list = (await call('GET', '/api/v1/merchant?page=0&size=50', 'admin')).json().data as { id: string }[];
  secondId = list.find((m) => m.id !== demoId)!.id;
});
afterAll(async () => {
  await t.close();
});

function call(method: 'GET' | 'POST' | 'PUT', url: string, user?: string, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: user ? { cookie: cookies[user]! } : {},
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}
const ed25519 = () =>
  generateKeyPairSync('ed25519', {
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });

const storedMerchant = async (id: string) => (await t.ctx.db.select().from(merchants).where(eq(merchants.id, id)))[0]!;

describe('PUT /api/v1/merchant/{id}', () => {
  it('renames the own merchant', async () => {
    const res = await call('PUT', `/api/v1/merchant/${demoId}`, 'owner', { name: 'Demo Merchant Ltd' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      id: demoId,
      name: 'Demo Merchant Ltd',
      clientPublicKey: expect.stringContaining('BEGIN PUBLIC KEY'),
      previousWebhookSecretUntil: null,
      requireTwoFactor: false,
    });
    expect((await call('GET', '/api/v1/merchant/me', 'owner')).json().data.name).toBe('Demo Merchant Ltd');
    expect((await call('PUT', `/api/v1/merchant/${demoId}`, 'owner', { name: 'Demo Merchant' })).statusCode).toBe(200);
  });

  it('no longer takes a public key: 400 and nothing changes (the key has its own route)', async () => {
    const before = await storedMerchant(demoId);
    const res = await call('PUT', `/api/v1/merchant/${demoId}`, 'owner', {
      name: 'Renamed With Key',
      clientPublicKey: ed25519().publicKey,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_ERROR');
    expect(await storedMerchant(demoId)).toEqual(before);
  });

  it('validates the name: required, at least 3 characters', async () => {
    for (const [name, message] of [
      ['', 'Name is required'],
      ['ab', 'Name must be at least 3 characters long'],
    ] as const) {
      const res = await call('PUT', `/api/v1/merchant/${demoId}`, 'owner', { name });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields.name).toBe(message);
    }
    expect((await call('PUT', `/api/v1/merchant/${demoId}`, 'owner', {})).json().error.fields.name).toBe(
      'Name is required',
    );
  });

  it('lets merchant.read users change only their own merchant (404 otherwise); merchant.rw.all any', async () => {
    const demoBefore = await storedMerchant(demoId);
    const secondBefore = await storedMerchant(secondId);
    expect((await call('PUT', `/api/v1/merchant/${secondId}`, 'owner', { name: 'Taken over' })).statusCode).toBe(404);
    expect((await call('PUT', `/api/v1/merchant/${demoId}`, 'shop2', { name: 'Taken over' })).statusCode).toBe(404);
    expect(
      (await call('PUT', `/api/v1/merchant/${demoId}?merchantId=${demoId}`, 'shop2', { name: 'Taken over' }))
        .statusCode,
    ).toBe(404);
    for (const u of ['viewer', 'support'])
      expect((await call('PUT', `/api/v1/merchant/${demoId}`, u, { name: 'Nope Nope' })).statusCode).toBe(403);
    expect((await call('PUT', `/api/v1/merchant/${demoId}`, undefined, { name: 'Nope Nope' })).statusCode).toBe(401);
    expect(await storedMerchant(demoId)).toEqual(demoBefore);
    expect(await storedMerchant(secondId)).toEqual(secondBefore);

    const admin = await call('PUT', `/api/v1/merchant/${secondId}`, 'admin', { name: 'Second Shop LLC' });
    expect(admin.statusCode).toBe(200);
    expect(admin.json().data.name).toBe('Second Shop LLC');
    expect(
      (await call('PUT', '/api/v1/merchant/00000000-0000-4000-8000-000000000000', 'admin', { name: 'Ghost' }))
        .statusCode,
    ).toBe(404);
  });
});

describe('PUT /api/v1/merchant/{id}/public-key', () => {
  it('sets a new Ed25519 key (stored canonical, served by /merchant/me at once)', async () => {
    const { publicKey } = ed25519();
    const res = await call('PUT', `/api/v1/merchant/${demoId}/public-key`, 'owner', {
      clientPublicKey: `\n${publicKey}\n\n`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      id: demoId,
      name: 'Demo Merchant',
      clientPublicKey: publicKey,
      previousWebhookSecretUntil: null,
      requireTwoFactor: false,
    });
    expect((await call('GET', '/api/v1/merchant/me', 'owner')).json().data.clientPublicKey).toBe(publicKey);
    // a rename leaves the stored key alone
    const rename = await call('PUT', `/api/v1/merchant/${demoId}`, 'owner', { name: 'Demo Merchant' });
    expect(rename.json().data.clientPublicKey).toBe(publicKey);
  });

  it('refuses a key that is not an Ed25519 SPKI PEM with a clear 400', async () => {
    const before = await storedMerchant(demoId);
    const rsa = generateKeyPairSync('rsa', {
      modulusLength: 1024,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    const garbled = ed25519().publicKey.replace(/[A-Za-z]{6}/, 'AAAAAA');
    for (const key of [
      'hello',
      '',
      rsa.publicKey,
      '-----BEGIN PUBLIC KEY-----\nnot base64 at all!!\n-----END PUBLIC KEY-----',
      garbled,
      ed25519().privateKey,
    ]) {
      const res = await call('PUT', `/api/v1/merchant/${demoId}/public-key`, 'owner', { clientPublicKey: key });
      expect(res.statusCode, key.slice(0, 40)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect(res.json().error.fields.clientPublicKey).toBe(PUBLIC_KEY_MESSAGE);
      expect(res.json().error.message).toContain(PUBLIC_KEY_MESSAGE);
    }
    expect(await storedMerchant(demoId)).toEqual(before);
  });

  it('needs merchant.key.edit and the own merchant; nothing changes otherwise', async () => {
    const { publicKey } = ed25519();
    const demoBefore = await storedMerchant(demoId);
    const secondBefore = await storedMerchant(secondId);
    for (const u of ['finance', 'support', 'viewer'])
      expect(
        (await call('PUT', `/api/v1/merchant/${demoId}/public-key`, u, { clientPublicKey: publicKey })).statusCode,
        u,
      ).toBe(403);
    expect(
      (await call('PUT', `/api/v1/merchant/${demoId}/public-key`, 'shop2', { clientPublicKey: publicKey })).statusCode,
    ).toBe(404);
    expect(
      (await call('PUT', `/api/v1/merchant/${secondId}/public-key`, 'owner', { clientPublicKey: publicKey }))
        .statusCode,
    ).toBe(404);
    expect(
      (await call('PUT', `/api/v1/merchant/${demoId}/public-key`, undefined, { clientPublicKey: publicKey }))
        .statusCode,
    ).toBe(401);
    expect(await storedMerchant(demoId)).toEqual(demoBefore);
    expect(await storedMerchant(secondId)).toEqual(secondBefore);
  });
});

describe('POST /api/v1/merchant/{id}/webhook-secret', () => {
  it('rotates the secret, returned once; the previous one keeps signing for a while', async () => {
    const before = await storedMerchant(demoId);
    const res = await call('POST', `/api/v1/merchant/${demoId}/webhook-secret`, 'owner');
    expect(res.statusCode).toBe(200);
    const { webhookSecret, previousValidUntil } = res.json().data;
    expect(webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    expect(webhookSecret).not.toBe(before.webhookSecret);
    const after = await storedMerchant(demoId);
    expect(after.webhookSecret).toBe(webhookSecret);
    expect(after.previousWebhookSecret).toBe(before.webhookSecret);
    expect(after.previousWebhookSecretUntil!.toISOString()).toBe(previousValidUntil);
    expect(new Date(previousValidUntil).getTime()).toBeGreaterThan(t.ctx.now().getTime());
    const me = (await call('GET', '/api/v1/merchant/me', 'owner')).json().data;
    expect(me.previousWebhookSecretUntil).toBe(previousValidUntil);
    expect(JSON.stringify(me)).not.toContain(webhookSecret);
  });

  it('needs merchant.key.edit and the own merchant; nothing changes otherwise', async () => {
    const demoBefore = await storedMerchant(demoId);
    const secondBefore = await storedMerchant(secondId);
    for (const u of ['finance', 'support', 'viewer'])
      expect((await call('POST', `/api/v1/merchant/${demoId}/webhook-secret`, u)).statusCode, u).toBe(403);
    expect((await call('POST', `/api/v1/merchant/${demoId}/webhook-secret`, 'shop2')).statusCode).toBe(404);
    expect((await call('POST', `/api/v1/merchant/${secondId}/webhook-secret`, 'owner')).statusCode).toBe(404);
    expect((await call('POST', `/api/v1/merchant/${demoId}/webhook-secret`)).statusCode).toBe(401);
    expect(await storedMerchant(demoId)).toEqual(demoBefore);
    expect(await storedMerchant(secondId)).toEqual(secondBefore);
  });
});

describe('a changed public key and the merchant API', () => {
  it('takes effect at once: the new key signs, the old one no longer does', async () => {
    const signedGet = (privateKeyPem: string) => {
      const url = `${MERCHANT_API_PREFIX}/invoices/${randomUUID()}`;
      const ts = String(Math.floor(Date.now() / 1000));
      const signature = sign(null, Buffer.from(merchantSignaturePayload(ts, 'GET', url, '')), privateKeyPem).toString(
        'base64',
      );
      return t.app.inject({
        method: 'GET',
        url,
        headers: { 'x-merchant-id': demoId, 'x-timestamp': ts, 'x-signature': signature },
      });
    };
    const first = ed25519();
    expect(
      (await call('PUT', `/api/v1/merchant/${demoId}/public-key`, 'owner', { clientPublicKey: first.publicKey }))
        .statusCode,
    ).toBe(200);
    // an unknown invoice: 404 means the signature check passed
    expect((await signedGet(first.privateKey)).statusCode).toBe(404);
    const next = ed25519();
    const res = await call('PUT', `/api/v1/merchant/${demoId}/public-key`, 'owner', {
      clientPublicKey: next.publicKey,
    });
    expect(res.statusCode).toBe(200);
    expect((await signedGet(next.privateKey)).statusCode).toBe(404);
    const old = await signedGet(first.privateKey);
    expect(old.statusCode).toBe(401);
    expect(old.json().error.code).toBe('INVALID_SIGNATURE');
  });
});

describe('POST /api/v1/merchant', () => {
  it('creates a real merchant with a fresh webhook secret (merchant.rw.all only)', async () => {
    const res = await call('POST', '/api/v1/merchant', 'admin', { name: 'Third Store' });
    expect(res.statusCode).toBe(201);
    const created = res.json().data;
    expect(created).toEqual({
      id: expect.any(String),
      name: 'Third Store',
      clientPublicKey: null,
      previousWebhookSecretUntil: null,
      requireTwoFactor: false,
    });
    const [row] = await t.ctx.db.select().from(merchants).where(eq(merchants.id, created.id));
    expect(row!.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    const [demo] = await t.ctx.db.select().from(merchants).where(eq(merchants.id, demoId));
    expect(row!.webhookSecret).not.toBe(demo!.webhookSecret);
    const list = (await call('GET', '/api/v1/merchant?page=0&size=50', 'admin')).json();
    expect(list.data.map((m: { id: string }) => m.id)).toContain(created.id);
    // the list's pages are bounded: a page past them is a 400, not an OFFSET the database refuses
    for (const page of ['10001', '100000000000000000']) {
      const far = await call('GET', `/api/v1/merchant?page=${page}&size=200`, 'admin');
      expect(far.statusCode, page).toBe(400);
      expect(far.json().error.fields.page).toBeTruthy();
    }
    // it can be worked on at once
    expect((await call('GET', `/api/v1/merchant/me?merchantId=${created.id}`, 'admin')).json().data.name).toBe(
      'Third Store',
    );
  });

  it('403 without merchant.rw.all (a platform permission: merchant owners too); 400 with the name messages', async () => {
    const count = async () => (await t.ctx.db.select({ id: merchants.id }).from(merchants)).length;
    const before = await count();
    for (const u of ['owner', 'shop2', 'finance', 'viewer', 'support']) {
      const res = await call('POST', '/api/v1/merchant', u, { name: 'Mine now' });
      expect(res.statusCode, u).toBe(403);
      expect(res.json().error.message).toBe('Only platform staff may do this.');
    }
    expect(await count()).toBe(before);
    const ops = await call('POST', '/api/v1/merchant', 'ops', { name: 'Fourth Store' });
    expect(ops.statusCode).toBe(201);
    expect((await call('POST', '/api/v1/merchant', 'admin', {})).json().error.fields.name).toBe('Name is required');
    expect((await call('POST', '/api/v1/merchant', 'admin', { name: 'x' })).json().error.fields.name).toBe(
      'Name must be at least 3 characters long',
    );
  });
});

describe('GET /api/v1/merchant/me keeps its behaviour', () => {
  it('gives the own merchant; 403 without merchant.read', async () => {
    expect((await call('GET', '/api/v1/merchant/me', 'shop2')).json().data.id).toBe(secondId);
    // a merchant user's ?merchantId= is ignored: it stays on its own merchant
    expect((await call('GET', `/api/v1/merchant/me?merchantId=${demoId}`, 'shop2')).json().data.id).toBe(secondId);
    expect((await call('GET', '/api/v1/merchant/me', 'viewer')).statusCode).toBe(403);
  });
});
