import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/harness';
import { injectSigned, invoiceBody, merchantSigner, type Signer } from '../../../test/merchant-client';

let t: TestApp;
let sign: Signer;
const PATH = '/api/merchant/v1/invoices';
const TABLES = [
  'invoices',
  'customers',
  'invoice_status_events',
  'event_log',
  'ledger_entries',
  'callbacks',
  'provider_transactions',
  'idempotency_keys',
  'support_tickets',
];

beforeAll(async () => {
  t = await createTestApp();
  sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
});
afterAll(async () => t?.close());

async function counts() {
  const out: Record<string, number> = {};
  for (const tb of TABLES) {
    const r = await t.ctx.db.execute<{ n: number }>(sql.raw(`SELECT count(*)::int AS n FROM ${tb}`));
    out[tb] = Number(r.rows[0]!.n);
  }
  return out;
}
const depositTerminal = () =>
  t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && x.currency === 'UZS' && !x.isTest)!;

describe('merchant API refuses bad input and writes nothing', () => {
  it('authentication: unsigned, wrongly signed, stale timestamp, other key → 401', async () => {
    const before = await counts();
    const body = invoiceBody(depositTerminal());
    const unsigned = await t.app.inject({ method: 'POST', url: PATH, payload: body });
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json().error.code).toBe('INVALID_SIGNATURE');

    const r = sign('POST', PATH, body);
    const tampered = await t.app.inject({
      method: 'POST',
      url: PATH,
      headers: r.headers,
      payload: r.raw.replace('15000000', '15000001'),
    });
    expect(tampered.statusCode).toBe(401);

    const stale = merchantSigner(
      t.demo.merchantId,
      t.demo.privateKeyPem,
      () => new Date(t.clock.now().getTime() - 301_000),
    );
    expect((await injectSigned(t.app, stale, 'POST', PATH, body)).statusCode).toBe(401);
    const future = merchantSigner(
      t.demo.merchantId,
      t.demo.privateKeyPem,
      () => new Date(t.clock.now().getTime() + 400_000),
    );
    expect((await injectSigned(t.app, future, 'POST', PATH, body)).statusCode).toBe(401);

    const other = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const wrongKey = merchantSigner(t.demo.merchantId, other, t.clock.now);
    expect((await injectSigned(t.app, wrongKey, 'POST', PATH, body)).statusCode).toBe(401);
    const garbage = await t.app.inject({
      method: 'POST',
      url: PATH,
      headers: { ...r.headers, 'x-signature': 'not-base64!!' },
      payload: r.raw,
    });
    expect(garbage.statusCode).toBe(401);
    expect(await counts()).toEqual(before);
  });

  it('a changed public key takes effect at once', async () => {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const [m] = (
      await t.ctx.db.execute<{ client_public_key: string }>(
        sql`SELECT client_public_key FROM merchants WHERE id = ${t.demo.merchantId}`,
      )
    ).rows;
    const path = `${PATH}/00000000-0000-4000-8000-000000000000`;
    expect((await injectSigned(t.app, sign, 'GET', path)).statusCode).toBe(404);
    await t.ctx.db.execute(
      sql`UPDATE merchants SET client_public_key = ${publicKey.export({ type: 'spki', format: 'pem' }).toString()} WHERE id = ${t.demo.merchantId}`,
    );
    expect((await injectSigned(t.app, sign, 'GET', path)).statusCode).toBe(401);
    const fresh = merchantSigner(
      t.demo.merchantId,
      privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      t.clock.now,
    );
    expect((await injectSigned(t.app, fresh, 'GET', path)).statusCode).toBe(404);
    await t.ctx.db.execute(
      sql`UPDATE merchants SET client_public_key = ${m!.client_public_key} WHERE id = ${t.demo.merchantId}`,
    );
  });

  it('ids in capitals (a UUID is case-blind): the create is accepted, checked against the database and remembered', async () => {
    const terminal = depositTerminal();
    const upper = merchantSigner(t.demo.merchantId.toUpperCase(), t.demo.privateKeyPem, t.clock.now);
    for (let i = 0; i < 2; i++) {
      const body = invoiceBody({ ...terminal, id: terminal.id.toUpperCase() });
      const res = await injectSigned(t.app, upper, 'POST', PATH, body);
      expect(res.statusCode, res.body).toBe(201);
      const row = await t.ctx.db.execute<{ terminal_id: string; merchant_id: string }>(
        sql`SELECT terminal_id::text, merchant_id::text FROM invoices WHERE id = ${res.json().data.invoiceId}`,
      );
      expect(row.rows[0]).toEqual({ terminal_id: terminal.id, merchant_id: t.demo.merchantId });
    }
  });

  it("another merchant's terminal or invoice → 404", async () => {
    const before = await counts();
    const [foreign] = (
      await t.ctx.db.execute<{ id: string; flow_type: string; code: string }>(sql`
      SELECT t.id, t.flow_type, c.code FROM terminals t JOIN currencies c ON c.id = t.currency_id WHERE t.merchant_id <> ${t.demo.merchantId} LIMIT 1`)
    ).rows;
    expect(foreign).toBeTruthy();
    const res = await injectSigned(
      t.app,
      sign,
      'POST',
      PATH,
      invoiceBody({ id: foreign!.id, flowType: foreign!.flow_type as 'DEPOSIT', currency: foreign!.code }),
    );
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('Terminal not found');
    const [inv] = (
      await t.ctx.db.execute<{ id: string }>(
        sql`SELECT id FROM invoices WHERE merchant_id <> ${t.demo.merchantId} LIMIT 1`,
      )
    ).rows;
    if (inv) {
      expect((await injectSigned(t.app, sign, 'GET', `${PATH}/${inv.id}`)).statusCode).toBe(404);
      expect((await injectSigned(t.app, sign, 'POST', `${PATH}/${inv.id}/cancel`)).statusCode).toBe(404);
    }
    expect(await counts()).toEqual(before);
  });

  it('validation: unknown currency, wrong flow, amount outside limits, unknown fields, bad JSON, huge numbers → 400 with a clear error', async () => {
    const before = await counts();
    const term = depositTerminal();
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [invoiceBody(term, { currency: 'XYZ' }), 400, /Unknown currency 'XYZ'/],
      [invoiceBody(term, { currency: 'RUB' }), 400, /works in UZS, not RUB/],
      [invoiceBody(term, { flowType: 'WITHDRAWAL' }), 400, /accepts DEPOSIT invoices/],
      [invoiceBody(term, { amount: 1 }), 400, /outside the limits 100000–2000000000/],
      // the terminal's MAX_INVOICE_AMOUNT (20,000,000.00) lowers the methods' maximum (50,000,000.00)
      [invoiceBody(term, { amount: 2_000_000_001 }), 400, /outside the limits 100000–2000000000/],
      [invoiceBody(term, { amount: 99_000_000_000_00, paymentMethod: 'HUMOUZS' }), 400, /of method HUMOUZS/],
      [invoiceBody(term, { paymentMethod: 'NOPE' }), 400, /not available on this terminal/],
      [invoiceBody(term, { amount: 1.5 }), 400, /amount/],
      [invoiceBody(term, { amount: 1e30 }), 400, /amount/],
      [invoiceBody(term, { amount: '100' }), 400, /amount/],
      [invoiceBody(term, { hacker: true }), 400, /Unknown field 'hacker'/],
      [invoiceBody(term, { successUrl: 'javascript:alert(1)' }), 400, /successUrl/],
    ];
    for (const [body, code, msg] of cases) {
      const res = await injectSigned(t.app, sign, 'POST', PATH, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(code);
      expect(res.json().error.message, res.body).toMatch(msg);
    }
    const amountErr = await injectSigned(t.app, sign, 'POST', PATH, invoiceBody(term, { amount: 1 }));
    expect(amountErr.json().error.code).toBe('AMOUNT_OUT_OF_RANGE');
    const r = sign('POST', PATH, '{"terminalId": ');
    const badJson = await t.app.inject({ method: 'POST', url: PATH, headers: r.headers, payload: r.raw });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json().error.code).toBe('VALIDATION_ERROR');
    expect(await counts()).toEqual(before);
  });

  it('duplicate merchantInvoiceId → 409 DUPLICATE; Idempotency-Key replays, other body → 409', async () => {
    const body = invoiceBody(depositTerminal());
    const first = await injectSigned(t.app, sign, 'POST', PATH, body);
    expect(first.statusCode).toBe(201);
    const before = await counts();
    const dup = await injectSigned(t.app, sign, 'POST', PATH, body);
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toMatchObject({ code: 'DUPLICATE' });
    expect(await counts()).toEqual(before);

    const body2 = invoiceBody(depositTerminal());
    const key = { 'idempotency-key': 'key-1' };
    const a = await injectSigned(t.app, sign, 'POST', PATH, body2, key);
    const b = await injectSigned(t.app, sign, 'POST', PATH, body2, key);
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(b.json()).toEqual(a.json());
    expect(b.headers['idempotent-replayed']).toBe('true');
    const c = await injectSigned(t.app, sign, 'POST', PATH, { ...body2, amount: 200_000_00 }, key);
    expect(c.statusCode).toBe(409);
    expect(c.json().error.code).toBe('IDEMPOTENCY_CONFLICT');
    // after 24 h the key may be used again
    t.clock.advance(24 * 3600_000 + 1000);
    const later = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
    const d = await injectSigned(
      t.app,
      later,
      'POST',
      PATH,
      { ...body2, merchantInvoiceId: `${body2.merchantInvoiceId}-2` },
      key,
    );
    expect(d.statusCode).toBe(201);
    expect(d.json().data.invoiceId).not.toBe(a.json().data.invoiceId);
    t.clock.reset();
  });

  it('read and cancel', async () => {
    const body = invoiceBody(depositTerminal());
    const created = (await injectSigned(t.app, sign, 'POST', PATH, body)).json().data;
    const read = await injectSigned(t.app, sign, 'GET', `${PATH}/${created.invoiceId}`);
    expect(read.json().data).toMatchObject({
      merchantInvoiceId: body.merchantInvoiceId,
      status: 'NEW',
      currency: 'UZS',
    });
    const cancel = await injectSigned(t.app, sign, 'POST', `${PATH}/${created.invoiceId}/cancel`);
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().data.status).toBe('CANCELED');
    const again = await injectSigned(t.app, sign, 'POST', `${PATH}/${created.invoiceId}/cancel`);
    expect(again.statusCode).toBe(409);
    const init = await t.app.inject({ method: 'POST', url: `/api/payments/form/${created.formId}/init` });
    expect(init.json().data.status).toBe('CANCELED');
  });

  it('OpenAPI documents the merchant API', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const doc = res.json();
    expect(doc.paths['/api/merchant/v1/invoices'].post.security).toEqual([
      { merchantId: [], merchantTimestamp: [], merchantSignature: [] },
    ]);
    expect(doc.paths['/api/payments/form/{formId}/credential'].post.security).toEqual([]);
    expect(doc.paths['/api/payments/form/{formId}/credential']).toBeTruthy();
  });
});

describe('payment form refuses bad input', () => {
  it('unknown form 404, expired 410, malformed card/phone 400, no writes', async () => {
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/payments/form/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/init' })).json(),
    ).toEqual({
      error: { code: 'NOT_FOUND', message: 'Payment form not found' },
    });
    const wd = t.demo.terminals.find((x) => x.flowType === 'WITHDRAWAL' && x.currency === 'RUB' && !x.isTest)!;
    const created = (
      await injectSigned(t.app, sign, 'POST', PATH, invoiceBody(wd, { amount: 5_000_00, expiresInSeconds: 600 }))
    ).json().data;
    const form = `/api/payments/form/${created.formId}`;
    const init = (await t.app.inject({ method: 'POST', url: `${form}/init` })).json().data;
    const sbp = init.methods.find((m: { code: string }) => m.code === 'SBPRUB');
    const card = init.methods.find((m: { type: string }) => m.type === 'card');
    expect(sbp).toBeTruthy();
    const outOfRange = await t.app.inject({
      method: 'POST',
      url: `${form}/credential`,
      payload: { amount: 1, paymentMethodId: sbp.id },
    });
    expect(outOfRange.statusCode).toBe(400);
    await t.app.inject({
      method: 'POST',
      url: `${form}/credential`,
      payload: { amount: 5_000_00, paymentMethodId: sbp.id },
    });
    const before = await counts();
    for (const payload of [
      { credential: '12345' },
      { credential: '+7 999 123 45 67' },
      { credential: '79991234567', bankCodeInteger: 999999 },
      { credential: 'abc', bankCodeInteger: 1 },
    ]) {
      const res = await t.app.inject({ method: 'POST', url: `${form}/complete`, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.message).toBeTruthy();
    }
    await t.app.inject({
      method: 'POST',
      url: `${form}/credential`,
      payload: { amount: 5_000_00, paymentMethodId: card.id },
    });
    const badCard = await t.app.inject({
      method: 'POST',
      url: `${form}/complete`,
      payload: { credential: '1234 5678 9012 3456' },
    });
    expect(badCard.json().error.message).toBe('Card number is not valid');
    const after = await counts();
    expect(after.invoices).toBe(before.invoices);
    expect(after.provider_transactions).toBe(before.provider_transactions);
    expect(after.ledger_entries).toBe(before.ledger_entries);

    const banks = (await t.app.inject({ method: 'GET', url: `${form}/banks/sbp` })).json().data;
    expect(banks.length).toBeGreaterThan(3);
    t.clock.advance(601_000);
    const gone = await t.app.inject({ method: 'POST', url: `${form}/init` });
    expect(gone.statusCode).toBe(410);
    expect(gone.json().error.message).toBe('This payment form has expired');
    const { tickExpiry } = await import('../engine/expiry');
    expect(await tickExpiry(t.ctx)).toBeGreaterThanOrEqual(1);
    expect((await t.app.inject({ method: 'POST', url: `${form}/status` })).json().data.status).toBe('CANCELED');
    t.clock.reset();
  });
});
