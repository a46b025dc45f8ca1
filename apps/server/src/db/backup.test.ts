import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import type { DemoMerchantFile } from './seed';
import { fetchSigned, invoiceBody, merchantSigner } from '../../test/merchant-client';
import { TMP_DIR } from '../../test/paths';
import { runScript, startServer, stopServer, type ServerProcess } from '../../test/server-process';
import { createDb } from './create-db';
import { reconcileLedger } from '../modules/ledger/reconcile';

/**
 * `npm run backup` of a running server's embedded database and `npm run restore` of it (db/backup.ts): the restored
 * database has what was committed before the backup and nothing after, and its books reconcile. Real processes: the
 * server, then each script, as an operator runs them.
 */
describe.skipIf(!!process.env.DATABASE_URL)('backup and restore of the embedded database', () => {
  const folder = path.join(TMP_DIR, `backups-${process.pid}`);
  let server: ServerProcess | undefined;
  afterAll(async () => {
    if (server) await stopServer(server);
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('a backup taken while the server serves restores what was committed before it, with books that reconcile', async () => {
    server = await startServer('backup', '', {}, { demoData: true });
    const env = { DATA_DIR: server.dataDir, DATA_ENCRYPTION_KEY_FILE: '' };
    const demo = JSON.parse(
      fs.readFileSync(path.join(server.dataDir, 'demo-merchant.json'), 'utf8'),
    ) as DemoMerchantFile;
    const sign = merchantSigner(demo.merchantId, demo.privateKeyPem);
    const terminal = demo.terminals.find((t) => t.flowType === 'DEPOSIT' && !t.isTest)!;
    const create = async () => {
      const body = invoiceBody(terminal);
      const res = await fetchSigned(server!.base, sign, 'POST', '/api/merchant/v1/invoices', body);
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      return body.merchantInvoiceId;
    };

    // bad input: no folder; and a restore while the server runs is refused and changes nothing
    expect((await runScript('backup', [], env)).code).toBe(2);
    const before = await create();
    const backup = await runScript('backup', [folder], env);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/backup: paydesk-.*\.tar\.gz .*from the running server/);
    const after = await create();
    const whileServing = await runScript('restore', [folder], env);
    expect(whileServing.code).toBe(1);
    expect(whileServing.stderr).toMatch(
      /already in use by another server process.*A restore needs the server stopped/s,
    );

    // the manifest describes the dump
    const manifests = fs.readdirSync(folder).filter((f) => f.endsWith('.json'));
    expect(manifests).toHaveLength(1);
    const manifest = JSON.parse(fs.readFileSync(path.join(folder, manifests[0]!), 'utf8'));
    expect(manifest).toMatchObject({ format: 'paydesk-embedded-backup/1', taken: 'from the running server' });
    expect(fs.statSync(path.join(folder, manifest.file)).size).toBe(manifest.bytes);

    await stopServer(server, { keepData: true });
    const restored = await runScript('restore', [folder], env);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/the books reconcile/);
    expect(restored.stdout).toMatch(/kept in .*pgdata\.before-restore-/);

    const db = await PGlite.create(path.join(server.dataDir, 'pgdata'));
    try {
      const has = async (id: string) =>
        (await db.query('SELECT 1 FROM invoices WHERE merchant_invoice_id = $1', [id])).rows.length === 1;
      expect(await has(before)).toBe(true);
      expect(await has(after)).toBe(false);
      // the restore is in the restored database's own audit trail
      const audit = await db.query<{ action: string; target_id: string; actor_kind: string }>(
        "SELECT action, target_id, actor_kind FROM audit_log WHERE action = 'database.restored'",
      );
      expect(audit.rows).toEqual([{ action: 'database.restored', target_id: manifest.file, actor_kind: 'system' }]);
      const dbh = await createDb({ pglite: db, poolMax: 1 });
      try {
        expect(await reconcileLedger(dbh.db)).toEqual({ drift: [], unbalanced: [] });
      } finally {
        await dbh.close();
      }
    } finally {
      await db.close();
    }

    // a damaged copy is refused, and the database stays as restored
    const dump = path.join(folder, manifest.file);
    const bytes = fs.readFileSync(dump);
    bytes[bytes.length >> 1]! ^= 0xff;
    fs.writeFileSync(dump, bytes);
    const damaged = await runScript('restore', [folder], env);
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toMatch(/does not match its manifest/);
    expect(fs.readdirSync(server.dataDir).filter((f) => f.startsWith('pgdata.restoring'))).toEqual([]);

    // with the server stopped, the backup opens the folder itself (under its lock)
    const stopped = await runScript('backup', [path.join(folder, 'stopped')], env);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stdout).toMatch(/from the stopped data folder/);
    expect(fs.existsSync(path.join(server.dataDir, 'server.lock'))).toBe(false);
  });
});
