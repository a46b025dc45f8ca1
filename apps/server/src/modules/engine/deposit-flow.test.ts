import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { sql } from 'drizzle-orm';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';
import { injectSigned, invoiceBody, merchantSigner, startReceiver, type Signer } from '../../../test/merchant-client';
import { tickCallbacks } from '../callbacks/service';
import { ledgerTotals } from '../ledger/service';

let t: TestApp;
let sign: Signer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let cookie: string;

beforeAll(async () => {
  t = await createTestApp({ sandboxDelayMs: 0 });
  sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
  receiver = await startReceiver(undefined, () => [t.demo.webhookSecret]);
  cookie = await loginAs(t.app, 'owner');
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

async function balance(terminalId: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/v1/merchant/balance?terminalId=${terminalId}`,
    headers: { cookie },
  });
  expect(res.statusCode).toBe(200);
  return res.json().data[0] as { sum: number; currency: string };
}

describe('deposit flow', () => {
  it('signed create → init → credential → complete → provider report → DONE → verified callbacks, balance moved by amount − fee', async () => {
    const terminal = t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && x.currency === 'UZS' && !x.isTest)!;
    const before = await balance(terminal.id);
    const amount = 123_457_00;
    const create = await injectSigned(
      t.app,
      sign,
      'POST',
      '/api/merchant/v1/invoices',
      invoiceBody(terminal, {
        amount,
        paymentMethod: 'HUMOUZS',
        callbackUrl: receiver.url,
      }),
    );
    expect(create.statusCode, create.body).toBe(201);
    const created = create.json().data;
    expect(created.status).toBe('NEW');
    expect(created.formUrl).toBe(`http://localhost:3000/payment/${created.formId}`);
    expect(Buffer.from(created.formId, 'base64url').length).toBe(24);

    const form = `/api/payments/form/${created.formId}`;
    const init = await t.app.inject({ method: 'POST', url: `${form}/init` });
    expect(init.statusCode, init.body).toBe(200);
    const data = init.json().data;
    expect(data).toMatchObject({
      invoiceId: created.invoiceId,
      type: 'Deposit',
      amount,
      status: 'NEW',
      paymentMethodName: 'Humo',
    });
    expect(data.expiredIn).toBeGreaterThan(1700);
    expect(data.currencyInfo).toMatchObject({ code: 'UZS', dimension: 2 });
    expect(JSON.stringify(data)).not.toContain(t.demo.merchantId);

    const cred = await t.app.inject({
      method: 'POST',
      url: `${form}/credential`,
      payload: { amount, paymentMethodId: data.paymentMethodId, supportCode: data.verificationKey },
    });
    expect(cred.statusCode, cred.body).toBe(200);
    const credentials = cred.json().data.credentials;
    expect(credentials.value).toBeTruthy();
    expect(credentials.country_code).toBe('UZ');
    // repeating returns the same requisites
    const again = await t.app.inject({
      method: 'POST',
      url: `${form}/credential`,
      payload: { amount, paymentMethodId: data.paymentMethodId },
    });
    expect(again.json().data.credentials).toEqual(credentials);

    const complete = await t.app.inject({ method: 'POST', url: `${form}/complete`, payload: {} });
    expect(complete.statusCode, complete.body).toBe(200);
    expect(complete.json().data.successUrl).toBe('https://shop.example.com/ok');
    const twice = await t.app.inject({ method: 'POST', url: `${form}/complete`, payload: {} });
    expect(twice.statusCode).toBe(409);

    const acc = await t.ctx.db.execute<{ account_id: number; code: string }>(sql`
      SELECT i.account_id, p.code FROM invoices i JOIN provider_accounts a ON a.id = i.account_id JOIN providers p ON p.id = a.provider_id
      WHERE i.id = ${created.invoiceId}`);
    const { account_id, code } = acc.rows[0]!;
    const report = {
      accountId: Number(account_id),
      amount,
      occurredAt: new Date().toISOString(),
      reference: `ref-${created.invoiceId}`,
    };
    const inc = await t.app.inject({
      method: 'POST',
      url: '/api/provider/v1/incoming',
      headers: { authorization: `Bearer dev:${code}` },
      payload: report,
    });
    expect(inc.statusCode, inc.body).toBe(200);
    expect(inc.json().data).toMatchObject({ status: 'MATCHED', matchedInvoiceId: created.invoiceId });
    // the same reference again: no double credit
    const inc2 = await t.app.inject({
      method: 'POST',
      url: '/api/provider/v1/incoming',
      headers: { authorization: `Bearer dev:${code}` },
      payload: report,
    });
    expect(inc2.json().data.id).toBe(inc.json().data.id);
    const noAuth = await t.app.inject({ method: 'POST', url: '/api/provider/v1/incoming', payload: report });
    expect(noAuth.statusCode).toBe(401);

    const status = await t.app.inject({ method: 'POST', url: `${form}/status` });
    expect(status.json().data.status).toBe('DONE');
    const read = await injectSigned(t.app, sign, 'GET', `/api/merchant/v1/invoices/${created.invoiceId}`);
    expect(read.json().data).toMatchObject({ status: 'DONE', providerInvoiceId: report.reference, amount });
    const fee = read.json().data.fee;
    expect(fee).toBe(Math.floor((amount * 250 + 5000) / 10000));

    // callbacks: IN_PROGRESS, PAYED, DONE
    while ((await tickCallbacks(t.ctx)) > 0);
    const mine = receiver.received.filter((h) => JSON.parse(h.body).invoiceId === created.invoiceId);
    expect(mine.map((h) => JSON.parse(h.body).status)).toEqual(['IN_PROGRESS', 'PAYED', 'DONE']);
    const wh = new Webhook(t.demo.webhookSecret);
    for (const h of mine) {
      const payload = wh.verify(h.body, h.headers) as Record<string, unknown>;
      expect(payload).toMatchObject({ type: 'invoice.status', invoiceId: created.invoiceId, amount, currency: 'UZS' });
    }
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/v1/merchant/callback?invoiceId=${created.invoiceId}`,
      headers: { cookie },
    });
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.map((c: { status: string }) => c.status)).toEqual(['DELIVERED', 'DELIVERED', 'DELIVERED']);
    expect(list.json().data[0].attempts[0].responseCode).toBe(200);

    const after = await balance(terminal.id);
    expect(after.currency).toBe('UZS');
    expect(after.sum - before.sum).toBe(amount - fee);
    for (const row of await ledgerTotals(t.ctx.db)) expect(row.total).toBe(0);

    const events = await t.ctx.db.execute<{ code: string }>(
      sql`SELECT code FROM event_log WHERE invoice_id = ${created.invoiceId} ORDER BY id`,
    );
    expect(events.rows.map((r) => r.code)).toContain('INVOICE_CREATED');
    expect(events.rows.filter((r) => r.code === 'STATUS_CHANGED')).toHaveLength(3);

    // manual callback goes out at once
    const manual = await t.app.inject({
      method: 'POST',
      url: '/api/v1/merchant/callback',
      headers: { cookie },
      payload: { invoiceId: created.invoiceId },
    });
    expect(manual.statusCode, manual.body).toBe(200);
    await tickCallbacks(t.ctx);
    expect(receiver.received.filter((h) => JSON.parse(h.body).type === 'invoice.manual')).toHaveLength(1);
  });

  it('test terminal: the sandbox confirms after "Have paid"; amounts ending in 13 are declined', async () => {
    const { tickSandbox } = await import('../sandbox/service');
    const terminal = t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && x.isTest)!;
    for (const [amount, expected] of [
      [50_000_00, 'DONE'],
      [50_000_13, 'DECLINED'],
    ] as const) {
      const create = await injectSigned(
        t.app,
        sign,
        'POST',
        '/api/merchant/v1/invoices',
        invoiceBody(terminal, { amount }),
      );
      expect(create.statusCode, create.body).toBe(201);
      const form = `/api/payments/form/${create.json().data.formId}`;
      const init = (await t.app.inject({ method: 'POST', url: `${form}/init` })).json().data;
      const cred = await t.app.inject({
        method: 'POST',
        url: `${form}/credential`,
        payload: { amount, paymentMethodId: init.methods[0].id },
      });
      expect(cred.statusCode, cred.body).toBe(200);
      await t.app.inject({ method: 'POST', url: `${form}/complete`, payload: {} });
      await tickSandbox(t.ctx);
      const st = await t.app.inject({ method: 'POST', url: `${form}/status` });
      expect(st.json().data.status).toBe(expected);
    }
  });
});
