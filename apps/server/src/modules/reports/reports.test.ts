import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { REPORT_COLUMNS } from '@paydesk/contracts';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';

/**
 * Demo merchant ids read from this file's own database (the harness's demo JSON is one file shared by every
 * concurrent test run, so another run may have rewritten it).
 */
let t: TestApp;
/** The demo merchant and its terminals, as the seed wrote them. */
let demo: TestApp['demo'];
let owner: string;
/** Platform staff: provider and pool reports are platform permissions; they name the merchant they work on. */
let ops: string;
let uzs: number;
let silkpay: number;
let uzsPool: number;
let start: string;
let end: string;
let secondId: string;

const day = (d: Date) => d.toISOString().slice(0, 10);

beforeAll(async () => {
  t = await createTestApp();
  demo = t.demo;
  owner = await loginAs(t.app, 'owner');
  ops = await loginAs(t.app, 'ops');
  const q = async <T>(s: ReturnType<typeof sql>) => (await t.ctx.db.execute(s)).rows[0] as T;
  uzs = Number((await q<{ id: number }>(sql`SELECT id FROM currencies WHERE code = 'UZS'`)).id);
  silkpay = Number((await q<{ id: number }>(sql`SELECT id FROM providers WHERE code = 'SILKPAY'`)).id);
  uzsPool = Number((await q<{ id: number }>(sql`SELECT id FROM terminal_pools WHERE name = 'UZS Main Pool'`)).id);
  secondId = String((await q<{ id: string }>(sql`SELECT id FROM merchants WHERE name = 'Second Shop'`)).id);
  const now = t.ctx.now();
  start = day(new Date(now.getTime() - 20 * 86_400_000));
  end = day(now);
});
afterAll(async () => {
  await t.close();
});

/** RFC 4180 parser for the checks (quoted cells, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  if (cell || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

const get = (cookie: string, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
/** Major-unit decimal string → minor units (dimension 2) without float math. */
const minor = (s: string) => {
  const neg = s.startsWith('-');
  const [i, f = ''] = s.replace('-', '').split('.');
  return (neg ? -1 : 1) * Number(`${i}${f.padEnd(2, '0')}`);
};
async function csvOf(url: string, cookie = owner) {
  const res = await get(cookie, url);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/csv/);
  const rows = parseCsv(res.body);
  return { res, header: rows[0]!, rows: rows.slice(1) };
}
const rowsToObjects = (header: string[], rows: string[][]) =>
  rows.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ''])));
/** `col` within [periodStart 00:00Z, the day after periodEnd 00:00Z). */
const periodSql = (col: string) =>
  sql`${sql.raw(col)} >= ${`${start}T00:00:00Z`}::timestamptz AND ${sql.raw(col)} < ${new Date(new Date(`${end}T00:00:00Z`).getTime() + 86_400_000).toISOString()}::timestamptz`;

describe('GET /api/v1/report/invoice', () => {
  it('one row per invoice created in the period, amounts in major units, as an attachment', async () => {
    const { res, header, rows } = await csvOf(`/api/v1/report/invoice?periodStart=${start}&periodEnd=${end}`);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="report-invoice-${start}_${end}.csv"`);
    expect(header).toEqual([...REPORT_COLUMNS.invoice]);
    const db = await t.ctx.db.execute<{ n: number; amount: string; fee: string }>(sql`
      SELECT COUNT(*)::int AS n, COALESCE(SUM(amount), 0)::text AS amount, COALESCE(SUM(fee), 0)::text AS fee FROM invoices
      WHERE merchant_id = ${demo.merchantId} AND ${periodSql('created_at')}`);
    const expected = db.rows[0]!;
    expect(rows.length).toBe(Number(expected.n));
    expect(rows.length).toBeGreaterThan(50);
    const objs = rowsToObjects(header, rows);
    expect(objs.reduce((a, r) => a + minor(r.amount!), 0)).toBe(Number(expected.amount));
    expect(objs.reduce((a, r) => a + minor(r.fee!), 0)).toBe(Number(expected.fee));
    // one row checked cell by cell
    const one = objs[objs.length - 1]!;
    const inv = (
      await t.ctx.db.execute<Record<string, unknown>>(sql`
        SELECT i.merchant_invoice_id, i.created_at, i.status, i.flow_type, i.amount, c.code, t.name AS terminal, pm.name AS method
        FROM invoices i JOIN currencies c ON c.id = i.currency_id JOIN terminals t ON t.id = i.terminal_id
        LEFT JOIN payment_methods pm ON pm.id = i.payment_method_id WHERE i.id = ${one.invoice_id}`)
    ).rows[0]!;
    expect(one).toMatchObject({
      merchant_invoice_id: inv.merchant_invoice_id,
      created: new Date(inv.created_at as string).toISOString(),
      status: inv.status,
      flow: inv.flow_type,
      currency: inv.code,
      terminal: inv.terminal,
      method: inv.method ?? '',
    });
    expect(minor(one.amount!)).toBe(Number(inv.amount));
    // oldest first
    const created = objs.map((r) => r.created!);
    expect([...created].sort()).toEqual(created);
  });

  it('filters by terminal; only the merchant own invoices', async () => {
    const term = demo.terminals.find((x) => x.name === 'RUB Deposit')!;
    const { header, rows } = await csvOf(
      `/api/v1/report/invoice?periodStart=${start}&periodEnd=${end}&terminalId=${term.id}`,
    );
    const objs = rowsToObjects(header, rows);
    expect(objs.every((r) => r.terminal === 'RUB Deposit' && r.currency === 'RUB')).toBe(true);
    const n = await t.ctx.db.execute<{ n: number }>(
      sql`SELECT COUNT(*)::int AS n FROM invoices WHERE terminal_id = ${term.id} AND ${periodSql('created_at')}`,
    );
    expect(rows.length).toBe(Number(n.rows[0]!.n));
    // shop2 gets only Second Shop's invoices, and a 404 for Demo Merchant's terminal
    const second = await loginAs(t.app, 'shop2');
    const theirs = await csvOf(
      `/api/v1/report/invoice?periodStart=${start}&periodEnd=${end}&merchantId=${demo.merchantId}`,
      second,
    );
    expect(rowsToObjects(theirs.header, theirs.rows).every((r) => r.terminal!.startsWith('Shop '))).toBe(true);
    const cross = await get(
      second,
      `/api/v1/report/invoice?periodStart=${start}&periodEnd=${end}&terminalId=${term.id}`,
    );
    expect(cross.statusCode).toBe(404);
  });

  it('a period with no invoices gives the header only', async () => {
    const { rows } = await csvOf('/api/v1/report/invoice?periodStart=2001-01-01&periodEnd=2001-01-31');
    expect(rows).toEqual([]);
  });
});

describe('GET /api/v1/report/balance', () => {
  it('per day: opening, deposits, withdrawals, fees, settlements, closing agree with the ledger', async () => {
    // a settlement inside the period so that the column is exercised
    const term = demo.terminals.find((x) => x.name === 'UZS Deposit')!;
    const s = await t.app.inject({
      method: 'POST',
      url: `/api/v1/settlement?merchantId=${demo.merchantId}`,
      headers: { cookie: await loginAs(t.app, 'admin') },
      payload: { baseAmount: 1000, settlementAmount: 0.5, terminalId: term.id },
    });
    expect(s.statusCode).toBe(200);

    const { header, rows, res } = await csvOf(
      `/api/v1/report/balance?periodStart=${start}&periodEnd=${end}&currencyId=${uzs}`,
    );
    expect(res.headers['content-disposition']).toContain(`report-balance-${start}_${end}.csv`);
    expect(header).toEqual([...REPORT_COLUMNS.balance]);
    const objs = rowsToObjects(header, rows);
    expect(objs.length).toBe(21);
    expect(objs[0]!.date).toBe(start);
    expect(objs.at(-1)!.date).toBe(end);

    const q = async (cond: ReturnType<typeof sql>) =>
      Number(
        (
          await t.ctx.db.execute<{ v: string }>(
            sql`
            SELECT COALESCE(SUM(e.amount), 0)::text AS v FROM ledger_entries e LEFT JOIN invoices i ON i.id = e.invoice_id
            WHERE e.merchant_id = ${demo.merchantId} AND e.currency_id = ${uzs} AND e.book = 'live' AND `.append(cond),
          )
        ).rows[0]!.v,
      );
    const endTs = new Date(new Date(`${end}T00:00:00Z`).getTime() + 86_400_000).toISOString();
    const opening = -(await q(sql`e.account = 'merchant' AND e.created_at < ${`${start}T00:00:00Z`}::timestamptz`));
    const closing = -(await q(sql`e.account = 'merchant' AND e.created_at < ${endTs}::timestamptz`));
    const inPeriod = sql`e.created_at >= ${`${start}T00:00:00Z`}::timestamptz AND e.created_at < ${endTs}::timestamptz`;
    const deposits = -(await q(sql`e.account = 'merchant' AND i.flow_type = 'DEPOSIT' AND `.append(inPeriod)));
    const withdrawals = await q(sql`e.account = 'merchant' AND i.flow_type = 'WITHDRAWAL' AND `.append(inPeriod));
    const fees = -(await q(sql`e.account = 'fees' AND `.append(inPeriod)));
    const settlements = await q(sql`e.account = 'merchant' AND e.settlement_id IS NOT NULL AND `.append(inPeriod));

    const sum = (k: string) => objs.reduce((a, r) => a + minor(r[k]!), 0);
    expect(minor(objs[0]!.opening_balance!)).toBe(opening);
    expect(minor(objs.at(-1)!.closing_balance!)).toBe(closing);
    expect(sum('deposits_credited')).toBe(deposits);
    expect(sum('withdrawals_paid')).toBe(withdrawals);
    expect(sum('fees')).toBe(fees);
    expect(sum('settlements')).toBe(settlements);
    expect(settlements).toBeGreaterThanOrEqual(100_000);
    expect(deposits).toBeGreaterThan(0);
    for (let i = 0; i < objs.length; i++) {
      const r = objs[i]!;
      expect(minor(r.closing_balance!)).toBe(
        minor(r.opening_balance!) + minor(r.deposits_credited!) - minor(r.withdrawals_paid!) - minor(r.settlements!),
      );
      if (i > 0) expect(r.opening_balance).toBe(objs[i - 1]!.closing_balance);
    }
    // the same report by currency code
    const byCode = await csvOf(`/api/v1/report/balance?periodStart=${start}&periodEnd=${end}&currency=UZS`);
    expect(byCode.rows).toEqual(rows);
  });
});

describe('GET /api/v1/report/balance with a terminal', () => {
  it("opening, closing and per-day sums from that terminal's entries only (period checkpoints per terminal)", async () => {
    const term = demo.terminals.find((x) => x.name === 'UZS Deposit')!;
    const { header, rows } = await csvOf(
      `/api/v1/report/balance?periodStart=${start}&periodEnd=${end}&currencyId=${uzs}&terminalId=${term.id}`,
    );
    const objs = rowsToObjects(header, rows);
    expect(objs.length).toBe(21);
    const sumOf = async (cond: ReturnType<typeof sql>) =>
      Number(
        (
          await t.ctx.db.execute<{ v: string }>(
            sql`SELECT COALESCE(SUM(e.amount), 0)::text AS v FROM ledger_entries e
              WHERE e.merchant_id = ${demo.merchantId} AND e.currency_id = ${uzs} AND e.book = 'live'
                AND e.account = 'merchant' AND e.terminal_id = ${term.id} AND `.append(cond),
          )
        ).rows[0]!.v,
      );
    const endTs = new Date(new Date(`${end}T00:00:00Z`).getTime() + 86_400_000).toISOString();
    expect(minor(objs[0]!.opening_balance!)).toBe(
      -(await sumOf(sql`e.created_at < ${`${start}T00:00:00Z`}::timestamptz`)),
    );
    expect(minor(objs.at(-1)!.closing_balance!)).toBe(-(await sumOf(sql`e.created_at < ${endTs}::timestamptz`)));
    const all = await csvOf(`/api/v1/report/balance?periodStart=${start}&periodEnd=${end}&currencyId=${uzs}`);
    // one terminal's deposits are part of the merchant's
    const dep = (o: Record<string, string>[]) => o.reduce((a, r) => a + minor(r.deposits_credited!), 0);
    expect(dep(objs)).toBeGreaterThan(0);
    expect(dep(objs)).toBeLessThanOrEqual(dep(rowsToObjects(all.header, all.rows)));
  });
});

describe('GET /api/v1/report/provider', () => {
  it("per account of the provider in the currency: the merchant's DONE deposits and withdrawals in the period", async () => {
    const { header, rows } = await csvOf(
      `/api/v1/report/provider?periodStart=${start}&periodEnd=${end}&currency=UZS&providerId=${silkpay}&merchantId=${demo.merchantId}`,
      ops,
    );
    expect(header).toEqual([...REPORT_COLUMNS.provider]);
    const objs = rowsToObjects(header, rows);
    const accounts = await t.ctx.db.execute<{ id: number }>(sql`
      SELECT a.id FROM provider_accounts a JOIN payment_methods pm ON pm.id = a.payment_method_id
      WHERE a.provider_id = ${silkpay} AND pm.currency_id = ${uzs} ORDER BY a.id`);
    expect(objs.map((r) => Number(r.account_id))).toEqual(accounts.rows.map((r) => Number(r.id)));
    const db = await t.ctx.db.execute<{ account_id: number; flow_type: string; n: number; s: string }>(sql`
      SELECT account_id, flow_type, COUNT(*)::int AS n, SUM(amount)::text AS s FROM invoices
      WHERE merchant_id = ${demo.merchantId} AND status = 'DONE' AND currency_id = ${uzs}
        AND ${periodSql('status_date')}
        AND account_id IN (SELECT id FROM provider_accounts WHERE provider_id = ${silkpay})
      GROUP BY 1, 2`);
    let total = 0;
    for (const r of objs) {
      const d = db.rows.find((x) => Number(x.account_id) === Number(r.account_id) && x.flow_type === 'DEPOSIT');
      const w = db.rows.find((x) => Number(x.account_id) === Number(r.account_id) && x.flow_type === 'WITHDRAWAL');
      expect(Number(r.incoming_count)).toBe(Number(d?.n ?? 0));
      expect(minor(r.incoming_sum!)).toBe(Number(d?.s ?? 0));
      expect(Number(r.payout_count)).toBe(Number(w?.n ?? 0));
      expect(minor(r.payout_sum!)).toBe(Number(w?.s ?? 0));
      expect(r.provider).toBeTruthy();
      total += Number(r.incoming_count) + Number(r.payout_count);
    }
    expect(total).toBeGreaterThan(0);
  });
});

describe('GET /api/v1/report/pool/balance', () => {
  it('per terminal of the pool: DONE deposit and withdrawal sums in the period and net', async () => {
    const { header, rows, res } = await csvOf(
      `/api/v1/report/pool/balance?periodStart=${start}&periodEnd=${end}&terminalPoolId=${uzsPool}&merchantId=${demo.merchantId}`,
      ops,
    );
    expect(res.headers['content-disposition']).toContain(`report-pool-balance-${start}_${end}.csv`);
    expect(header).toEqual([...REPORT_COLUMNS['pool/balance']]);
    const objs = rowsToObjects(header, rows);
    expect(objs.map((r) => r.terminal).sort()).toEqual(['UZS Deposit', 'UZS Withdrawal']);
    for (const r of objs) {
      const db = await t.ctx.db.execute<{ d: string; w: string }>(sql`
        SELECT COALESCE(SUM(amount) FILTER (WHERE flow_type = 'DEPOSIT'), 0)::text AS d,
               COALESCE(SUM(amount) FILTER (WHERE flow_type = 'WITHDRAWAL'), 0)::text AS w
        FROM invoices WHERE terminal_id = ${r.terminal_id} AND status = 'DONE' AND ${periodSql('status_date')}`);
      expect(minor(r.deposit_sum!)).toBe(Number(db.rows[0]!.d));
      expect(minor(r.withdrawal_sum!)).toBe(Number(db.rows[0]!.w));
      expect(minor(r.net!)).toBe(Number(db.rows[0]!.d) - Number(db.rows[0]!.w));
    }
    expect(objs.some((r) => minor(r.deposit_sum!) > 0)).toBe(true);
  });

  it("404 for another merchant's pool; merchant staff may not run pool reports at all", async () => {
    const url = `/api/v1/report/pool/balance?periodStart=${start}&periodEnd=${end}&terminalPoolId=${uzsPool}`;
    const res = await get(ops, `${url}&merchantId=${secondId}`);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('Terminal pool not found');
    const admin = await loginAs(t.app, 'admin');
    expect((await get(admin, `${url}&merchantId=${secondId}`)).statusCode).toBe(404);
    const shop2 = await get(await loginAs(t.app, 'shop2'), url);
    expect(shop2.statusCode).toBe(403);
    expect(shop2.body).not.toContain('UZS Deposit');
  });
});

describe('report permissions and validation', () => {
  const urls = () => [
    `/api/v1/report/invoice?periodStart=${start}&periodEnd=${end}`,
    `/api/v1/report/balance?periodStart=${start}&periodEnd=${end}&currencyId=${uzs}`,
    `/api/v1/report/provider?periodStart=${start}&periodEnd=${end}&currency=UZS&providerId=${silkpay}`,
    `/api/v1/report/pool/balance?periodStart=${start}&periodEnd=${end}&terminalPoolId=${uzsPool}`,
  ];

  const platformReport = (url: string) => url.includes('/report/provider') || url.includes('/report/pool/');

  it('403 without report.read.* / merchant.read.report (support, viewer); 401 without a session', async () => {
    for (const u of ['support', 'viewer']) {
      const cookie = await loginAs(t.app, u);
      for (const url of urls()) {
        const res = await get(cookie, url);
        expect(res.statusCode, `${u} ${url}`).toBe(403);
        expect(res.json().error.message, `${u} ${url}`).toMatch(
          platformReport(url) ? /^Only platform staff may do this\.$/ : /^Your role does not allow you to open reports/,
        );
      }
    }
    for (const url of urls()) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(401);
      // the back-office's hidden download frame may read the refusal (framable by the app only); nothing started
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self'");
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('each report is an attachment the app may frame, with the cookie that says the file has started', async () => {
    for (const url of urls()) {
      const res = await get(ops, `${url}&merchantId=${demo.merchantId}`);
      expect(res.statusCode, `${url} ${res.body.slice(0, 200)}`).toBe(200);
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="report-[a-z-]+-[\d-]+_[\d-]+\.csv"$/);
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self'");
      expect(res.headers['content-security-policy']).not.toContain("frame-ancestors 'none'");
      expect(res.headers['set-cookie']).toBe('paydesk-download-started=1; Path=/; Max-Age=30; SameSite=Strict');
    }
  });

  it('provider and pool reports are for platform staff only: merchant owners and finance are refused', async () => {
    for (const u of ['owner', 'finance', 'shop2']) {
      const cookie = u === 'owner' ? owner : await loginAs(t.app, u);
      for (const url of urls()) {
        const res = await get(cookie, url);
        if (platformReport(url)) {
          expect(res.statusCode, `${u} ${url}`).toBe(403);
          expect(res.json().error.message).toBe('Only platform staff may do this.');
        } else expect(res.statusCode, `${u} ${url}`).toBe(200);
      }
    }
    for (const url of urls())
      expect((await get(ops, `${url}&merchantId=${demo.merchantId}`)).statusCode, url).toBe(200);
  });

  it('400 with clear messages: bad dates, from after to, missing ids', async () => {
    const cases: [string, RegExp][] = [
      ['/api/v1/report/invoice?periodEnd=2026-01-01', /periodStart/],
      [
        '/api/v1/report/invoice?periodStart=2026-13-01&periodEnd=2026-12-01',
        /periodStart must be a date as yyyy-MM-dd/,
      ],
      ['/api/v1/report/invoice?periodStart=2026-02-30&periodEnd=2026-03-01', /periodStart must be a date/],
      ['/api/v1/report/invoice?periodStart=01/02/2026&periodEnd=2026-03-01', /periodStart must be a date/],
      [
        '/api/v1/report/invoice?periodStart=2026-03-02&periodEnd=2026-03-01',
        /periodEnd must not be before periodStart/,
      ],
      ['/api/v1/report/invoice?periodStart=2026-03-01&periodEnd=2026-03-02&terminalId=x', /terminalId must be a UUID/],
      ['/api/v1/report/balance?periodStart=2026-03-01&periodEnd=2026-03-02', /currencyId/],
      ['/api/v1/report/balance?periodStart=2026-03-01&periodEnd=2026-03-02&currencyId=', /currencyId/],
      ['/api/v1/report/provider?periodStart=2026-03-01&periodEnd=2026-03-02&currency=UZS', /providerId/],
      ['/api/v1/report/provider?periodStart=2026-03-01&periodEnd=2026-03-02&currency=UZS&providerId=abc', /providerId/],
      ['/api/v1/report/pool/balance?periodStart=2026-03-01&periodEnd=2026-03-02', /terminalPoolId/],
      ['/api/v1/report/pool/balance?periodStart=2026-03-01&periodEnd=2026-03-02&terminalPoolId=1&x=2', /x/],
      // beyond a database id (a 32-bit integer): refused here, not by the database
      [
        '/api/v1/report/pool/balance?periodStart=2026-03-01&periodEnd=2026-03-02&terminalPoolId=99999999999',
        /terminalPoolId/,
      ],
      [
        '/api/v1/report/provider?periodStart=2026-03-01&periodEnd=2026-03-02&currencyId=99999999999&providerId=1',
        /currencyId/,
      ],
    ];
    for (const [url, msg] of cases) {
      const res = await get(platformReport(url) ? ops : owner, url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect(res.json().error.message, url).toMatch(msg);
    }
    // unknown references are 404 with what was not found, not 500; each refusal leaves the next report unharmed
    // (on PostgreSQL they are checked in the round trip that opens the report's transaction, which is rolled back)
    const otherTerminal = String(
      (await t.ctx.db.execute(sql`SELECT id FROM terminals WHERE merchant_id <> ${demo.merchantId} LIMIT 1`)).rows[0]!
        .id,
    );
    const refusals: [string, string, string][] = [
      [owner, `/api/v1/report/balance?periodStart=${start}&periodEnd=${end}&currencyId=9999`, 'Currency not found'],
      [owner, `/api/v1/report/balance?periodStart=${start}&periodEnd=${end}&currency=XYZ`, 'Currency not found'],
      [
        owner,
        `/api/v1/report/balance?periodStart=${start}&periodEnd=${end}&currency=UZS&terminalId=${otherTerminal}`,
        'Terminal not found',
      ],
      [
        owner,
        `/api/v1/report/invoice?periodStart=${start}&periodEnd=${end}&terminalId=${otherTerminal}`,
        'Terminal not found',
      ],
      [
        ops,
        `/api/v1/report/provider?periodStart=${start}&periodEnd=${end}&currencyId=9999&providerId=9999`,
        'Currency not found',
      ],
      [
        ops,
        `/api/v1/report/provider?periodStart=${start}&periodEnd=${end}&currency=UZS&providerId=9999`,
        'Provider not found',
      ],
      [
        ops,
        `/api/v1/report/pool/balance?periodStart=${start}&periodEnd=${end}&terminalPoolId=99999`,
        'Terminal pool not found',
      ],
    ];
    for (const [agent, url, message] of refusals) {
      const res = await get(agent, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error, url).toMatchObject({ code: 'NOT_FOUND', message });
      const next = await get(owner, `/api/v1/report/balance?periodStart=${start}&periodEnd=${end}&currency=UZS`);
      expect(next.statusCode, url).toBe(200);
    }
  });

  it('streams the invoice report while other requests keep being served', async () => {
    const [csv, me] = await Promise.all([
      get(owner, '/api/v1/report/invoice?periodStart=2000-01-01&periodEnd=2100-01-01'),
      get(owner, '/api/v1/people/me'),
    ]);
    expect(csv.statusCode).toBe(200);
    expect(me.statusCode).toBe(200);
    const total = await t.ctx.db.execute<{ n: number }>(
      sql`SELECT COUNT(*)::int AS n FROM invoices WHERE merchant_id = ${demo.merchantId}`,
    );
    expect(parseCsv(csv.body).length - 1).toBe(Number(total.rows[0]!.n));
  });
});
