import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { DemoMerchantFile } from '../db/seed';
import { createDb } from '../db/create-db';
import { loadConfig } from '../config';
import { createContext } from '../lib/context';
import { DATA_PURPOSES } from '../lib/data-crypto';
import { requisiteKeyUsage } from '../lib/requisite-keys';
import { SERVER_CONTROL_FILE } from '../lib/server-control';
import { fetchSigned, invoiceBody, merchantSigner } from '../../test/merchant-client';
import { TEST_KEY_FILE } from '../../test/paths';
import { runScript, startServer, stopServer, type ServerProcess } from '../../test/server-process';

/**
 * `npm run rotate-data-key` on the embedded database while the server serves it and customers keep submitting card
 * numbers: the script asks the running server to rotate (lib/server-control.ts), every value ends under the new key
 * and still opens, the old key is retired, and the rotation is audited once. Then the same script on the stopped
 * folder, which it opens itself. Real processes, as an operator runs them.
 */
describe.skipIf(!!process.env.DATABASE_URL)('rotate-data-key on the embedded database', () => {
  let server: ServerProcess | undefined;
  afterAll(async () => {
    if (server) await stopServer(server);
  });

  it('rotates through the running server under traffic, then on the stopped folder', async () => {
    server = await startServer('rotate', '', {}, { demoData: true });
    const srv = server;
    const env = { DATA_DIR: srv.dataDir, DATA_ENCRYPTION_KEY_FILE: TEST_KEY_FILE };
    const demo = JSON.parse(fs.readFileSync(path.join(srv.dataDir, 'demo-merchant.json'), 'utf8')) as DemoMerchantFile;
    const sign = merchantSigner(demo.merchantId, demo.privateKeyPem);
    const terminal = demo.terminals.find((t) => t.flowType === 'WITHDRAWAL' && t.currency === 'UZS' && !t.isTest)!;
    let customer = 0;
    /** A customer's withdrawal to a card: created by the merchant, the card given on the payment form. */
    const withdraw = async (card: string) => {
      const created = await fetchSigned(
        srv.base,
        sign,
        'POST',
        '/api/merchant/v1/invoices',
        invoiceBody(terminal, { amount: 1_000_00 }),
      );
      expect(created.status, JSON.stringify(created.json)).toBe(201);
      const formId = created.json.data.formId as string;
      const headers = { 'content-type': 'application/json', 'x-forwarded-for': `10.9.0.${++customer}` };
      const post = (step: string, body?: object) =>
        fetch(`${srv.base}/api/payments/form/${formId}/${step}`, {
          method: 'POST',
          headers,
          body: body ? JSON.stringify(body) : undefined,
        });
      const init = (await (await post('init')).json()) as { data: { methods: { id: number; type: string }[] } };
      const method = init.data.methods.find((m) => m.type === 'card')!;
      expect((await post('credential', { amount: 1_000_00, paymentMethodId: method.id })).status).toBe(200);
      expect((await post('complete', { credential: card })).status).toBe(200);
    };
    const cards = ['9860123456789015', '4111111111111111', '5555555555554444'];
    for (const c of cards) await withdraw(c);

    // bad input is refused before anything is asked of the server
    const bad = await runScript('rotate-data-key', ['--batch', '0'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--batch must be a whole number from 1 to 10000/);

    // the rotation runs while customers keep giving card numbers
    let traffic = true;
    const more = ['6011111111111117', '3530111333300000', '2221000000000009'];
    const during = (async () => {
      for (const c of more) if (traffic) await withdraw(c);
    })();
    const rotated = await runScript('rotate-data-key', ['--batch', '2'], env);
    traffic = false;
    await during;
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(rotated.stdout).toMatch(/the server is running: it rotates the keys/);
    expect(rotated.stdout).toMatch(/rotate-data-key: rotating onto data key \S+/);
    expect(rotated.stdout).toMatch(/rotate-data-key: active key \S+; \d+ values re-encrypted; retired \S+/);
    const newKey = /active key (\S+);/.exec(rotated.stdout)![1]!;
    // the server serves on; a withdrawal after the rotation is sealed under the new key
    await withdraw('4000056655665556');

    await stopServer(srv, { keepData: true });
    expect(fs.existsSync(path.join(srv.dataDir, SERVER_CONTROL_FILE))).toBe(false);
    const check = async (activeKey: string) => {
      const db = await PGlite.create(path.join(srv.dataDir, 'pgdata'));
      const dbh = await createDb({ pglite: db, poolMax: 1 });
      try {
        const config = loadConfig({ NODE_ENV: 'test' }, { workers: false, dataEncryptionKeyFile: TEST_KEY_FILE });
        const ctx = await createContext(dbh, config);
        expect(await requisiteKeyUsage(ctx)).toMatchObject({ plain: 0, byKey: { [activeKey]: expect.any(Number) } });
        expect(Object.keys((await requisiteKeyUsage(ctx)).byKey)).toEqual([activeKey]);
        const stored = await ctx.db.execute<{ credential_value: string }>(
          sql`SELECT credential_value FROM invoices WHERE credential_value IS NOT NULL`,
        );
        const opened = await Promise.all(
          stored.rows.map((r) => ctx.vault.open(ctx.db, DATA_PURPOSES.invoiceCredential, r.credential_value)),
        );
        for (const c of [...cards, ...more, '4000056655665556']) expect(opened).toContain(c);
        const audit = await ctx.db.execute<{ action: string; n: number }>(sql`
          SELECT action, count(*)::int AS n FROM audit_log WHERE action LIKE 'data_key.rotation_%'
          GROUP BY action ORDER BY action`);
        return audit.rows;
      } finally {
        await dbh.close();
        await db.close();
      }
    };
    expect(await check(newKey)).toEqual([
      { action: 'data_key.rotation_finished', n: 1 },
      { action: 'data_key.rotation_started', n: 1 },
    ]);

    // no server: the script opens the folder itself
    const offline = await runScript('rotate-data-key', [], env);
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stdout).not.toMatch(/the server is running/);
    const offlineKey = /active key (\S+);/.exec(offline.stdout)![1]!;
    expect(offlineKey).not.toBe(newKey);
    expect(await check(offlineKey)).toEqual([
      { action: 'data_key.rotation_finished', n: 2 },
      { action: 'data_key.rotation_started', n: 2 },
    ]);
  }, 240_000);
});
