import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DemoMerchantFile } from './seed';
import { invoiceBody, merchantSigner } from '../../test/merchant-client';
import { canRunCluster, startCluster, type Cluster } from '../../test/pg-cluster';
import { startServer, stopServer, type ServerProcess } from '../../test/server-process';
import { createDb } from './create-db';
import { reconcileLedger } from '../modules/ledger/reconcile';

/**
 * PostgreSQL goes away under load and comes back (a restart, a failover): a server on a cluster of the test's own,
 * creates sent all along. While the database is down every request answers 503 SERVICE_BUSY in the error's shape,
 * never a 500 and never a hang; /api/health stays up and /api/ready says not ready; the workers say so once and back
 * off. Once it is back the server serves again without a restart of its own, and every create it acknowledged is in
 * the database, whose books reconcile. Prints the figures. `.ci/run` runs it (PG_CLUSTER_TESTS=1).
 */
const enabled = !!process.env.PG_CLUSTER_TESTS && canRunCluster;
const DOWN_MS = 5_000;
const CLIENTS = 4;
const CLIENT_TIMEOUT_MS = 15_000;

describe.skipIf(!enabled)('the database restarts under load', () => {
  let cluster: Cluster | undefined;
  let server: ServerProcess | undefined;
  afterAll(async () => {
    // a server that died under the test says why
    if (server && !server.alive)
      console.error(`the server exited; its last lines:\n${server.output.slice(-40).join('\n')}`);
    if (server) await stopServer(server);
    await cluster?.destroy();
  });

  it('503 while it is down, serving again once it is back, no acknowledged write lost', async () => {
    cluster = await startCluster();
    server = await startServer('restart', cluster.url, {
      SEED_DEMO: 'true',
      WORKERS: 'true',
      SANDBOX_DELAY_MS: '300',
      PG_POOL_MAX: '6',
    });
    const base = server.base;
    const demo = JSON.parse(
      fs.readFileSync(path.join(server.dataDir, 'demo-merchant.json'), 'utf8'),
    ) as DemoMerchantFile;
    const sign = merchantSigner(demo.merchantId, demo.privateKeyPem);
    const terminal = demo.terminals.find((t) => t.flowType === 'DEPOSIT' && t.isTest)!;

    type Phase = 'before' | 'down' | 'back';
    let phase: Phase = 'before';
    const counts: Record<Phase, Record<string, number>> = { before: {}, down: {}, back: {} };
    const acknowledged: string[] = [];
    const wrongShape: string[] = [];
    let slowest = 0;
    let backAt = 0;
    let firstServedAfter = 0;
    let stopping = false;
    const client = async () => {
      while (!stopping) {
        const body = invoiceBody(terminal);
        const at = phase;
        const started = performance.now();
        let outcome: string;
        try {
          const r = sign('POST', '/api/merchant/v1/invoices', body);
          const res = await fetch(`${base}/api/merchant/v1/invoices`, {
            method: 'POST',
            headers: r.headers,
            body: r.raw,
            signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
          });
          outcome = String(res.status);
          const json = (await res.json()) as { error?: { code?: string; message?: string } };
          if (res.status === 201) {
            acknowledged.push(body.merchantInvoiceId);
            if (phase === 'back' && !firstServedAfter) firstServedAfter = performance.now();
          } else if (res.status === 503 && (json.error?.code !== 'SERVICE_BUSY' || !json.error.message)) {
            wrongShape.push(JSON.stringify(json));
          }
        } catch (err) {
          outcome = (err as Error).name === 'TimeoutError' ? 'no answer in 15 s' : `failed: ${(err as Error).message}`;
        }
        slowest = Math.max(slowest, performance.now() - started);
        counts[at][outcome] = (counts[at][outcome] ?? 0) + 1;
        if (outcome !== '201') await new Promise((r) => setTimeout(r, 100));
      }
    };
    const clients = Array.from({ length: CLIENTS }, client);

    await new Promise((r) => setTimeout(r, 2_000));
    phase = 'down';
    await cluster.stop('fast');
    await new Promise((r) => setTimeout(r, 1_000));
    const health = await fetch(`${base}/api/health`);
    const ready = await fetch(`${base}/api/ready`);
    const readyBody = (await ready.json()) as { error?: { code?: string } };
    await new Promise((r) => setTimeout(r, DOWN_MS - 1_000));
    phase = 'back';
    backAt = performance.now();
    await cluster.start();
    const startMs = Math.round(performance.now() - backAt);
    const deadline = Date.now() + 60_000;
    while (!firstServedAfter && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 2_000));
    stopping = true;
    await Promise.all(clients);
    const readyAfter = await fetch(`${base}/api/ready`);

    // the database as the server left it: every acknowledged create is there, and the books reconcile
    const dbh = await createDb({ databaseUrl: cluster.url, poolMax: 2 });
    let lost: string[];
    try {
      const { rows } = await dbh.pool.query<{ id: string }>(
        'SELECT merchant_invoice_id AS id FROM invoices WHERE merchant_invoice_id = ANY($1)',
        [acknowledged],
      );
      const found = new Set(rows.map((r) => r.id));
      lost = acknowledged.filter((id) => !found.has(id));
      expect(await reconcileLedger(dbh.db)).toEqual({ drift: [], unbalanced: [] });
    } finally {
      await dbh.close();
    }
    const workerLines = server.output.filter((l) => /worker/.test(l));
    const recoverMs = firstServedAfter ? Math.round(firstServedAfter - backAt) : null;
    console.log(
      [
        `PostgreSQL stopped (pg_ctl -m fast) for ${DOWN_MS / 1000} s under ${CLIENTS} clients creating invoices:`,
        `  answers before: ${JSON.stringify(counts.before)}`,
        `  answers while down: ${JSON.stringify(counts.down)}`,
        `  answers once started again: ${JSON.stringify(counts.back)}`,
        `  slowest answer: ${Math.round(slowest)} ms`,
        `  pg_ctl start took ${startMs} ms; the first create was served ${recoverMs} ms after it was issued`,
        `  acknowledged creates: ${acknowledged.length}, lost: ${lost.length}`,
        `  worker log lines: ${workerLines.length} (once each when paused and when back)`,
      ].join('\n'),
    );

    expect(health.status).toBe(200);
    expect(ready.status).toBe(503);
    expect(readyBody.error?.code).toBe('NOT_READY');
    expect(readyAfter.status).toBe(200);
    // down: only 503s in the error's shape; nothing ever a 500 or without an answer
    expect(Object.keys(counts.down).every((k) => k === '503' || k === '201')).toBe(true);
    expect(counts.down['503']).toBeGreaterThan(0);
    expect(wrongShape).toEqual([]);
    for (const p of ['before', 'down', 'back'] as const) {
      expect(
        Object.keys(counts[p]).filter((k) => !['201', '503'].includes(k)),
        p,
      ).toEqual([]);
    }
    expect(slowest).toBeLessThan(CLIENT_TIMEOUT_MS);
    expect(recoverMs).not.toBeNull();
    expect(counts.back['201']).toBeGreaterThan(0);
    expect(lost).toEqual([]);
    // each loop said it once (paused, back), not at every tick
    expect(workerLines.filter((l) => /worker tick failed/.test(l))).toEqual([]);
  });
});
