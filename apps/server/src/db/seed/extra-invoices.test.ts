import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVOICE_TOTAL_CAP } from '@paydesk/contracts';
import { loadConfig } from '../../config';
import { createTestDb } from '../../../test/harness';
import type { DbHandle } from '../create-db';
import { seedExtraInvoices } from './extra-invoices';

const EXTRA = INVOICE_TOTAL_CAP + 500;

describe('SEED_EXTRA_INVOICES', () => {
  let dbh: DbHandle;
  let extraMs = 0;
  const q = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    (await dbh.pool.query(text, params)).rows as T[];

  // the demo data as the seed leaves it (the suite's template), then the extra invoices the seed adds to it with the
  // option on (db/seed/index.ts); the browser tests' servers start with it and page past the list's cap
  beforeAll(async () => {
    dbh = await createTestDb();
    const [second] = await q<{ id: string }>(`SELECT id FROM merchants WHERE name = 'Second Shop'`);
    const started = performance.now();
    await dbh.db.transaction((tx) => seedExtraInvoices(tx, second!.id, EXTRA, Date.now()));
    extraMs = performance.now() - started;
  }, 120_000);

  afterAll(async () => {
    await dbh?.close();
  });

  it('adds that many canceled invoices to Second Shop only, older than its demo history', async () => {
    console.info(`${EXTRA} extra invoices took ${Math.round(extraMs)} ms`);
    const rows = await q<{ name: string; extra: number; other: number; newest_extra: string; oldest_other: string }>(
      `SELECT m.name,
              count(*) FILTER (WHERE i.merchant_invoice_id LIKE 'EXTRA-%')::int AS extra,
              count(*) FILTER (WHERE i.merchant_invoice_id NOT LIKE 'EXTRA-%')::int AS other,
              max(i.created_at) FILTER (WHERE i.merchant_invoice_id LIKE 'EXTRA-%') AS newest_extra,
              min(i.created_at) FILTER (WHERE i.merchant_invoice_id NOT LIKE 'EXTRA-%') AS oldest_other
       FROM merchants m JOIN invoices i ON i.merchant_id = m.id GROUP BY m.name ORDER BY m.name`,
    );
    const demo = rows.find((r) => r.name === 'Demo Merchant')!;
    const second = rows.find((r) => r.name === 'Second Shop')!;
    expect(demo.extra).toBe(0);
    expect(second.extra).toBe(EXTRA);
    expect(second.other).toBeGreaterThan(0);
    expect(new Date(second.newest_extra).getTime()).toBeLessThan(new Date(second.oldest_other).getTime());
  });

  it('moves no money: canceled, no ledger entries, each in its terminal’s flow and currency', async () => {
    const [r] = await q<{ statuses: string[]; ledger: number; mismatched: number; terminals: number }>(
      `SELECT array_agg(DISTINCT i.status) AS statuses,
              (SELECT count(*)::int FROM ledger_entries l JOIN invoices x ON x.id = l.invoice_id
                WHERE x.merchant_invoice_id LIKE 'EXTRA-%') AS ledger,
              count(*) FILTER (WHERE i.flow_type <> t.flow_type OR i.currency_id <> t.currency_id
                                 OR i.is_test <> t.is_test OR t.merchant_id <> i.merchant_id)::int AS mismatched,
              count(DISTINCT i.terminal_id)::int AS terminals
       FROM invoices i JOIN terminals t ON t.id = i.terminal_id WHERE i.merchant_invoice_id LIKE 'EXTRA-%'`,
    );
    expect(r).toEqual({ statuses: ['CANCELED'], ledger: 0, mismatched: 0, terminals: 2 });
  });

  it('is off by default', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).seedExtraInvoices).toBe(0);
    expect(() => loadConfig({ NODE_ENV: 'test', SEED_EXTRA_INVOICES: '-1' })).toThrow(/SEED_EXTRA_INVOICES/);
  });
});
