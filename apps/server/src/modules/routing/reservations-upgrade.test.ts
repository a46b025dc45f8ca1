import { afterAll, describe, expect, it } from 'vitest';
import { runMigrations } from '../../db/create-db';
import { databaseBefore } from '../../../test/migrations-before';
import { reconcileLedger } from '../ledger/reconcile';

/**
 * A database whose deposits hold requisites from before reservations were kept in the limit rows upgrades in place:
 * each account's reservation is summed from its active deposits, and from then on every invoice write keeps it, as
 * the engine, a bulk load or a previous release writing beside this one would.
 */
let db: Awaited<ReturnType<typeof databaseBefore>> | undefined;
afterAll(async () => db?.close());

const M = '11111111-1111-4111-8111-111111111111';

describe('upgrading to reservations kept in the limit rows', () => {
  it('sums the active deposits of each account, then every insert, update and delete keeps the sum', async () => {
    db = await databaseBefore('_account_reservations');
    const { dbh } = db;
    const q = (text: string, params: unknown[] = []) => dbh.pool.query(text, params);
    await q(`INSERT INTO currencies (id, code, name, dimension) VALUES (1, 'UZS', 'Sum', 2)`);
    await q(`INSERT INTO merchants (id, name, webhook_secret) VALUES ($1, 'Old Shop', 'whsec_x')`, [M]);
    await q(`INSERT INTO providers (id, code, name) VALUES (1, 'BANK', 'Bank')`);
    await q(`INSERT INTO payment_methods (id, code, name, requisite_type, currency_id, country_code, min_amount, max_amount)
             VALUES (1, 'HUMOUZS', 'Humo', 'card', 1, 'UZ', 100, 100000000)`);
    await q(
      `INSERT INTO provider_accounts (id, provider_id, payment_method_id) VALUES (1, 1, 1), (2, 1, 1), (3, 1, 1)`,
    );
    await q(`INSERT INTO account_limits (account_id, "limit") VALUES (1, 10000000), (2, 10000000), (3, 10000000)`);
    await q(
      `INSERT INTO terminals (id, merchant_id, name, flow_type, currency_id)
             VALUES ('22222222-2222-4222-8222-222222222222', $1, 'T', 'DEPOSIT', 1)`,
      [M],
    );
    const invoice = (n: number, flow: string, status: string, amount: number, account: number | null) =>
      q(
        `INSERT INTO invoices (id, merchant_id, terminal_id, merchant_invoice_id, form_id, flow_type, status, amount,
           currency_id, account_id, expires_at)
         VALUES ($1, $2, '22222222-2222-4222-8222-222222222222', $3, $3, $4, $5, $6, 1, $7, now())`,
        [`00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, M, `ORD-${n}`, flow, status, amount, account],
      );
    // account 1: two waiting for money (700); account 2: one paid by the customer (50) and history; account 3: none
    await invoice(1, 'DEPOSIT', 'IN_PROGRESS', 300, 1);
    await invoice(2, 'DEPOSIT', 'PAYED', 400, 1);
    await invoice(3, 'DEPOSIT', 'PAYED', 50, 2);
    await invoice(4, 'DEPOSIT', 'DONE', 9000, 2);
    await invoice(5, 'DEPOSIT', 'NEW', 600, null);
    await invoice(6, 'WITHDRAWAL', 'IN_PROGRESS', 800, 3);

    await runMigrations(dbh);
    const reserved = async () =>
      Object.fromEntries(
        (await q(`SELECT account_id, reserved::int AS r FROM account_limits ORDER BY 1`)).rows.map((r) => [
          r.account_id,
          r.r,
        ]),
      );
    expect(await reserved()).toEqual({ 1: 700, 2: 50, 3: 0 });
    expect((await reconcileLedger(dbh.db)).drift).toEqual([]);

    const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    await q(`UPDATE invoices SET status = 'DONE' WHERE id = $1`, [id(1)]); // money arrived: 300 freed
    await q(`UPDATE invoices SET account_id = 3, amount = 450 WHERE id = $1`, [id(2)]); // moved and corrected
    await q(`UPDATE invoices SET status = 'IN_PROGRESS', account_id = 2 WHERE id = $1`, [id(5)]); // requisites given
    await q(`UPDATE invoices SET amount = 900 WHERE id = $1`, [id(6)]); // a withdrawal reserves nothing
    await invoice(7, 'DEPOSIT', 'IN_PROGRESS', 25, 1);
    await q(`DELETE FROM invoices WHERE id = $1`, [id(3)]);
    expect(await reserved()).toEqual({ 1: 25, 2: 600, 3: 450 });
    expect((await reconcileLedger(dbh.db)).drift).toEqual([]);

    // a drifted figure is reported by the reconciliation
    await q(`UPDATE account_limits SET reserved = reserved + 1 WHERE account_id = 2`);
    expect((await reconcileLedger(dbh.db)).drift).toEqual([{ key: 'reserved:2', balance: 601, entries: 600 }]);
  });
});
