import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DemoMerchantFile } from './seed';
import { createDb } from './create-db';
import { reconcileLedger } from '../modules/ledger/reconcile';
import { emptyDatabase } from '../../test/global-setup';
import { fetchSigned, invoiceBody, merchantSigner } from '../../test/merchant-client';
import { startServer, stopServer, type ServerProcess } from '../../test/server-process';

/**
 * A rolling upgrade: the previous release serves a PostgreSQL database under load while this release starts on the
 * same database, applies its migrations and serves beside it. Migrations are expand-only (docs/operations.md,
 * "Upgrade"), so the previous release's code keeps working on the migrated schema: every request to either process
 * is answered without a server error, every acknowledged create is in the database, and the books reconcile.
 *
 * PREVIOUS_RELEASE_DIR names the previous release's apps/server, checked out with its own node_modules (`.ci/run`
 * takes the commit before the newest migration, so that this release's start really migrates).
 */
const previous = process.env.PREVIOUS_RELEASE_DIR;

describe.skipIf(!process.env.DATABASE_URL || !previous)('the previous release and this one on one database', () => {
  it('both serve under load while this one migrates; nothing acknowledged is lost; the books reconcile', async () => {
    const db = await emptyDatabase(process.env.DATABASE_URL!, 'paydesk_rolling');
    const servers: ServerProcess[] = [];
    try {
      const old = await startServer('rolling-old', db.url, { SEED_DEMO: 'true' }, { serverDir: previous });
      servers.push(old);
      const migrationsBefore = await migrationCount(db.url);
      const demo = JSON.parse(
        fs.readFileSync(path.join(old.dataDir, 'demo-merchant.json'), 'utf8'),
      ) as DemoMerchantFile;
      const sign = merchantSigner(demo.merchantId, demo.privateKeyPem);
      const deposit = demo.terminals.find((t) => t.flowType === 'DEPOSIT' && t.currency === 'UZS' && !t.isTest)!;

      const acknowledged: string[] = [];
      const failures: string[] = [];
      const counts = new Map<string, number>();
      let customer = 0;
      /** A customer's deposit through one server: created by the merchant, requisites asked for on the form. */
      const pay = async (s: ServerProcess) => {
        const body = invoiceBody(deposit, { amount: 1_000_00 + (++customer % 500) * 100 });
        const created = await fetchSigned(s.base, sign, 'POST', '/api/merchant/v1/invoices', body);
        if (created.status !== 201) return void failures.push(`${s.name} create ${created.status}`);
        acknowledged.push(body.merchantInvoiceId);
        const formId = created.json.data.formId as string;
        const headers = {
          'content-type': 'application/json',
          'x-forwarded-for': `10.7.${customer >> 8}.${customer & 255}`,
        };
        const init = await fetch(`${s.base}/api/payments/form/${formId}/init`, { method: 'POST', headers });
        if (init.status !== 200) return void failures.push(`${s.name} init ${init.status}`);
        const methods = ((await init.json()) as { data: { methods: { id: number; type: string }[] } }).data.methods;
        const res = await fetch(`${s.base}/api/payments/form/${formId}/credential`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ amount: body.amount, paymentMethodId: methods[0]!.id }),
        });
        // 409: no account had room for this amount; any 5xx is a failure
        if (res.status >= 500) failures.push(`${s.name} credential ${res.status}`);
        counts.set(s.name, (counts.get(s.name) ?? 0) + 1);
      };
      let running = true;
      const load = (pick: () => ServerProcess) =>
        (async () => {
          while (running) await pay(pick());
        })();

      // the previous release alone, then this release starting (and migrating) while it serves
      const loops = [load(() => old), load(() => old)];
      await new Promise((r) => setTimeout(r, 1_000));
      const next = await startServer('rolling-new', db.url, { SEED_DEMO: 'false' });
      servers.push(next);
      expect(await migrationCount(db.url)).toBeGreaterThan(migrationsBefore);
      let turn = 0;
      loops.push(
        load(() => [old, next][turn++ % 2]!),
        load(() => next),
      );
      await new Promise((r) => setTimeout(r, 4_000));
      running = false;
      await Promise.all(loops);

      console.log(
        `rolling upgrade: ${acknowledged.length} creates acknowledged (previous release ${counts.get('rolling-old')} ` +
          `payments, this release ${counts.get('rolling-new')}); ${failures.length} failed`,
      );
      expect(failures).toEqual([]);
      expect(counts.get('rolling-old')).toBeGreaterThan(10);
      expect(counts.get('rolling-new')).toBeGreaterThan(10);
      // both still ready: the previous release's own migrations are all there
      for (const s of servers) expect((await fetch(`${s.base}/api/ready`)).status).toBe(200);
      for (const s of servers) expect(s.output.filter((l) => /"level":(50|60)/.test(l))).toEqual([]);

      const dbh = await createDb({ databaseUrl: db.url, poolMax: 2 });
      try {
        const { rows } = await dbh.pool.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM invoices WHERE merchant_invoice_id = ANY($1::text[])',
          [acknowledged],
        );
        expect(rows[0]!.n).toBe(acknowledged.length);
        expect(await reconcileLedger(dbh.db)).toEqual({ drift: [], unbalanced: [] });
      } finally {
        await dbh.close();
      }
    } finally {
      for (const s of servers) await stopServer(s);
      await db.drop();
    }
  }, 180_000);
});

async function migrationCount(url: string): Promise<number> {
  const dbh = await createDb({ databaseUrl: url, poolMax: 1 });
  try {
    const { rows } = await dbh.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
    return rows[0]!.n;
  } finally {
    await dbh.close();
  }
}
