import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { runMigrations } from '../db/create-db';
import { loadConfig } from '../config';
import { filesHolding } from '../../test/files';
import { databaseBefore } from '../../test/migrations-before';
import { TEST_KEY_FILE } from '../../test/paths';
import { createContext } from './context';
import { compactAfterEncryption, encryptPlainRequisites, requisiteKeyUsage } from './requisite-keys';

/**
 * A populated database from before requisites were encrypted upgrades in place, as the server does at start: the
 * migration adds the hash and mask columns, then every plain card and phone number is encrypted in batches with its
 * hash and mask, and the tables are rewritten so that their files hold no plain number any more.
 */
let db: Awaited<ReturnType<typeof databaseBefore>> | undefined;
afterAll(async () => db?.close());

const M = '11111111-1111-4111-8111-111111111111';
const T = '22222222-2222-4222-8222-222222222222';
const INVOICES = 3000;
/** The n-th customer's card: 8600 and n, 16 digits */
const card = (n: number) => `8600${String(n).padStart(12, '0')}`;
const PHONE = '+998901234567';
const ACCOUNT_CARD = '9860123456789015';

describe.skipIf(!!process.env.DATABASE_URL)('upgrading a populated database to encrypted requisites', () => {
  it('encrypts every plain value in batches, with its hash and mask, and leaves none in the table files', async () => {
    db = await databaseBefore('_encrypted_requisites', { onDisk: true });
    const { dbh, dataDir } = db;
    const q = (text: string, params: unknown[] = []) => dbh.pool.query(text, params);
    await q(`INSERT INTO currencies (id, code, name, dimension) VALUES (1, 'UZS', 'Sum', 2)`);
    await q(`INSERT INTO merchants (id, name, webhook_secret) VALUES ($1, 'Old Shop', 'whsec_x')`, [M]);
    await q(`INSERT INTO providers (id, code, name) VALUES (1, 'BANK', 'Bank')`);
    await q(`INSERT INTO payment_methods (id, code, name, requisite_type, currency_id, country_code, min_amount, max_amount)
             VALUES (1, 'HUMOUZS', 'Humo', 'card', 1, 'UZ', 100, 100000000),
                    (2, 'PHONEUZS', 'Phone', 'phone', 1, 'UZ', 100, 100000000)`);
    await q(`INSERT INTO provider_accounts (id, provider_id, payment_method_id) VALUES (1, 1, 1)`);
    await q(
      `INSERT INTO account_credentials (account_id, credential_type, param_type, value)
             VALUES (1, 'CARD', 'S', $1)`,
      [ACCOUNT_CARD],
    );
    await q(
      `INSERT INTO terminals (id, merchant_id, name, flow_type, currency_id) VALUES ($1, $2, 'T', 'WITHDRAWAL', 1)`,
      [T, M],
    );
    // a day of withdrawals to customers' cards, and one to a phone
    await q(
      `INSERT INTO invoices (merchant_id, terminal_id, merchant_invoice_id, form_id, flow_type, status, amount,
         currency_id, payment_method_id, credential_value, expires_at)
       SELECT $1, $2, 'ORD-' || g, 'form-' || g, 'WITHDRAWAL', 'DONE', 100000, 1, 1,
         '8600' || lpad(g::text, 12, '0'), now()
       FROM generate_series(1, $3::int) g`,
      [M, T, INVOICES],
    );
    await q(
      `INSERT INTO invoices (merchant_id, terminal_id, merchant_invoice_id, form_id, flow_type, status, amount,
         currency_id, payment_method_id, credential_value, expires_at)
       VALUES ($1, $2, 'ORD-phone', 'form-phone', 'WITHDRAWAL', 'DONE', 100000, 1, 2, $3, now())`,
      [M, T, PHONE],
    );
    await q('CHECKPOINT');
    const needles = [card(1), card(1500), card(INVOICES), PHONE, ACCOUNT_CARD];
    // as the previous release left it: the numbers are in the table files
    expect(filesHolding(path.join(dataDir, 'base'), needles).length).toBeGreaterThan(0);

    await runMigrations(dbh);
    const config = loadConfig({ NODE_ENV: 'test' }, { workers: false, dataEncryptionKeyFile: TEST_KEY_FILE });
    const ctx = await createContext(dbh, config);
    expect(await requisiteKeyUsage(ctx)).toMatchObject({ plain: INVOICES + 2 });
    expect(await encryptPlainRequisites(ctx, 500)).toBe(INVOICES + 2);
    const usage = await requisiteKeyUsage(ctx);
    expect(usage.plain).toBe(0);
    expect(Object.values(usage.byKey)).toEqual([INVOICES + 2]);

    // found by their hash, shown by their mask, opened by the key
    const byHash = async (value: string) =>
      (
        await ctx.db.execute<{ value: string; masked: string }>(sql`
          SELECT credential_value AS value, credential_masked AS masked FROM invoices
          WHERE merchant_id = ${M} AND credential_hash = ${ctx.vault.hash(value)}`)
      ).rows;
    for (const [value, masked] of [
      [card(1), '860000******0001'],
      [card(INVOICES), '860000******3000'],
      [PHONE, '+99890*****67'],
    ] as const) {
      const [row, ...more] = await byHash(value);
      expect(more).toEqual([]);
      expect(row!.masked).toBe(masked);
      expect(await ctx.vault.open(ctx.db, 'invoice.credential', row!.value)).toBe(value);
    }
    const [acc] = (
      await ctx.db.execute<{ value: string; masked: string }>(sql`
        SELECT value, value_masked AS masked FROM account_credentials WHERE value_hash = ${ctx.vault.hash(ACCOUNT_CARD)}`)
    ).rows;
    expect(acc!.masked).toBe('986012******9015');
    expect(await ctx.vault.open(ctx.db, 'account.credential', acc!.value)).toBe(ACCOUNT_CARD);

    // the rewrite: the table files (and their indexes) hold no plain number, only ciphertext and masks
    expect(await compactAfterEncryption(ctx)).toBe(true);
    expect(filesHolding(path.join(dataDir, 'base'), needles)).toEqual([]);
    expect(filesHolding(path.join(dataDir, 'base'), ['860000******0001']).length).toBeGreaterThan(0);
  }, 120_000);
});
