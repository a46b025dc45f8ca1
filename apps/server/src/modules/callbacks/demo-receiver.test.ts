import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { callbackListResponse } from '@paydesk/contracts';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';
import { injectSigned, invoiceBody, listen, merchantSigner } from '../../../test/merchant-client';
import { DEMO_RECEIVER_PATH } from './demo-receiver';
import { tickCallbacks } from './service';

let t: TestApp;
let base = '';
beforeAll(async () => {
  t = await createTestApp();
  base = await listen(t.app);
});
afterAll(async () => t?.close());

describe('demo receiver (the demo seed sends its callbacks here)', () => {
  it('accepts a correctly signed callback (DELIVERED) and refuses a forged one (401)', async () => {
    const sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
    const terminal = t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && !x.isTest)!;
    const created = await injectSigned(
      t.app,
      sign,
      'POST',
      '/api/merchant/v1/invoices',
      invoiceBody(terminal, { callbackUrl: `${base}${DEMO_RECEIVER_PATH}` }),
    );
    const id = created.json().data.invoiceId as string;
    await injectSigned(t.app, sign, 'POST', `/api/merchant/v1/invoices/${id}/cancel`);
    for (let i = 0; i < 20 && (await tickCallbacks(t.ctx)) > 0; i++);
    const rows = await t.ctx.db.execute<{ status: string }>(sql`SELECT status FROM callbacks WHERE invoice_id = ${id}`);
    expect(rows.rows.map((r) => r.status)).toEqual(['DELIVERED']);

    const forged = await fetch(`${base}${DEMO_RECEIVER_PATH}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': 'x',
        'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
        'webhook-signature': 'v1,AAAA',
      },
      body: JSON.stringify({ invoiceId: id, status: 'DONE' }),
    });
    expect(forged.status).toBe(401);

    // the invoice's Callbacks section shows what the receiver got: headers, body, verdict
    const owner = await loginAs(t.app, 'owner');
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/v1/merchant/callback?invoiceId=${id}`,
      headers: { cookie: owner },
    });
    expect(list.statusCode).toBe(200);
    const [cb] = callbackListResponse.parse(list.json()).data;
    expect(cb!.received).toHaveLength(1);
    const got = cb!.received[0]!;
    expect(got.verified).toBe(true);
    expect(got.result).toMatch(/verified with standardwebhooks \(current secret\); body matches the schema/);
    expect(got.headers['webhook-id']).toBe(cb!.id);
    expect(got.headers['webhook-signature']).toMatch(/^v1,/);
    expect(JSON.parse(got.body)).toMatchObject({ type: 'invoice.status', invoiceId: id, status: 'CANCELED' });
    // the forged one is kept too (a receiver logs what it refuses), but it belongs to no callback of ours
    const kept = await t.ctx.db.execute<{ webhook_id: string; verified: boolean; result: string }>(
      sql`SELECT webhook_id, verified, result FROM demo_callback_inbox WHERE invoice_id = ${id} ORDER BY received_at`,
    );
    expect(kept.rows.map((r) => [r.webhook_id, r.verified])).toEqual([
      [cb!.id, true],
      ['x', false],
    ]);
    expect(kept.rows[1]!.result).toMatch(/^Signature does not verify/);
  });

  it('keeps nothing for what is not a callback about an existing invoice', async () => {
    const before = await t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM demo_callback_inbox`);
    const post = (body: string, headers: Record<string, string> = { 'webhook-id': 'y' }) =>
      fetch(`${base}${DEMO_RECEIVER_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
    expect((await post('{not json')).status).toBe(400);
    expect((await post(JSON.stringify({ invoiceId: 'nope' }))).status).toBe(400);
    expect((await post(JSON.stringify({ invoiceId: '00000000-0000-4000-8000-000000000000' }))).status).toBe(400);
    expect((await post(JSON.stringify({ invoiceId: '00000000-0000-4000-8000-000000000000' }), {})).status).toBe(400);
    const after = await t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM demo_callback_inbox`);
    expect(Number(after.rows[0]!.n)).toBe(Number(before.rows[0]!.n));
  });
});
