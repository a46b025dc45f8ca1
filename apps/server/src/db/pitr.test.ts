import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { DemoMerchantFile } from './seed';
import { fetchSigned, invoiceBody, merchantSigner } from '../../test/merchant-client';
import { canRunCluster, restoreCluster, startCluster, type Cluster } from '../../test/pg-cluster';
import { startServer, stopServer, type ServerProcess } from '../../test/server-process';
import { createDb } from './create-db';
import { reconcileLedger } from '../modules/ledger/reconcile';

/**
 * PostgreSQL's base backup and point-in-time recovery, as docs/operations.md ("Back up") gives them, on a cluster of
 * the test's own with WAL archiving: a base backup taken while the server serves, more creates, a moment noted, more
 * creates; the base backup restored into a fresh cluster and replayed from the archive up to that moment. The
 * restored database has everything committed before the moment and nothing after, and its books reconcile.
 * `.ci/run` runs it (PG_CLUSTER_TESTS=1).
 */
const enabled = !!process.env.PG_CLUSTER_TESTS && canRunCluster;

describe.skipIf(!enabled)('base backup and point-in-time recovery of PostgreSQL', () => {
  const clusters: Cluster[] = [];
  let server: ServerProcess | undefined;
  afterAll(async () => {
    if (server) await stopServer(server);
    for (const c of clusters.reverse()) await c.destroy();
  });

  it('a base backup replayed to a moment has what was committed before it, and its books reconcile', async () => {
    const primary = await startCluster({ archive: true });
    clusters.push(primary);
    server = await startServer('pitr', primary.url, { SEED_DEMO: 'true', WORKERS: 'true', SANDBOX_DELAY_MS: '300' });
    const demo = JSON.parse(
      fs.readFileSync(path.join(server.dataDir, 'demo-merchant.json'), 'utf8'),
    ) as DemoMerchantFile;
    const sign = merchantSigner(demo.merchantId, demo.privateKeyPem);
    const terminal = demo.terminals.find((t) => t.flowType === 'DEPOSIT' && !t.isTest)!;
    const creates = async (n: number) => {
      const ids: string[] = [];
      for (let i = 0; i < n; i++) {
        const body = invoiceBody(terminal);
        const res = await fetchSigned(server!.base, sign, 'POST', '/api/merchant/v1/invoices', body);
        expect(res.status, JSON.stringify(res.json)).toBe(201);
        ids.push(body.merchantInvoiceId);
      }
      return ids;
    };
    const sql = new pg.Client({ connectionString: primary.url });
    await sql.connect();
    try {
      const beforeBackup = await creates(20);
      const base = await primary.baseBackup();
      const beforeMoment = await creates(20);
      // the moment to recover to, on the server's own clock, between two commits
      await new Promise((r) => setTimeout(r, 200));
      const moment = (await sql.query<{ t: string }>('SELECT clock_timestamp()::text AS t')).rows[0]!.t;
      await new Promise((r) => setTimeout(r, 200));
      const afterMoment = await creates(20);
      // everything written so far archived: the restore could replay past the moment, and must not
      const { rows } = await sql.query<{ wal: string }>('SELECT pg_walfile_name(pg_switch_wal()) AS wal');
      const until = Date.now() + 30_000;
      while (!fs.existsSync(path.join(primary.walArchive, rows[0]!.wal)) && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(fs.existsSync(path.join(primary.walArchive, rows[0]!.wal))).toBe(true);

      const started = performance.now();
      const restored = await restoreCluster(base, primary.walArchive, moment);
      clusters.push(restored);
      const check = new pg.Client({ connectionString: restored.url });
      const deadline = Date.now() + 60_000;
      for (;;) {
        try {
          await check.connect();
          break;
        } catch (err) {
          if (Date.now() > deadline) throw err;
          await new Promise((r) => setTimeout(r, 200));
        }
      }
      try {
        // recovery ends at the moment and the cluster is promoted
        while ((await check.query<{ r: boolean }>('SELECT pg_is_in_recovery() AS r')).rows[0]!.r) {
          if (Date.now() > deadline) throw new Error('still in recovery');
          await new Promise((r) => setTimeout(r, 200));
        }
        const recoveredMs = Math.round(performance.now() - started);
        const present = async (ids: string[]) =>
          (
            await check.query<{ n: number }>(
              'SELECT count(*)::int AS n FROM invoices WHERE merchant_invoice_id = ANY($1)',
              [ids],
            )
          ).rows[0]!.n;
        expect(await present(beforeBackup)).toBe(20);
        expect(await present(beforeMoment)).toBe(20);
        expect(await present(afterMoment)).toBe(0);
        const dbh = await createDb({ databaseUrl: restored.url, poolMax: 2 });
        try {
          expect(await reconcileLedger(dbh.db)).toEqual({ drift: [], unbalanced: [] });
        } finally {
          await dbh.close();
        }
        console.log(
          `point-in-time recovery: base backup + ${fs.readdirSync(primary.walArchive).length} archived WAL files ` +
            `replayed to ${moment} in ${recoveredMs} ms; 40 creates before the moment restored, 20 after it not; ` +
            'the books reconcile',
        );
      } finally {
        await check.end();
      }
    } finally {
      await sql.end();
    }
  });
});
