import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, loginAs, type TestApp } from '../../test/harness';
import { injectSigned, invoiceBody, merchantSigner, type Signer } from '../../test/merchant-client';

/**
 * Amounts are JSON numbers wherever the API takes one (an integer past 2^53 travels as a plain JSON integer and is
 * read exactly, exact-json.ts): a number in quotes is refused with 400 naming the field, on every money input.
 */
let t: TestApp;
let sign: Signer;
let ops: string;

beforeAll(async () => {
  t = await createTestApp();
  sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
  ops = await loginAs(t.app, 'ops');
});
afterAll(async () => t?.close());

const refusedNaming = (res: { statusCode: number; json(): any }, field: string) => {
  expect(res.statusCode).toBe(400);
  expect(res.json().error.code).toBe('VALIDATION_ERROR');
  expect(Object.keys(res.json().error.fields ?? {})).toContain(field);
};

describe('an amount sent as a string', () => {
  it('is refused by the merchant API, the payment form, the provider API and the amount change', async () => {
    const terminal = t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && x.currency === 'UZS' && !x.isTest)!;
    const path = '/api/merchant/v1/invoices';
    refusedNaming(
      await injectSigned(t.app, sign, 'POST', path, invoiceBody(terminal, { amount: '15000000' })),
      'amount',
    );

    const created = await injectSigned(t.app, sign, 'POST', path, invoiceBody(terminal));
    expect(created.statusCode).toBe(201);
    const { formId, invoiceId } = created.json().data as { formId: string; invoiceId: string };
    const init = (await t.app.inject({ method: 'POST', url: `/api/payments/form/${formId}/init` })).json().data;
    refusedNaming(
      await t.app.inject({
        method: 'POST',
        url: `/api/payments/form/${formId}/credential`,
        payload: { amount: String(init.amount), paymentMethodId: init.methods[0].id },
      }),
      'amount',
    );

    refusedNaming(
      await t.app.inject({
        method: 'POST',
        url: '/api/provider/v1/incoming',
        headers: { authorization: 'Bearer dev:SILKPAY' },
        payload: { accountId: 1, amount: '100', occurredAt: new Date().toISOString(), reference: 'string-amount' },
      }),
      'amount',
    );

    refusedNaming(
      await t.app.inject({
        method: 'PATCH',
        url: `/api/v1/invoice/amount?merchantId=${t.demo.merchantId}`,
        headers: { cookie: ops },
        payload: { invoiceId, amount: '100', reason: 'a string amount' },
      }),
      'amount',
    );
  });
});
