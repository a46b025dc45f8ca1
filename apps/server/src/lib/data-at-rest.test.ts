import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createDb } from '../db/create-db';
import type { DemoMerchantFile } from '../db/seed';
import { createTestApp } from '../../test/harness';
import { injectSigned, invoiceBody, merchantSigner } from '../../test/merchant-client';
import { TMP_DIR } from '../../test/paths';
import { filesHolding } from '../../test/files';
import { createContext } from './context';

/*
 * A customer's card and phone number are unreadable at rest: after withdrawals to them, neither appears in any file of
 * the embedded database's folder (after a checkpoint, so the table files hold what the write-ahead log did), nor in a
 * pg_dump of a PostgreSQL database. What the database holds is ciphertext, its keyed hash and the masked form.
 */

const CARD = '9860123456789015';
const PHONE = '79161234567';

/** Withdrawals to CARD (UZS, card) and PHONE (RUB, a phone method without a bank), through the payment form. */
async function withdrawToKnownNumbers(app: FastifyInstance, demo: DemoMerchantFile, now: () => Date) {
  const sign = merchantSigner(demo.merchantId, demo.privateKeyPem, now);
  const cases = [
    { currency: 'UZS', type: 'card' as const, credential: CARD },
    { currency: 'RUB', type: 'phone' as const, credential: PHONE },
  ];
  for (const c of cases) {
    const terminal = demo.terminals.find((x) => x.flowType === 'WITHDRAWAL' && x.currency === c.currency && !x.isTest)!;
    const create = await injectSigned(
      app,
      sign,
      'POST',
      '/api/merchant/v1/invoices',
      invoiceBody(terminal, { amount: 1_000_00 }),
    );
    expect(create.statusCode, create.body).toBe(201);
    const { formId } = create.json().data as { formId: string };
    const init = await app.inject({ method: 'POST', url: `/api/payments/form/${formId}/init` });
    const methods = init.json().data.methods as { id: number; type: string; isBankTransfer: boolean }[];
    const method = methods.find((m) => m.type === c.type && !m.isBankTransfer)!;
    const chosen = await app.inject({
      method: 'POST',
      url: `/api/payments/form/${formId}/credential`,
      payload: { amount: 1_000_00, paymentMethodId: method.id },
    });
    expect(chosen.statusCode, chosen.body).toBe(200);
    const done = await app.inject({
      method: 'POST',
      url: `/api/payments/form/${formId}/complete`,
      payload: { credential: c.credential },
    });
    expect(done.statusCode, done.body).toBe(200);
  }
}

describe.skipIf(!!process.env.DATABASE_URL)('the embedded database folder', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'paydesk-at-rest-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('holds neither the card nor the phone number, in the log or the tables, after a checkpoint', async () => {
    const pgdata = path.join(dir, 'pgdata');
    // the run's migrated and seeded template, copied to a folder on disk like the served embedded database
    fs.cpSync(inject('templateFolder'), pgdata, { recursive: true });
    const pglite = await PGlite.create(pgdata);
    const dbh = await createDb({ pglite });
    const config = loadConfig(
      { NODE_ENV: 'test', LOG_LEVEL: 'silent' },
      { workers: false, sandboxDelayMs: 0, dataDir: TMP_DIR },
    );
    const ctx = await createContext(dbh, config);
    const app = await buildApp(ctx);
    const demo = JSON.parse(fs.readFileSync(inject('demoFile'), 'utf8')) as DemoMerchantFile;
    try {
      await withdrawToKnownNumbers(app, demo, ctx.now);
      const stored = await ctx.db.execute<{ credential_value: string; credential_masked: string }>(sql`
        SELECT credential_value, credential_masked FROM invoices
        WHERE credential_hash IN (${ctx.vault.hash(CARD)}, ${ctx.vault.hash(PHONE)}) ORDER BY credential_masked`);
      expect(stored.rows.map((r) => r.credential_masked).sort()).toEqual(['7916*****67', '986012******9015']);
      for (const r of stored.rows) expect(r.credential_value).toMatch(/^v1:/);
      await ctx.db.execute(sql`CHECKPOINT`);
    } finally {
      await app.close();
      await dbh.close();
      await pglite.close();
    }
    expect(filesHolding(pgdata, [CARD, PHONE])).toEqual([]);
    // the folder does hold what was written then: the masked forms beside the ciphertext
    expect(filesHolding(pgdata, ['986012******9015', '7916*****67']).length).toBeGreaterThan(0);
    // the check itself finds a number that is there
    fs.writeFileSync(path.join(pgdata, 'probe'), `x${CARD}x`);
    expect(filesHolding(pgdata, [CARD])).toEqual(['probe']);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('a pg_dump of the PostgreSQL database', () => {
  it('holds neither the card nor the phone number', async () => {
    const t = await createTestApp();
    try {
      await withdrawToKnownNumbers(t.app, t.demo, t.clock.now);
      const [{ db }] = (await t.ctx.db.execute<{ db: string }>(sql`SELECT current_database() AS db`)).rows as [
        { db: string },
      ];
      const url = new URL(process.env.DATABASE_URL!);
      url.pathname = `/${db}`;
      const bin = fs.existsSync('/usr/lib/postgresql/15/bin/pg_dump')
        ? '/usr/lib/postgresql/15/bin/pg_dump'
        : 'pg_dump';
      const { stdout } = await promisify(execFile)(bin, ['--data-only', url.toString()], { maxBuffer: 1 << 30 });
      expect(stdout).toContain('986012******9015'); // the dump is of the right database
      expect(stdout).not.toContain(CARD);
      expect(stdout).not.toContain(PHONE);
    } finally {
      await t.close();
    }
  });
});
