import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/harness';
import { fetchSigned, invoiceBody, listen, merchantSigner, uniqueId, type Signer } from '../../../test/merchant-client';
import { ledgerTotals } from '../ledger/service';
import { reconcileLedger } from '../ledger/reconcile';

// Row-lock behaviour needs a real PostgreSQL server (PGlite runs one statement at a time).
describe.skipIf(!process.env.DATABASE_URL)('engine under concurrency (PostgreSQL)', () => {
  let t: TestApp;
  let sign: Signer;
  let base: string;
  const PATH = '/api/merchant/v1/invoices';

  beforeAll(async () => {
    t = await createTestApp({ sandboxDelayMs: 0 });
    sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
    base = await listen(t.app);
  });
  afterAll(async () => t?.close());

  const terminal = () => t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && x.currency === 'UZS' && !x.isTest)!;

  async function createMany(n: number, amount: number) {
    const out: { invoiceId: string; formId: string }[] = [];
    for (let i = 0; i < n; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, n - i) }, () =>
          fetchSigned(base, sign, 'POST', PATH, invoiceBody(terminal(), { amount, paymentMethod: 'HUMOUZS' })),
        ),
      );
      for (const r of batch) {
        expect(r.status).toBe(201);
        out.push(r.json.data);
      }
    }
    return out;
  }

  async function humoAccounts() {
    const r = await t.ctx.db.execute<{ id: number }>(sql`
      SELECT a.id FROM provider_accounts a JOIN payment_methods m ON m.id = a.payment_method_id JOIN providers p ON p.id = a.provider_id
      WHERE m.code = 'HUMOUZS' AND NOT p.is_sandbox AND a.enabled`);
    return r.rows.map((x) => Number(x.id));
  }

  async function violations(accountIds: number[]) {
    const ids = sql.join(
      accountIds.map((id) => sql`${id}`),
      sql`, `,
    );
    const dupes = await t.ctx.db.execute(sql`
      SELECT i.account_id, i.amount, count(*) FROM invoices i JOIN account_limits l ON l.account_id = i.account_id
      WHERE l.check_unique_amount AND i.flow_type = 'DEPOSIT' AND i.status IN ('IN_PROGRESS', 'PAYED') AND i.account_id IN (${ids})
      GROUP BY 1, 2 HAVING count(*) > 1`);
    const over = await t.ctx.db.execute(sql`
      SELECT l.account_id FROM account_limits l
      WHERE l.account_id IN (${ids}) AND l."limit" <
        COALESCE((SELECT SUM(e.amount) FROM ledger_entries e WHERE e.provider_account_id = l.account_id AND e.account = 'provider_account'), 0)
        + COALESCE((SELECT SUM(i.amount) FROM invoices i WHERE i.account_id = l.account_id AND i.flow_type = 'DEPOSIT' AND i.status IN ('IN_PROGRESS', 'PAYED')), 0)`);
    return { dupes: dupes.rows.length, over: over.rows.length };
  }

  it('200 parallel credential requests for one amount on unique-amount accounts: no shared (account, amount), no limit exceeded', async () => {
    const accounts = await humoAccounts();
    expect(accounts.length).toBeGreaterThanOrEqual(2);
    const ids = sql.join(
      accounts.map((id) => sql`${id}`),
      sql`, `,
    );
    await t.ctx.db.execute(
      sql`UPDATE account_limits SET check_unique_amount = true, "limit" = "limit" + 100000000000 WHERE account_id IN (${ids})`,
    );
    const amount = 777_777_00;
    const forms = await createMany(200, amount);
    const methodId = (
      (await (await fetch(`${base}/api/payments/form/${forms[0]!.formId}/init`, { method: 'POST' })).json()) as any
    ).data.paymentMethodId;
    const results = await Promise.all(
      forms.map((f) =>
        fetch(`${base}/api/payments/form/${f.formId}/credential`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ amount, paymentMethodId: methodId }),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as any })),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 409);
    expect(ok.length + refused.length).toBe(200);
    expect(ok.length).toBeLessThanOrEqual(accounts.length);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const r of refused)
      expect(r.body.error).toMatchObject({
        code: 'NO_ACCOUNT_AVAILABLE',
        message: 'No payment requisites are available for this amount right now',
      });
    expect(await violations(accounts)).toEqual({ dupes: 0, over: 0 });
    // every account's reservation (kept in its limit row) is still the sum of its holding deposits
    expect((await reconcileLedger(t.ctx.db)).drift).toEqual([]);
    const errs = await t.ctx.db.execute<{
      n: number;
    }>(sql`SELECT count(*)::int AS n FROM invoice_errors WHERE invoice_id IN (
      SELECT id FROM invoices WHERE amount = ${amount} AND status = 'NEW')`);
    expect(Number(errs.rows[0]!.n)).toBe(refused.length);
  });

  it('200 parallel credential requests on limited accounts never exceed a limit', async () => {
    const accounts = await humoAccounts();
    const ids = sql.join(
      accounts.map((id) => sql`${id}`),
      sql`, `,
    );
    const amount = 1_000_000_00;
    // room for exactly 3 more such deposits per account
    await t.ctx.db.execute(sql`
      UPDATE account_limits l SET check_unique_amount = false, "limit" =
        COALESCE((SELECT SUM(e.amount) FROM ledger_entries e WHERE e.provider_account_id = l.account_id AND e.account = 'provider_account'), 0)
        + COALESCE((SELECT SUM(i.amount) FROM invoices i WHERE i.account_id = l.account_id AND i.flow_type = 'DEPOSIT' AND i.status IN ('IN_PROGRESS', 'PAYED')), 0)
        + ${3 * amount + amount / 2}
      WHERE l.account_id IN (${ids})`);
    const forms = await createMany(200, amount);
    const methodId = (
      (await (await fetch(`${base}/api/payments/form/${forms[0]!.formId}/init`, { method: 'POST' })).json()) as any
    ).data.paymentMethodId;
    const results = await Promise.all(
      forms.map((f) =>
        fetch(`${base}/api/payments/form/${f.formId}/credential`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ amount, paymentMethodId: methodId }),
        }).then((r) => r.status),
      ),
    );
    expect(results.filter((s) => s === 200).length).toBe(3 * accounts.length);
    expect(results.filter((s) => s === 409).length).toBe(200 - 3 * accounts.length);
    expect(await violations(accounts)).toEqual({ dupes: 0, over: 0 });
    // every account's reservation (kept in its limit row) is still the sum of its holding deposits
    expect((await reconcileLedger(t.ctx.db)).drift).toEqual([]);
  });

  it('50 parallel completes, then 50 parallel provider reports on one invoice: one PAYED, one DONE, one posting, one DONE callback', async () => {
    const accounts = await humoAccounts();
    const ids = sql.join(
      accounts.map((id) => sql`${id}`),
      sql`, `,
    );
    await t.ctx.db.execute(
      sql`UPDATE account_limits SET "limit" = "limit" + 100000000000 WHERE account_id IN (${ids})`,
    );
    const amount = 333_333_00;
    const [f] = await createMany(1, amount);
    const form = `${base}/api/payments/form/${f!.formId}`;
    const init = ((await (await fetch(`${form}/init`, { method: 'POST' })).json()) as any).data;
    const cred = await fetch(`${form}/credential`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ amount, paymentMethodId: init.paymentMethodId }),
    });
    expect(cred.status).toBe(200);
    const completes = await Promise.all(
      Array.from({ length: 50 }, () =>
        fetch(`${form}/complete`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).then(
          (r) => r.status,
        ),
      ),
    );
    expect(completes.filter((s) => s === 200)).toHaveLength(1);
    expect(completes.filter((s) => s === 409)).toHaveLength(49);

    const acc = await t.ctx.db.execute<{ account_id: number; code: string }>(sql`
      SELECT i.account_id, p.code FROM invoices i JOIN provider_accounts a ON a.id = i.account_id JOIN providers p ON p.id = a.provider_id WHERE i.id = ${f!.invoiceId}`);
    const { account_id, code } = acc.rows[0]!;
    const reports = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        fetch(`${base}/api/provider/v1/incoming`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer dev:${code}` },
          // half repeat one reference, half are distinct transfers of the same amount
          body: JSON.stringify({
            accountId: Number(account_id),
            amount,
            occurredAt: new Date().toISOString(),
            reference: i % 2 ? `same-${f!.invoiceId}` : uniqueId('ref'),
          }),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as any })),
      ),
    );
    expect(reports.every((r) => r.status === 200)).toBe(true);
    const matchedIds = new Set(reports.filter((r) => r.body.data.status === 'MATCHED').map((r) => r.body.data.id));
    expect(matchedIds.size).toBe(1);
    const q = async (s: ReturnType<typeof sql>) => Number((await t.ctx.db.execute<{ n: number }>(s)).rows[0]!.n);
    expect(
      await q(
        sql`SELECT count(*)::int AS n FROM invoice_status_events WHERE invoice_id = ${f!.invoiceId} AND status = 'DONE'`,
      ),
    ).toBe(1);
    expect(
      await q(
        sql`SELECT count(*)::int AS n FROM invoice_status_events WHERE invoice_id = ${f!.invoiceId} AND status = 'PAYED'`,
      ),
    ).toBe(1);
    expect(
      await q(sql`SELECT count(DISTINCT tx_id)::int AS n FROM ledger_entries WHERE invoice_id = ${f!.invoiceId}`),
    ).toBe(1);
    expect(
      await q(
        sql`SELECT count(*)::int AS n FROM callbacks WHERE invoice_id = ${f!.invoiceId} AND invoice_status = 'DONE'`,
      ),
    ).toBe(1);
    // 26 reported transfers (25 distinct references + 1 repeated): one matched, the rest kept for staff
    expect(await q(sql`SELECT count(*)::int AS n FROM incoming_payments WHERE amount = ${amount}`)).toBe(26);
    expect(
      await q(
        sql`SELECT count(*)::int AS n FROM incoming_payments WHERE amount = ${amount} AND matched_invoice_id IS NULL`,
      ),
    ).toBe(25);
    for (const row of await ledgerTotals(t.ctx.db)) expect(row.total).toBe(0);
  });

  it('50 parallel creates with one Idempotency-Key execute once', async () => {
    const body = invoiceBody(terminal());
    const key = { 'idempotency-key': uniqueId('idem') };
    const results = await Promise.all(
      Array.from({ length: 50 }, () => fetchSigned(base, sign, 'POST', PATH, body, key)),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(201));
    expect(new Set(results.map((r) => r.json.data.invoiceId)).size).toBe(1);
    const n = await t.ctx.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM invoices WHERE merchant_invoice_id = ${body.merchantInvoiceId}`,
    );
    expect(Number(n.rows[0]!.n)).toBe(1);
  });
});
