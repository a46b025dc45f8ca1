import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, isNotNull, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/harness';
import { lockInvoice } from '../modules/engine/service';
import { rowSql } from './row-sql';
import { accountLimits, customers, invoices } from './schema';

/**
 * Whole rows as SQL (row-sql.ts) give what Drizzle's builder gives for the same rows: every column, each mapped by
 * its own type (money, timestamps, booleans, nulls), whatever the row holds.
 */
describe('rowSql', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  const invoiceRow = rowSql(invoices);

  it('locks every invoice as the builder reads it, a row with every column set among them', async () => {
    const [customer] = await t.ctx.db.select({ id: customers.id }).from(customers).limit(1);
    const [full] = await t.ctx.db.select({ id: invoices.id }).from(invoices).limit(1);
    // every nullable column of one invoice given a value
    await t.ctx.db
      .update(invoices)
      .set({
        providerInvoiceId: 'prov-1',
        customerId: customer?.id ?? null,
        paymentMethodId: 1,
        credentialValue: 'v1:x:y',
        credentialHash: 'h',
        credentialMasked: '9860 12•• •••• 1234',
        bankCode: 7,
        successUrl: 'https://shop.example/ok',
        cancelUrl: 'https://shop.example/cancel',
        errorUrl: 'https://shop.example/error',
        callbackUrl: 'https://shop.example/cb',
        supportCode: 'S-1',
        fundedFromSuspense: true,
      })
      .where(eq(invoices.id, full!.id));
    const built = await t.ctx.db.select().from(invoices).orderBy(invoices.createdAt).limit(300);
    expect(built.length).toBeGreaterThan(50);
    const locked = await t.ctx.db.transaction(async (tx) => {
      const out = [];
      for (const b of built) out.push(await lockInvoice(tx, { id: b.id }));
      return out;
    });
    expect(locked).toEqual(built);
    const fullRow = locked.find((r) => r?.id === full!.id)!;
    expect(fullRow.amount).toBeTypeOf('number');
    expect(fullRow.createdAt).toBeInstanceOf(Date);
    expect(fullRow.fundedFromSuspense).toBe(true);
    expect(fullRow.bankCode).toBe(7);
    // by form id, and by id within its merchant (another merchant's id finds nothing)
    await t.ctx.db.transaction(async (tx) => {
      expect(await lockInvoice(tx, { formId: fullRow.formId })).toEqual(fullRow);
      expect(await lockInvoice(tx, { id: fullRow.id, merchantId: fullRow.merchantId })).toEqual(fullRow);
      expect(await lockInvoice(tx, { id: fullRow.id, merchantId: crypto.randomUUID() })).toBeUndefined();
      expect(await lockInvoice(tx, { id: fullRow.id }, { skipLocked: true })).toEqual(fullRow);
    });
  });

  it('updates through the columns’ own mappings and returns the row the builder reads back', async () => {
    const [inv] = await t.ctx.db.select().from(invoices).limit(1);
    const at = new Date('2026-05-04T03:02:01.123Z');
    const returned = await t.ctx.db.transaction(async (tx) => {
      const { rows } = await tx.execute<Record<string, unknown>>(
        sql`UPDATE invoices SET ${invoiceRow.set({
          amount: 12_345_678,
          fee: 0,
          statusDate: at,
          credentialValue: null,
          supportCode: undefined,
          expiresAt: sql`${at.toISOString()}::timestamptz + interval '1 day'`,
        })} WHERE id = ${inv!.id} RETURNING ${invoiceRow.columns}`,
      );
      return invoiceRow.from(rows[0]!);
    });
    const [after] = await t.ctx.db.select().from(invoices).where(eq(invoices.id, inv!.id));
    expect(returned).toEqual(after);
    expect(after).toMatchObject({
      amount: 12_345_678,
      fee: 0,
      statusDate: at,
      credentialValue: null,
      supportCode: inv!.supportCode,
      expiresAt: new Date(at.getTime() + 86_400_000),
    });
  });

  it('maps the limit rows (bigint figures, timestamps) as the builder does', async () => {
    await t.ctx.db
      .update(accountLimits)
      .set({ overLimitSince: new Date('2026-01-02T00:00:00Z') })
      .where(isNotNull(accountLimits.accountId));
    const limitRow = rowSql(accountLimits);
    const built = await t.ctx.db.select().from(accountLimits).orderBy(accountLimits.accountId);
    const { rows } = await t.ctx.db.execute<Record<string, unknown>>(
      sql`SELECT ${limitRow.columns} FROM account_limits ORDER BY account_id`,
    );
    expect(built.length).toBeGreaterThan(0);
    expect(rows.map((r) => limitRow.from(r))).toEqual(built);
  });

  it('refuses a row without one of its columns and an update with nothing to set', () => {
    expect(() => invoiceRow.from({ id: 'x' })).toThrow(/without column "merchant_id"/);
    expect(() => invoiceRow.set({ supportCode: undefined })).toThrow(/needs a value/);
  });
});
