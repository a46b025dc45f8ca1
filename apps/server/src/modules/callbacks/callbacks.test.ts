import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { sql } from 'drizzle-orm';
import { CALLBACK_BACKOFF_CAP_MS, callbackBackoffMs } from '@paydesk/contracts';
import { createTestApp, type TestApp } from '../../../test/harness';
import { injectSigned, invoiceBody, merchantSigner, startReceiver } from '../../../test/merchant-client';
import { tickCallbacks } from './service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

async function cancelledInvoices(n: number, callbackUrl: string) {
  const sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
  const terminal = t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && !x.isTest)!;
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const c = await injectSigned(
      t.app,
      sign,
      'POST',
      '/api/merchant/v1/invoices',
      invoiceBody(terminal, { callbackUrl }),
    );
    const id = c.json().data.invoiceId as string;
    expect((await injectSigned(t.app, sign, 'POST', `/api/merchant/v1/invoices/${id}/cancel`)).statusCode).toBe(200);
    ids.push(id);
  }
  return ids;
}

describe('callback delivery', () => {
  it('backoff: 30 s doubling, capped at 1 h', () => {
    expect([1, 2, 3, 4].map(callbackBackoffMs)).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect(callbackBackoffMs(50)).toBe(CALLBACK_BACKOFF_CAP_MS);
  });

  it('a receiver that refuses for 6 simulated hours, then accepts, gets every callback; same webhook-id, fresh timestamps', async () => {
    let up = false;
    const rx = await startReceiver(
      () => (up ? 204 : 503),
      () => [t.demo.webhookSecret],
    );
    try {
      const ids = await cancelledInvoices(5, rx.url);
      const end = t.clock.now().getTime() + 6 * 3600_000;
      while (t.clock.now().getTime() < end) {
        await tickCallbacks(t.ctx);
        t.clock.advance(5 * 60_000);
      }
      expect(rx.received).toHaveLength(0);
      expect(rx.refused.length).toBeGreaterThanOrEqual(5 * 8);
      up = true;
      t.clock.advance(CALLBACK_BACKOFF_CAP_MS);
      while ((await tickCallbacks(t.ctx)) > 0);
      const rows = await t.ctx.db.execute<{ id: string; status: string; attempts: number; invoice_id: string }>(
        sql`SELECT id, status, attempts, invoice_id FROM callbacks WHERE invoice_id IN (${sql.join(
          ids.map((i) => sql`${i}`),
          sql`, `,
        )})`,
      );
      expect(rows.rows).toHaveLength(5);
      for (const r of rows.rows) {
        expect(r.status).toBe('DELIVERED');
        expect(r.attempts).toBeGreaterThan(8);
      }
      expect(new Set(rx.received.map((h) => h.headers['webhook-id']))).toEqual(new Set(rows.rows.map((r) => r.id)));
      const wh = new Webhook(t.demo.webhookSecret);
      // the simulated clock is hours ahead, past the library's 5-minute tolerance: check the signature itself
      for (const h of rx.received) {
        const ts = new Date(Number(h.headers['webhook-timestamp']) * 1000);
        expect(wh.sign(h.headers['webhook-id']!, ts, h.body)).toBe(h.headers['webhook-signature']);
        expect(JSON.parse(h.body)).toMatchObject({ status: 'CANCELED' });
      }
      const one = rows.rows[0]!.id;
      const stamps = rx.refused
        .filter((h) => h.headers['webhook-id'] === one)
        .map((h) => h.headers['webhook-timestamp']);
      expect(new Set(stamps).size).toBe(stamps.length);
      const attempts = await t.ctx.db.execute<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM callback_attempts WHERE callback_id = ${one}`,
      );
      expect(Number(attempts.rows[0]!.n)).toBe(rows.rows[0]!.attempts);
    } finally {
      t.clock.reset();
      await rx.close();
    }
  });

  it('gives up after 72 h (FAILED), keeping every attempt', async () => {
    const rx = await startReceiver(
      () => 500,
      () => [t.demo.webhookSecret],
    );
    try {
      const [id] = await cancelledInvoices(1, rx.url);
      for (let h = 0; h < 74; h++) {
        await tickCallbacks(t.ctx);
        t.clock.advance(3600_000);
      }
      const [row] = (
        await t.ctx.db.execute<{ status: string; attempts: number }>(
          sql`SELECT status, attempts FROM callbacks WHERE invoice_id = ${id}`,
        )
      ).rows;
      expect(row!.status).toBe('FAILED');
      expect(row!.attempts).toBeGreaterThan(60);
    } finally {
      t.clock.reset();
      await rx.close();
    }
  });
});

describe('callback egress guard (production default)', () => {
  it('never sends a callback to a loopback address; the refusal is recorded as an attempt', async () => {
    const rx = await startReceiver(
      () => 204,
      () => [t.demo.webhookSecret],
    );
    const allow = t.ctx.config.callbackAllowPrivate;
    t.ctx.config.callbackAllowPrivate = false;
    try {
      const [id] = await cancelledInvoices(1, rx.url);
      t.clock.advance(CALLBACK_BACKOFF_CAP_MS);
      await tickCallbacks(t.ctx);
      expect(rx.received).toHaveLength(0);
      const attempts = await t.ctx.db.execute<{ error: string | null; response_code: number | null }>(sql`
        SELECT a.error, a.response_code FROM callback_attempts a JOIN callbacks c ON c.id = a.callback_id
        WHERE c.invoice_id = ${id!}`);
      expect(attempts.rows.length).toBeGreaterThan(0);
      expect(attempts.rows[0]!.response_code).toBeNull();
      expect(attempts.rows[0]!.error).toMatch(/private address/);
    } finally {
      t.ctx.config.callbackAllowPrivate = allow;
      await rx.close();
    }
  });
});
