import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { paymentFormRouteSpecs } from '@paydesk/contracts/routes/payment-form';
import { createTestApp, type TestApp } from '../../../test/harness';
import { injectSigned, invoiceBody, merchantSigner } from '../../../test/merchant-client';

/**
 * The payment form's per-IP limit: once an address has used it up, every route of the form answers 429 with the
 * documented error body (code and message) and a Retry-After header, as the served document says.
 */
let t: TestApp;
let formId: string;

beforeAll(async () => {
  t = await createTestApp();
  const sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
  const terminal = t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && x.currency === 'UZS' && !x.isTest)!;
  const created = await injectSigned(t.app, sign, 'POST', '/api/merchant/v1/invoices', invoiceBody(terminal));
  expect(created.statusCode, created.body).toBe(201);
  formId = created.json().data.formId;
});
afterAll(async () => t?.close());

/** The limit of the form's routes together (routes.ts); every request counts, whatever it is answered. */
const LIMIT = 1200;

type Json = Record<string, unknown>;
const rebase = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (schema && typeof schema === 'object') {
    return Object.fromEntries(
      Object.entries(schema).map(([k, v]) => [
        k,
        k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `served${v}` : rebase(v),
      ]),
    );
  }
  return schema;
};

describe('payment form rate limit', () => {
  it('answers 429 on every route with the documented error body and a Retry-After header', async () => {
    const served = await t.app.inject({ method: 'GET', url: '/api/docs/payment-form.json' });
    expect(served.statusCode).toBe(200);
    const doc = served.json() as { paths: Record<string, Record<string, { responses: Record<string, Json> }>> };
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ $id: 'served', components: (doc as unknown as Json).components } as Json);

    const ip = '203.0.113.77';
    // the limit used up cheaply: a malformed form id is refused before any database work, yet counted
    for (let i = 0; i < LIMIT; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/payments/form/!/status',
        headers: { 'x-forwarded-for': ip },
      });
      expect(res.statusCode).toBe(400);
    }

    const routes = Object.values(paymentFormRouteSpecs);
    expect(routes.length).toBeGreaterThanOrEqual(6);
    for (const spec of routes) {
      const url = spec.path.replace(':formId', formId);
      const res = await t.app.inject({
        method: spec.method,
        url,
        headers: { 'x-forwarded-for': ip },
        ...(spec.method === 'POST' ? { payload: {} } : {}),
      });
      const what = `${spec.method} ${spec.path}`;
      expect(res.statusCode, what).toBe(429);
      const body = res.json();
      expect(body.error.code, what).toBe('TOO_MANY_REQUESTS');
      expect(body.error.message, what).toMatch(/^Too many requests; retry in \d+ s$/);
      expect(Number(res.headers['retry-after']), what).toBeGreaterThan(0);
      expect(String(res.headers['retry-after']), what).toMatch(/^\d+$/);

      const op = doc.paths[spec.path.replace(/:(\w+)/g, '{$1}')]![spec.method.toLowerCase()]!;
      const documented = op.responses['429'] as
        { content: { 'application/json': { schema: Json } }; headers?: Record<string, unknown> } | undefined;
      expect(documented, `${what}: 429 documented`).toBeDefined();
      expect(documented!.headers?.['Retry-After'], `${what}: Retry-After documented`).toBeDefined();
      const validate = ajv.compile(rebase(documented!.content['application/json'].schema) as Json);
      expect(validate(body), `${what}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    }

    // another address is not limited
    const other = await t.app.inject({
      method: 'POST',
      url: `/api/payments/form/${formId}/status`,
      headers: { 'x-forwarded-for': '203.0.113.78' },
    });
    expect(other.statusCode).toBe(200);
  });
});
