import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE_HEADER_IDS } from '@paydesk/contracts';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';

let t: TestApp;
let owner = '';
let secondOwner = '';
let admin = '';
let viewer = '';
let demoMerchantId = '';
let demoTerminalIds = new Set<string>();
beforeAll(async () => {
  t = await createTestApp();
  [owner, secondOwner, admin, viewer] = (await Promise.all(
    ['owner', 'shop2', 'admin', 'viewer'].map((u) => loginAs(t.app, u)),
  )) as [string, string, string, string];
  demoMerchantId = (await get('/api/v1/people/me', owner)).json().data.merchantId;
  demoTerminalIds = new Set((await get('/api/v1/terminal', owner)).json().data.map((x: { id: string }) => x.id));
});
afterAll(async () => {
  await t.close();
});

const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

describe('GET /api/v1/reference', () => {
  it('answers every reference header with {id, code, value}', async () => {
    for (const h of REFERENCE_HEADER_IDS) {
      const res = await get(`/api/v1/reference?refHeaderId=${h}`, viewer);
      expect(res.statusCode, `header ${h}`).toBe(200);
      const data = res.json().data as { id: number; code: string; value: string }[];
      expect(data.length, `header ${h}`).toBeGreaterThan(0);
      for (const r of data)
        expect(r).toMatchObject({ id: expect.any(Number), code: expect.any(String), value: expect.any(String) });
    }
  });

  it('gives terminal attribute types (105) their paramType I, S, C, B or N; the fee is no longer one of them', async () => {
    const data = (await get('/api/v1/reference?refHeaderId=105', owner)).json().data as {
      code: string;
      paramType?: string;
    }[];
    expect(new Set(data.map((r) => r.paramType))).toEqual(new Set(['I', 'S', 'C', 'B']));
    expect(data.map((r) => r.code)).not.toContain('FEE_PERCENT');
    expect(data.map((r) => r.code)).not.toContain('CALLBACK_URL');
    const flow = (await get('/api/v1/reference?refHeaderId=200', owner)).json().data;
    expect(flow.map((r: { code: string }) => r.code)).toEqual(['DEPOSIT', 'WITHDRAWAL']);
    expect(flow[0]).not.toHaveProperty('paramType');
  });

  it('refuses an unknown or missing header with 400 listing the valid ones', async () => {
    for (const q of ['refHeaderId=109', 'refHeaderId=abc', '']) {
      const res = await get(`/api/v1/reference?${q}`, owner);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect(res.json().error.message).toContain('99, 100, 101');
      expect(res.json().error.message).toContain('205');
    }
  });

  it('needs a session (401) and accepts the merchant scope parameter', async () => {
    expect((await get('/api/v1/reference?refHeaderId=105')).statusCode).toBe(401);
    expect((await get(`/api/v1/reference?refHeaderId=105&merchantId=${demoMerchantId}`, admin)).statusCode).toBe(200);
    expect((await get('/api/v1/reference?refHeaderId=105&other=1', owner)).statusCode).toBe(400);
  });
});

describe('GET /api/v1/reference/currency and /api/v1/provider', () => {
  it('lists currencies with dimension and providers', async () => {
    const cur = await get('/api/v1/reference/currency', viewer);
    expect(cur.statusCode).toBe(200);
    expect(cur.json().data).toContainEqual({
      id: expect.any(Number),
      code: 'UZS',
      name: 'Uzbekistani sum',
      dimension: 2,
    });
    const prov = await get('/api/v1/provider', viewer);
    expect(prov.statusCode).toBe(200);
    expect(prov.json().data).toContainEqual({ id: expect.any(Number), code: 'SANDBOX', name: expect.any(String) });
    expect((await get('/api/v1/reference/currency')).statusCode).toBe(401);
    expect((await get('/api/v1/provider')).statusCode).toBe(401);
  });
});

describe('GET /api/v1/payment-method', () => {
  it('lists payment methods with their currency', async () => {
    const res = await get('/api/v1/payment-method', viewer);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toContainEqual({
      id: expect.any(Number),
      code: 'HUMOUZS',
      name: 'Humo',
      currency: { code: 'UZS', dimension: 2 },
    });
    expect((await get('/api/v1/payment-method')).statusCode).toBe(401);
  });
});

describe('GET /api/v1/terminal/pool', () => {
  it("lists only the merchant's own pools with their terminals", async () => {
    const res = await get('/api/v1/terminal/pool', owner);
    expect(res.statusCode).toBe(200);
    const pools = res.json().data as {
      name: string;
      status: string;
      type: string;
      terminals: { id: string; name: string }[];
    }[];
    expect(pools.map((p) => p.name)).toEqual(['UZS Main Pool', 'RUB Failover Pool']);
    expect(pools[1]).toMatchObject({ status: 'ACTIVE', type: 'FAILOVER' });
    for (const p of pools) for (const term of p.terminals) expect(demoTerminalIds.has(term.id)).toBe(true);

    expect((await get('/api/v1/terminal/pool', secondOwner)).json().data).toEqual([]);
    // a merchant user naming another merchant still gets their own
    const list = (await get('/api/v1/merchant?page=0&size=50', admin)).json().data as { id: string }[];
    const second = list.find((m) => m.id !== demoMerchantId)!;
    expect((await get(`/api/v1/terminal/pool?merchantId=${demoMerchantId}`, secondOwner)).json().data).toEqual([]);
    expect((await get(`/api/v1/terminal/pool?merchantId=${second.id}`, admin)).json().data).toEqual([]);
    expect((await get(`/api/v1/terminal/pool?merchantId=${demoMerchantId}`, admin)).json().data).toHaveLength(2);
    expect((await get('/api/v1/terminal/pool')).statusCode).toBe(401);
  });
});
