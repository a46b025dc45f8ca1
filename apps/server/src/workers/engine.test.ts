import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness';
import { injectSigned, invoiceBody, merchantSigner, startReceiver } from '../../test/merchant-client';
import { engineLoops, type Yielding } from './engine';
import { trafficOf } from './traffic';

const log = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

/**
 * The engine's loops as the embedded default runs them (workers/index.ts), on whichever database the suite uses: the
 * probes' SQL, the nudge from the app's request hook, the gate on its traffic.
 */
describe('engine loops that yield to requests', () => {
  // the request hook that nudges is the embedded database's (app.ts registers it there only)
  it.skipIf(Boolean(process.env.DATABASE_URL))(
    'an idle, backed-off callback loop is nudged by the write that enqueued a callback: delivered within ~1 s',
    async () => {
      const traffic = trafficOf(t.ctx);
      const yielding: Yielding = {
        gate: () => traffic.quiet({ quietMs: 20, maxWaitMs: 1000 }),
        onWork: (nudgeAll) => traffic.onWork(nudgeAll),
      };
      const rx = await startReceiver(
        () => 204,
        () => [t.demo.webhookSecret],
      );
      const loops = engineLoops(t.ctx, log, yielding);
      try {
        // whatever the seed left due is handled; then the loops are idle and back off (1, 2, 4 s… up to 10 s)
        for (let i = 0; i < 60; i++) {
          const due = await t.ctx.db.execute<{ n: number }>(
            sql`SELECT count(*)::int AS n FROM callbacks WHERE status = 'PENDING' AND next_attempt_at <= now()`,
          );
          if (due.rows[0]!.n === 0) break;
          await sleep(500);
        }
        await sleep(4000);

        const sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
        const terminal = t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && !x.isTest)!;
        const c = await injectSigned(
          t.app,
          sign,
          'POST',
          '/api/merchant/v1/invoices',
          invoiceBody(terminal, { callbackUrl: rx.url }),
        );
        expect(c.statusCode).toBe(201);
        const id = c.json().data.invoiceId as string;
        const started = performance.now();
        expect((await injectSigned(t.app, sign, 'POST', `/api/merchant/v1/invoices/${id}/cancel`)).statusCode).toBe(
          200,
        );
        while (!rx.received.some((h) => h.body.includes(id)) && performance.now() - started < 8000) await sleep(20);
        const took = performance.now() - started;
        expect(rx.received.some((h) => h.body.includes(id))).toBe(true);
        // the loop's base interval (1 s) and the gate's quiet gap, not its idle back-off (already 4 s and more)
        expect(took).toBeLessThan(2500);
      } finally {
        await Promise.all(loops.map((l) => l.stop()));
        await rx.close();
      }
    },
  );

  it('a tick waits for the request in flight (bounded): it runs once the request has ended', async () => {
    const traffic = trafficOf(t.ctx);
    let gated = 0;
    const yielding: Yielding = {
      gate: async () => {
        gated++;
        return traffic.quiet({ quietMs: 20, maxWaitMs: 30_000 });
      },
      onWork: () => undefined,
    };
    let ended = false;
    const end = traffic.begin();
    const loops = engineLoops(t.ctx, log, yielding);
    try {
      // every loop reached its gate (first ticks after at most 1 s) and is held there
      for (let i = 0; i < 100 && gated < loops.length; i++) await sleep(50);
      expect(gated).toBe(loops.length);
      const before = await t.app.inject({ method: 'GET', url: '/metrics' });
      expect(before.statusCode).toBe(200);
      await sleep(300);
      // nothing has ticked: the metrics report no tick duration for the engine's loops yet
      const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      expect(metrics).not.toMatch(/paydesk_worker_tick_duration_seconds\{worker="(callbacks|sandbox|expiry)"\}/);
      ended = true;
      end();
      let ticked = '';
      for (let i = 0; i < 100 && !ticked; i++) {
        await sleep(50);
        const m = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
        ticked = /paydesk_worker_tick_duration_seconds\{worker="callbacks"\}/.test(m) ? m : '';
      }
      expect(ticked).not.toBe('');
    } finally {
      if (!ended) end();
      await Promise.all(loops.map((l) => l.stop()));
    }
  });
});
