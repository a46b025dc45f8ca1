import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import {
  INVOICE_STATUSES,
  FLOW_TYPES,
  PRESET_ROLES,
  isPlatformPermission,
  type PresetRoleCode,
} from '@paydesk/contracts';
import { loadConfig } from '../../config';
import type { AppContext } from '../../lib/context';
import { invoiceEffect } from '../../modules/ledger/postings';
import { createDb, runMigrations, type DbHandle } from '../create-db';
import { luhnValid } from '@paydesk/contracts';
import { PAYMENT_METHODS, REFERENCE_HEADER_IDS } from './reference-data';
import { seedDemoIfEmpty, type DemoMerchantFile } from './index';

const SPEC_HEADERS = [
  99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 110, 111, 112, 113, 114, 200, 201, 202, 203, 204, 205,
];

describe('demo seed', () => {
  let pglite: PGlite;
  let dbh: DbHandle;
  let ctx: AppContext;
  let demo: DemoMerchantFile | null;
  let seedMs = 0;
  const q = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
    (await dbh.pool.query(text, params)).rows as T[];

  beforeAll(async () => {
    pglite = new PGlite();
    dbh = await createDb({ pglite });
    await runMigrations(dbh);
    const now = new Date();
    ctx = { dbh, db: dbh.db, config: loadConfig({ NODE_ENV: 'test' }), now: () => now };
    const started = performance.now();
    demo = await seedDemoIfEmpty(ctx, { writeFile: false });
    seedMs = performance.now() - started;
  });

  afterAll(async () => {
    await dbh?.close();
    await pglite?.close();
  });

  it('seeds and returns the demo merchant file', () => {
    // how long it took is reported, not asserted: speed is the benchmarks' business (a timed test fails on a busy box)
    console.info(`seed took ${Math.round(seedMs)} ms (including one password hash)`);
    expect(demo).not.toBeNull();
    expect(demo!.privateKeyPem).toContain('BEGIN PRIVATE KEY');
    expect(demo!.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(demo!.terminals).toHaveLength(6);
    expect(demo!.terminals.filter((t) => t.isTest)).toHaveLength(2);
  });

  it('creates two merchants, Demo first', async () => {
    const rows = await q<{ id: string; name: string }>('SELECT id, name FROM merchants ORDER BY created_at');
    expect(rows.map((r) => r.name)).toEqual(['Demo Merchant', 'Second Shop']);
    expect(rows[0]!.id).toBe(demo!.merchantId);
  });

  it('creates the demo users with their preset roles', async () => {
    const rows = await q<{ username: string; merchant: string | null; role: string; scope: string }>(
      `SELECT u.username, m.name AS merchant, r.code AS role, u.scope FROM users u JOIN roles r ON r.id = u.role_id LEFT JOIN merchants m ON m.id = u.merchant_id ORDER BY u.username`,
    );
    expect(rows).toEqual([
      { username: 'admin', merchant: null, role: 'platform_admin', scope: 'platform' },
      { username: 'finance', merchant: 'Demo Merchant', role: 'merchant_finance', scope: 'merchant' },
      { username: 'ops', merchant: null, role: 'platform_operator', scope: 'platform' },
      { username: 'owner', merchant: 'Demo Merchant', role: 'merchant_owner', scope: 'merchant' },
      { username: 'shop2', merchant: 'Second Shop', role: 'merchant_owner', scope: 'merchant' },
      { username: 'support', merchant: 'Demo Merchant', role: 'merchant_support', scope: 'merchant' },
      { username: 'viewer', merchant: 'Demo Merchant', role: 'merchant_viewer', scope: 'merchant' },
    ]);
  });

  it('has exactly the preset roles of contracts, and no merchant role or user holds a platform permission', async () => {
    const roles = await q<{ code: string | null; name: string; scope: string; permissions: string[] }>(
      'SELECT code, name, scope, permissions FROM roles ORDER BY id',
    );
    expect(roles.map((r) => r.code).sort()).toEqual(Object.keys(PRESET_ROLES).sort());
    for (const r of roles) {
      const preset = PRESET_ROLES[r.code as PresetRoleCode];
      expect(r, r.code!).toEqual({
        code: r.code,
        name: preset.name,
        scope: preset.scope,
        permissions: [...preset.permissions],
      });
      if (r.scope === 'merchant') expect(r.permissions.filter(isPlatformPermission), r.code!).toEqual([]);
    }
    const merchantUsersWithPlatformRoles = await q(
      `SELECT u.username FROM users u JOIN roles r ON r.id = u.role_id WHERE u.merchant_id IS NOT NULL AND r.scope <> 'merchant'`,
    );
    expect(merchantUsersWithPlatformRoles).toEqual([]);
  });

  it('gives every payment method at least two enabled accounts with credentials and limits', async () => {
    const rows = await q<{ code: string; accounts: number; value: string; type: string; requisite: string }>(
      `SELECT pm.code, pm.requisite_type AS requisite, ac.value, ac.credential_type AS type
         FROM provider_accounts pa
         JOIN payment_methods pm ON pm.id = pa.payment_method_id
         JOIN account_credentials ac ON ac.account_id = pa.id
         JOIN account_limits al ON al.account_id = pa.id
        WHERE pa.enabled AND al."limit" > 0`,
    );
    for (const m of PAYMENT_METHODS) {
      const mine = rows.filter((r) => r.code === m.code);
      expect(mine.length, m.code).toBeGreaterThanOrEqual(2);
      for (const r of mine) {
        if (m.requisiteType === 'card') {
          expect(r.type).toBe('CARD');
          expect(luhnValid(r.value), r.value).toBe(true);
        } else {
          expect(r.type).toBe('PHONE');
          expect(r.value).toMatch(/^\+79\d{9}$/);
        }
      }
    }
    const sandbox = await q<{ n: number }>(
      `SELECT count(DISTINCT pa.payment_method_id)::int AS n FROM provider_accounts pa JOIN providers p ON p.id = pa.provider_id WHERE p.is_sandbox AND pa.enabled`,
    );
    expect(sandbox[0]!.n).toBe(PAYMENT_METHODS.length);
  });

  it('fills every reference header of SPEC §3', async () => {
    expect([...REFERENCE_HEADER_IDS].sort()).toEqual([...SPEC_HEADERS].sort());
    const rows = await q<{ header_id: number; n: number }>(
      'SELECT header_id, count(*)::int AS n FROM "references" GROUP BY header_id',
    );
    for (const h of SPEC_HEADERS)
      expect(rows.find((r) => r.header_id === h)?.n ?? 0, `header ${h}`).toBeGreaterThanOrEqual(2);
    const attrs = await q<{ code: string; param_type: string }>(
      'SELECT code, param_type FROM "references" WHERE header_id = 105',
    );
    expect(attrs.every((a) => ['I', 'S', 'C', 'B', 'N'].includes(a.param_type))).toBe(true);
  });

  it('creates invoice history covering every status and flow', async () => {
    const total = await q<{ n: number }>('SELECT count(*)::int AS n FROM invoices WHERE merchant_id = $1', [
      demo!.merchantId,
    ]);
    expect(total[0]!.n).toBeGreaterThanOrEqual(300);
    const combos = await q<{ flow_type: string; status: string; n: number }>(
      'SELECT flow_type, status, count(*)::int AS n FROM invoices WHERE merchant_id = $1 GROUP BY 1, 2',
      [demo!.merchantId],
    );
    for (const flow of FLOW_TYPES)
      for (const s of INVOICE_STATUSES)
        expect(
          combos.find((c) => c.flow_type === flow && c.status === s.code)?.n ?? 0,
          `${flow} ${s.code}`,
        ).toBeGreaterThan(0);
    const tests = await q<{ is_test: boolean; n: number }>(
      'SELECT is_test, count(*)::int AS n FROM invoices GROUP BY 1',
    );
    expect(tests.length).toBe(2);

    const bad = await q(
      `SELECT i.id FROM invoices i
        LEFT JOIN payment_methods pm ON pm.id = i.payment_method_id
        WHERE i.status_date < i.created_at OR i.created_at > now() + interval '1 minute' OR i.created_at < now() - interval '31 days'
           OR (pm.id IS NOT NULL AND (i.amount < pm.min_amount OR i.amount > pm.max_amount))
           OR (i.status IN ('IN_PROGRESS','PAYED','DONE') AND (i.account_id IS NULL OR i.credential_value IS NULL))`,
    );
    expect(bad).toEqual([]);
    const lastEvent = await q(
      `SELECT i.id FROM invoices i
        JOIN LATERAL (SELECT status, status_date FROM invoice_status_events e WHERE e.invoice_id = i.id ORDER BY status_date DESC, id DESC LIMIT 1) e ON true
       WHERE e.status <> i.status OR e.status_date <> i.status_date`,
    );
    expect(lastEvent).toEqual([]);
    const tickets = await q<{ status: string }>('SELECT DISTINCT status FROM support_tickets');
    expect(tickets.map((t) => t.status).sort()).toEqual(['IN_WORK', 'NEW', 'PENDING', 'REJECTED', 'SOLVED']);
    const cb = await q<{ status: string }>('SELECT DISTINCT status FROM callbacks');
    expect(cb.map((c) => c.status)).toContain('DELIVERED');
    // nothing in the callbacks' history happened after the seed's "now" (an attempt in the future would be shown to
    // an operator, and counted by a test as made by the run after the seed)
    const seededAt = ctx.now().toISOString();
    const future = await q(
      `SELECT c.id FROM callbacks c LEFT JOIN callback_attempts a ON a.callback_id = c.id
        WHERE a.attempted_at > $1::timestamptz OR c.execution_date > $1::timestamptz OR c.create_date > $1::timestamptz
           OR (c.status = 'DELIVERED') <> (c.execution_date IS NOT NULL)`,
      [seededAt],
    );
    expect(future).toEqual([]);
  });

  it('keeps the ledger balanced and consistent with the invoices', async () => {
    const sums = await q<{ currency_id: number; s: number }>(
      'SELECT currency_id, sum(amount)::bigint AS s FROM ledger_entries GROUP BY 1',
    );
    expect(sums.length).toBeGreaterThan(0);
    for (const r of sums) expect(Number(r.s)).toBe(0);
    const perTx = await q('SELECT tx_id FROM ledger_entries GROUP BY tx_id HAVING sum(amount) <> 0');
    expect(perTx).toEqual([]);

    for (const merchantId of [demo!.merchantId]) {
      const invs = await q<{ flow_type: string; status: string; amount: number; fee: number; code: string }>(
        'SELECT i.flow_type, i.status, i.amount, i.fee, c.code FROM invoices i JOIN currencies c ON c.id = i.currency_id WHERE i.merchant_id = $1',
        [merchantId],
      );
      const expected = new Map<string, number>();
      for (const inv of invs)
        for (const leg of invoiceEffect({
          flowType: inv.flow_type,
          status: inv.status,
          amount: Number(inv.amount),
          fee: Number(inv.fee),
        }))
          if (leg.account === 'merchant') expected.set(inv.code, (expected.get(inv.code) ?? 0) - leg.amount);
      const balances = await q<{ code: string; balance: number }>(
        `SELECT c.code, (-sum(l.amount))::bigint AS balance FROM ledger_entries l JOIN currencies c ON c.id = l.currency_id
          WHERE l.merchant_id = $1 AND l.account = 'merchant' GROUP BY c.code`,
        [merchantId],
      );
      expect(Object.fromEntries(balances.map((b) => [b.code, Number(b.balance)]))).toEqual(
        Object.fromEntries(expected),
      );
      for (const b of balances) expect(Number(b.balance), `${b.code} balance`).toBeGreaterThan(0);
    }
    const orphanProviderLegs = await q(
      "SELECT id FROM ledger_entries WHERE account = 'provider_account' AND provider_account_id IS NULL",
    );
    expect(orphanProviderLegs).toEqual([]);
  });

  it('does nothing on a second call', async () => {
    const count = async () =>
      (
        await q<{ n: number }>(
          'SELECT (SELECT count(*) FROM invoices) + (SELECT count(*) FROM users) + (SELECT count(*) FROM "references") AS n',
        )
      )[0]!.n;
    const before = await count();
    expect(await seedDemoIfEmpty(ctx, { writeFile: false })).toBeNull();
    expect(await count()).toBe(before);
  });
});
