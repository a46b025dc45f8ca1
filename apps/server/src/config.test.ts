import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config';
import { createTestApp, type TestApp } from '../test/harness';
import { injectSigned, invoiceBody, merchantSigner } from '../test/merchant-client';

describe('PUBLIC_URL', () => {
  it('is required in production, with a message that says what to set', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/PUBLIC_URL is required in production/);
    expect(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://pay.example.com' }).publicUrl).toBe(
      'https://pay.example.com',
    );
    expect(() => loadConfig({ NODE_ENV: 'development' })).not.toThrow();
  });
});

describe('payment-form links never come from the Host header', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ publicUrl: 'https://pay.example.com' });
  });
  afterAll(async () => t?.close());

  it('a request with a forged Host and X-Forwarded-Host still gets PUBLIC_URL links', async () => {
    const sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
    const terminal = t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && !x.isTest)!;
    const res = await injectSigned(t.app, sign, 'POST', '/api/merchant/v1/invoices', invoiceBody(terminal), {
      host: 'evil.example',
      'x-forwarded-host': 'evil.example',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.formUrl).toMatch(/^https:\/\/pay\.example\.com\/payment\/[\w-]+$/);
  });
});

describe('DATABASE_REPLICA_URL', () => {
  it('takes one or more replicas of DATABASE_URL, with the lag a long read accepts', () => {
    const c = loadConfig({
      DATABASE_URL: 'postgres://db/paydesk',
      DATABASE_REPLICA_URL: 'postgres://r1/paydesk, postgres://r2/paydesk',
      REPLICA_MAX_LAG_MS: '2500',
    });
    expect(c.replicaUrls).toEqual(['postgres://r1/paydesk', 'postgres://r2/paydesk']);
    expect(c.replicaMaxLagMs).toBe(2500);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/paydesk' })).toMatchObject({
      replicaUrls: [],
      replicaMaxLagMs: 10_000,
    });
  });

  it('is refused without DATABASE_URL (a replica of the embedded database does not exist)', () => {
    expect(() => loadConfig({ DATABASE_REPLICA_URL: 'postgres://r1/paydesk' })).toThrow(/DATABASE_REPLICA_URL/);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://db/p', REPLICA_MAX_LAG_MS: '-1' })).toThrow(
      /REPLICA_MAX_LAG_MS/,
    );
  });
});
