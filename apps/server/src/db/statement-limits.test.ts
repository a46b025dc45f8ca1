import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { statusByCode } from '@paydesk/contracts';
import { createTestApp, loginAs, type TestApp } from '../../test/harness';
import { injectSigned, invoiceBody, merchantSigner } from '../../test/merchant-client';
import { copyOut } from '../lib/copy-out';

/**
 * Bounded work per request: on PostgreSQL every statement the serving app runs is stopped after
 * statementTimeoutMs; an export has its own, longer limit. (PGlite cannot interrupt a statement: there the bounds
 * are in the queries, see the invoice list's page bound and cursor.)
 */
describe.skipIf(!process.env.DATABASE_URL)('statement limits (PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ statementTimeoutMs: 300, exportTimeoutMs: 5_000 });
  });
  afterAll(async () => t?.close());

  /** `act` while another transaction holds the rows `lock` selects FOR UPDATE (released afterwards). */
  async function whileHeld<R>(lock: string, params: unknown[], act: () => Promise<R>): Promise<R> {
    const holder = await t.ctx.dbh.pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SET LOCAL statement_timeout = 0'); // the connection goes back with the pool's limit
      await holder.query(lock, params);
      return await act();
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
  }

  it('stops a statement past the interactive limit', async () => {
    const err = await t.ctx.db.execute(sql`SELECT pg_sleep(1)`).then(
      () => null,
      (e: { cause?: { code?: string } }) => e,
    );
    expect(err?.cause?.code).toBe('57014');
  });

  it('a request held past the limit (here by a row lock) answers 503 SERVICE_BUSY and changes nothing', async () => {
    const sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
    const terminal = t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && x.isTest)!;
    const created = await injectSigned(t.app, sign, 'POST', '/api/merchant/v1/invoices', invoiceBody(terminal));
    const invoiceId = created.json().data.invoiceId as string;
    const admin = await loginAs(t.app, 'admin');

    // another transaction holds the invoice's row meanwhile
    const res = await whileHeld('SELECT 1 FROM invoices WHERE id = $1 FOR UPDATE', [invoiceId], () =>
      t.app.inject({
        method: 'PATCH',
        url: `/api/v1/invoice/status?merchantId=${t.demo.merchantId}`,
        headers: { cookie: admin },
        payload: { invoiceId, statusId: statusByCode('CANCELED')!.id, reason: 'Customer asked to cancel' },
      }),
    );
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json().error).toMatchObject({ code: 'SERVICE_BUSY', message: expect.stringMatching(/too long/) });
    const row = await t.ctx.db.execute<{ status: string }>(sql`SELECT status FROM invoices WHERE id = ${invoiceId}`);
    expect(row.rows[0]!.status).toBe('NEW');
    const events = await t.ctx.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM audit_log WHERE target_id = ${invoiceId}`,
    );
    expect(Number(events.rows[0]!.n)).toBe(0);
  });

  it('a merchant API create held past the limit (the prepared statement) answers 503 and writes nothing', async () => {
    const sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
    const terminal = t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && x.isTest)!;
    const customer = { externalId: 'held-customer', firstName: 'Held', lastName: 'Row' };
    const first = await injectSigned(
      t.app,
      sign,
      'POST',
      '/api/merchant/v1/invoices',
      invoiceBody(terminal, { customer }),
    );
    expect(first.statusCode, first.body).toBe(201);
    const before = await t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM invoices`);

    // another transaction holds the customer's row: the create's upsert of it waits past the limit
    const res = await whileHeld(
      'SELECT 1 FROM customers WHERE merchant_id = $1 AND external_id = $2 FOR UPDATE',
      [t.demo.merchantId, customer.externalId],
      () => injectSigned(t.app, sign, 'POST', '/api/merchant/v1/invoices', invoiceBody(terminal, { customer })),
    );
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json().error).toMatchObject({ code: 'SERVICE_BUSY' });
    const after = await t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM invoices`);
    expect(Number(after.rows[0]!.n)).toBe(Number(before.rows[0]!.n));
  });

  it('an export runs under its own, longer limit', async () => {
    const stream = await copyOut(t.ctx, async () => 'COPY (SELECT pg_sleep(0.6), 42 AS answer) TO STDOUT');
    let out = '';
    for await (const chunk of stream) out += String(chunk);
    expect(out.trim().split('\t').at(-1)).toBe('42');
    // on a connection of the long reads' pool: the interactive pool's keep their limit
    const err = await t.ctx.db.execute(sql`SELECT pg_sleep(1)`).then(
      () => null,
      (e: { cause?: { code?: string } }) => e,
    );
    expect(err?.cause?.code).toBe('57014');
  });
});
