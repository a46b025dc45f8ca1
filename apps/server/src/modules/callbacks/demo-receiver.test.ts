import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/harness';
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
  });
});
