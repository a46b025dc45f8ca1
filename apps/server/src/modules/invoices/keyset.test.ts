import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { INVOICE_TOTAL_CAP, encodeInvoiceCursor, invoiceListResponse } from '@paydesk/contracts';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';
import { invoices } from '../../db/schema';

/**
 * Pagination that reaches every row: keyset cursors beside page numbers, page numbers bounded by the
 * capped total, and an exact count on request.
 */

let t: TestApp;
let owner: string;
let shop2: string;
let merchantId: string;
let terminal: { id: string; currencyId: number };

beforeAll(async () => {
  t = await createTestApp();
  owner = await loginAs(t.app, 'owner');
  shop2 = await loginAs(t.app, 'shop2');
  merchantId = String(
    (await t.ctx.db.execute<{ id: string }>(sql`SELECT id FROM merchants WHERE name = 'Demo Merchant'`)).rows[0]!.id,
  );
  const r = await t.ctx.db.execute<{ id: string; currency_id: number }>(
    sql`SELECT id, currency_id FROM terminals WHERE merchant_id = ${merchantId} AND name = 'Test UZS Deposit'`,
  );
  terminal = { id: r.rows[0]!.id, currencyId: Number(r.rows[0]!.currency_id) };
  // ties: six invoices created in the same microsecond, which only the id orders
  const at = new Date('2026-01-15T10:00:00.123Z');
  await t.ctx.db.insert(invoices).values(
    Array.from({ length: 6 }, () => ({
      merchantId,
      terminalId: terminal.id,
      merchantInvoiceId: `tie-${randomUUID()}`,
      formId: randomBytes(16).toString('hex'),
      flowType: 'DEPOSIT',
      status: 'DONE',
      amount: 1_000_000,
      currencyId: terminal.currencyId,
      isTest: true,
      expiresAt: at,
      createdAt: at,
      statusDate: at,
    })),
  );
});
afterAll(async () => t?.close());

const get = (url: string, cookie = owner) => t.app.inject({ method: 'GET', url, headers: { cookie } });
const list = async (query: string, cookie = owner) => {
  const res = await get(`/api/v1/invoice?${query}`, cookie);
  expect(res.statusCode, res.body).toBe(200);
  return invoiceListResponse.parse(res.json());
};

/** The terminal's invoices in the list's order, straight from the table. */
async function expectedOrder() {
  const r = await t.ctx.db.execute<{ id: string }>(
    sql`SELECT id FROM invoices WHERE merchant_id = ${merchantId} AND terminal_id = ${terminal.id}
        ORDER BY created_at DESC, id`,
  );
  return r.rows.map((x) => x.id);
}

describe('keyset pagination of the invoice list', () => {
  it('a search pages by position too, from its gathered matches: every match once, in order, both ways', async () => {
    // the six same-microsecond invoices and the rest of the terminal's whose merchant id starts with "tie-"
    const want = (
      await t.ctx.db.execute<{ id: string }>(
        sql`SELECT id FROM invoices WHERE merchant_id = ${merchantId} AND lower(merchant_invoice_id) LIKE 'tie-%'
            ORDER BY created_at DESC, id`,
      )
    ).rows.map((x) => x.id);
    expect(want.length).toBeGreaterThanOrEqual(6);
    const filter = 'search=TIE-&size=5';
    let page = await list(filter);
    const forward = [...page.data.map((i) => i.invoiceId)];
    while (page.nextCursor) {
      page = await list(`${filter}&after=${page.nextCursor}`);
      expect(page.total).toBe(want.length);
      forward.push(...page.data.map((i) => i.invoiceId));
    }
    expect(forward).toEqual(want);
    const backward = [...page.data.map((i) => i.invoiceId)];
    while (page.prevCursor) {
      page = await list(`${filter}&before=${page.prevCursor}`);
      backward.unshift(...page.data.map((i) => i.invoiceId));
    }
    expect(backward).toEqual(want);
    // by number, the same rows
    const byNumber = [
      ...(await list('search=tie-&size=5&page=0')).data,
      ...(await list('search=tie-&size=5&page=1')).data,
    ];
    expect(byNumber.map((i) => i.invoiceId)).toEqual(want.slice(0, 10));
  });

  it('walks every row forward with nextCursor and back with prevCursor, ties included, pages the same both ways', async () => {
    const want = await expectedOrder();
    expect(want.length).toBeGreaterThan(14);
    const filter = `terminalId=${terminal.id}&size=7`;
    const forward: string[][] = [];
    let page = await list(filter);
    expect(page.prevCursor).toBeNull();
    forward.push(page.data.map((i) => i.invoiceId));
    while (page.nextCursor) {
      page = await list(`${filter}&after=${page.nextCursor}`);
      forward.push(page.data.map((i) => i.invoiceId));
      expect(page.prevCursor).not.toBeNull();
    }
    expect(forward.flat()).toEqual(want);
    expect(forward.every((p) => p.length === 7 || p === forward.at(-1))).toBe(true);

    // and back from the last page to the first, page by page
    const backward: string[][] = [forward.at(-1)!];
    while (page.prevCursor) {
      page = await list(`${filter}&before=${page.prevCursor}`);
      backward.unshift(page.data.map((i) => i.invoiceId));
    }
    expect(backward.flat()).toEqual(want);
    expect(backward[0]).toEqual(forward[0]);
  });

  it('page numbers and cursors agree; a page number past the capped total is refused with a way on', async () => {
    const filter = `terminalId=${terminal.id}&size=5`;
    const p0 = await list(`${filter}&page=0`);
    const p1 = await list(`${filter}&page=1`);
    const viaCursor = await list(`${filter}&after=${p0.nextCursor}`);
    expect(viaCursor.data.map((i) => i.invoiceId)).toEqual(p1.data.map((i) => i.invoiceId));
    expect(p1.prevCursor).not.toBeNull();

    const last = INVOICE_TOTAL_CAP / 40 - 1;
    expect((await get(`/api/v1/invoice?size=40&page=${last}`)).statusCode).toBe(200);
    for (const q of [`size=40&page=${last + 1}`, 'size=5&page=1000000', 'page=99999999999']) {
      const res = await get(`/api/v1/invoice?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error.fields.page, q).toMatch(/after=nextCursor|Number|number/);
    }
  });

  it('refuses what is not a cursor, both cursors at once, and a cursor with a page number; writes nothing', async () => {
    const good = encodeInvoiceCursor({ createdAt: '2026-01-15T10:00:00.123000Z', id: randomUUID() });
    const cases: [string, string][] = [
      ['after=not-a-cursor', 'after'],
      [`after=${Buffer.from('2026-01-01|x').toString('base64url')}`, 'after'],
      [
        `after=${Buffer.from("2026-01-01T00:00:00Z'; DROP TABLE invoices;--|" + randomUUID()).toString('base64url')}`,
        'after',
      ],
      [`before=${'A'.repeat(200)}`, 'before'],
      [`after=${good}&before=${good}`, 'before'],
      [`after=${good}&page=2`, 'page'],
    ];
    for (const [q, field] of cases) {
      const res = await get(`/api/v1/invoice?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(res.json().error.fields), q).toContain(field);
    }
    // a well-formed cursor of a row that does not exist still pages from that position
    expect((await get(`/api/v1/invoice?after=${good}`)).statusCode).toBe(200);
  });

  it("a cursor never shows another merchant's invoices", async () => {
    const mine = await list(`terminalId=${terminal.id}&size=5`);
    const theirs = await list(`size=5&after=${mine.nextCursor}`, shop2);
    const shop2Merchant = String(
      (await t.ctx.db.execute<{ id: string }>(sql`SELECT id FROM merchants WHERE name = 'Second Shop'`)).rows[0]!.id,
    );
    const owners = await t.ctx.db.execute<{ merchant_id: string }>(
      sql`SELECT DISTINCT merchant_id FROM invoices WHERE id IN (${sql.join(
        [...theirs.data.map((i) => i.invoiceId), randomUUID()].map((id) => sql`${id}`),
        sql`, `,
      )})`,
    );
    expect(owners.rows.every((r) => r.merchant_id === shop2Merchant)).toBe(true);
  });
});

describe('GET /api/v1/invoice/count', () => {
  it('counts exactly what the filters match, past the cap too, scoped to the caller’s merchant', async () => {
    const res = await get(`/api/v1/invoice/count?terminalId=${terminal.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.total).toBe((await expectedOrder()).length);
    const all = await t.ctx.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM invoices WHERE merchant_id = ${merchantId} AND flow_type = 'DEPOSIT'`,
    );
    expect((await get('/api/v1/invoice/count?flowType=DEPOSIT')).json().data.total).toBe(Number(all.rows[0]!.n));
    // another merchant's terminal counts nothing of ours
    expect((await get(`/api/v1/invoice/count?terminalId=${terminal.id}`, shop2)).json().data.total).toBe(0);
    expect((await get('/api/v1/invoice/count?statusIds=999')).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/invoice/count' })).statusCode).toBe(401);
  });
});
