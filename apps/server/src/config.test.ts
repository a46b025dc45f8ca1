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
