import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, loginAs, type TestApp } from '../../test/harness';
import { injectSigned, invoiceBody, merchantSigner } from '../../test/merchant-client';

/**
 * Edge input (hardening issue): NUL and invalid Unicode in any string are a 400 naming the field, never
 * a 500 and never written; the framework's own refusals (414, 431, bad URL) answer in the API's shape.
 */
let t: TestApp;
let admin = '';
let owner = '';

beforeAll(async () => {
  t = await createTestApp();
  admin = await loginAs(t.app, 'admin');
  owner = await loginAs(t.app, 'owner');
});
afterAll(async () => t?.close());

const NUL = '\u0000';
const expectRefused = (res: { statusCode: number; body: string }, field: string) => {
  expect(res.statusCode, res.body).toBe(400);
  const { error } = JSON.parse(res.body);
  expect(error.code).toBe('VALIDATION_ERROR');
  expect(Object.keys(error.fields ?? {})).toContain(field);
};

describe('NUL and invalid Unicode are refused where they arrive', () => {
  it('a username at sign-in', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { username: `ad${NUL}min`, password: 'demo-2026' },
    });
    expectRefused(res, 'username');
  });

  it('the invoice search (query string)', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/invoice?search=ORD${encodeURIComponent(NUL)}1`,
      headers: { cookie: owner },
    });
    expectRefused(res, 'search');
  });

  it("a merchant's name, and nothing is written", async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/merchant/${t.demo.merchantId}`,
      headers: { cookie: admin },
      payload: { name: `Demo${NUL}Merchant` },
    });
    expectRefused(res, 'name');
    const [m] = (
      await t.ctx.db.execute<{ name: string }>(sql`SELECT name FROM merchants WHERE id = ${t.demo.merchantId}`)
    ).rows;
    expect(m!.name).not.toContain(NUL);
  });

  it('bank and owner names of a new provider account', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/people/create',
      headers: { cookie: admin },
      payload: { paymentMethodId: 1, paymentProviderId: 1, bankName: `Bank${NUL}`, ownerName: 'Owner' },
    });
    expectRefused(res, 'bankName');
  });

  it("a customer's externalId through the signed merchant API", async () => {
    const sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
    const terminal = t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && !x.isTest)!;
    const body = invoiceBody(terminal, { customer: { externalId: `c${NUL}1`, firstName: 'A', lastName: 'B' } });
    const res = await injectSigned(t.app, sign, 'POST', '/api/merchant/v1/invoices', body);
    expectRefused(res, 'customer.externalId');
  });

  it('a lone surrogate in a JSON string, and a NUL in a path parameter', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/merchant/${t.demo.merchantId}`,
      headers: { cookie: admin, 'content-type': 'application/json' },
      payload: '{"name":"Demo \\ud800 Merchant"}',
    });
    expectRefused(res, 'name');
    const path = await t.app.inject({
      method: 'GET',
      url: `/api/v1/invoice/abc${encodeURIComponent(NUL)}`,
      headers: { cookie: owner },
    });
    expectRefused(path, 'id');
  });
});

describe("the framework's refusals in the API's error shape", () => {
  it('414 for a path parameter over the length limit', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/invoice/${'a'.repeat(200)}`,
      headers: { cookie: owner },
    });
    expect(res.statusCode).toBe(414);
    expect(res.json()).toEqual({ error: { code: 'URI_TOO_LONG', message: 'A path parameter is too long' } });
  });

  it('a body in a media type no route reads is a VALIDATION_ERROR with its one status, 400 (not 415)', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/merchant/${t.demo.merchantId}`,
      headers: { cookie: admin, 'content-type': 'application/xml' },
      payload: '<merchant name="Demo"/>',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { code: 'VALIDATION_ERROR', message: expect.any(String) } });
  });

  it('431 for headers (or a URL) past 16 KB, over a real socket', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port, path: `/api/v1/invoice?search=${'x'.repeat(20_000)}`, method: 'GET' },
        (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: 'HEADERS_TOO_LARGE', message: 'The request headers or URL are too large' },
    });
  });
});
