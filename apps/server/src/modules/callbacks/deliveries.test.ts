import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { CALLBACK_GIVE_UP_MS, type CallbackDelivery, type EndpointHealth } from '@paydesk/contracts';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';
import { injectSigned, invoiceBody, merchantSigner, startReceiver, type Signer } from '../../../test/merchant-client';
import { givenUpSchedule, OUTAGE_FROM_DAYS_AGO, OUTAGE_TO_DAYS_AGO } from '../../db/seed/callback-outage';
import { endpointHealth } from './deliveries';
import { checkCallbackInvariants } from './invariants.testkit';
import { tickCallbacks } from './service';

/**
 * Callback deliveries across invoices and each merchant's endpoint health, over HTTP, for every kind of user: who may
 * read them, whose rows each sees, the filters and their pages, and the health figures against their definitions.
 */
let t: TestApp;
let sign: Signer;
let shop2Id = '';
const cookies: Record<string, string> = {};
const USERS = ['owner', 'support', 'finance', 'viewer', 'shop2', 'admin', 'ops'] as const;

beforeAll(async () => {
  t = await createTestApp();
  sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
  for (const u of USERS) cookies[u] = await loginAs(t.app, u);
  shop2Id = (await q<{ id: string }>(sql`SELECT merchant_id AS id FROM users WHERE username = 'shop2'`))[0]!.id;
});
afterAll(async () => t?.close());

const q = async <T extends Record<string, unknown>>(s: ReturnType<typeof sql>) => (await t.ctx.db.execute<T>(s)).rows;
const get = (who: string, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: cookies[who]! } });
const qs = (o: Record<string, string | number | undefined>) =>
  new URLSearchParams(
    Object.entries(o).filter((e): e is [string, string | number] => e[1] !== undefined) as [string, string][],
  ).toString();

async function list(who: string, query: Record<string, string | number | undefined> = {}) {
  const res = await get(who, `/api/v1/callbacks?${qs(query)}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: CallbackDelivery[]; next: string | null };
}
/** Every page of a filter, following `next`. */
async function all(who: string, query: Record<string, string | number | undefined> = {}) {
  const rows: CallbackDelivery[] = [];
  let after: string | undefined;
  for (let i = 0; i < 100; i++) {
    const page = await list(who, { ...query, limit: 200, after });
    rows.push(...page.data);
    if (!page.next) return rows;
    after = page.next;
  }
  throw new Error('more than 100 pages');
}
const newestFirst = (rows: CallbackDelivery[]) =>
  rows.every(
    (r, i) =>
      i === 0 ||
      rows[i - 1]!.createDate > r.createDate ||
      (rows[i - 1]!.createDate === r.createDate && rows[i - 1]!.id > r.id),
  );

describe('GET /api/v1/callbacks: who may list, and whose rows', () => {
  it('merchant staff with merchant.callback.read and platform staff may list; finance and viewer may not', async () => {
    const codes = Object.fromEntries(
      await Promise.all(USERS.map(async (u) => [u, (await get(u, '/api/v1/callbacks')).statusCode] as const)),
    );
    expect(codes).toEqual({ owner: 200, support: 200, finance: 403, viewer: 403, shop2: 200, admin: 200, ops: 200 });
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/callbacks' })).statusCode).toBe(401);
  });

  it("merchant staff see their own merchant's deliveries only, whatever merchant they name", async () => {
    for (const [who, own, other] of [
      ['owner', t.demo.merchantId, shop2Id],
      ['support', t.demo.merchantId, shop2Id],
      ['shop2', shop2Id, t.demo.merchantId],
    ] as const) {
      for (const merchant of [undefined, other, own]) {
        const page = await list(who, { merchant, limit: 200 });
        expect(page.data.length, `${who} ${merchant}`).toBeGreaterThan(0);
        expect(new Set(page.data.map((r) => r.merchantId)), `${who} named ${merchant}`).toEqual(new Set([own]));
      }
    }
    // Second Shop's whole history: never one of Demo Merchant's rows, on any page
    const shop2Rows = await all('shop2', { merchant: t.demo.merchantId });
    expect(shop2Rows.filter((r) => r.merchantId !== shop2Id)).toEqual([]);
  });

  it('platform staff see every merchant, or the one they name (404 for none)', async () => {
    for (const who of ['admin', 'ops'] as const) {
      const demo = await list(who, { merchant: t.demo.merchantId, limit: 200 });
      expect(new Set(demo.data.map((r) => r.merchantId))).toEqual(new Set([t.demo.merchantId]));
      const shop2 = await all(who, { merchant: shop2Id });
      expect(shop2.length).toBeGreaterThan(0);
      expect(new Set(shop2.map((r) => r.merchantId))).toEqual(new Set([shop2Id]));
      const everyone = await all(who, { status: 'DELIVERED', type: 'invoice.status' });
      expect(new Set(everyone.map((r) => r.merchantId))).toEqual(new Set([t.demo.merchantId, shop2Id]));
      const unknown = await get(who, '/api/v1/callbacks?merchant=00000000-0000-4000-8000-000000000000');
      expect(unknown.statusCode).toBe(404);
    }
  });
});

describe('GET /api/v1/callbacks: filters and pages', () => {
  it('pages by position, newest first, without gaps or repeats; every filter holds on every row', async () => {
    const whole = await all('owner');
    const [n] = await q<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM callbacks WHERE merchant_id = ${t.demo.merchantId}`,
    );
    expect(whole).toHaveLength(Number(n!.n));
    expect(new Set(whole.map((r) => r.id)).size).toBe(whole.length);
    expect(newestFirst(whole)).toBe(true);
    // small pages give the same sequence
    const first = await list('owner', { limit: 7 });
    const second = await list('owner', { limit: 7, after: first.next! });
    expect([...first.data, ...second.data].map((r) => r.id)).toEqual(whole.slice(0, 14).map((r) => r.id));

    const failed = await all('owner', { status: 'FAILED' });
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((r) => r.status === 'FAILED')).toBe(true);
    expect(failed.map((r) => r.id).sort()).toEqual(
      whole
        .filter((r) => r.status === 'FAILED')
        .map((r) => r.id)
        .sort(),
    );
    const manual = await all('owner', { type: 'invoice.manual' });
    expect(manual.length).toBeGreaterThan(0);
    expect(manual.map((r) => r.id)).toEqual(whole.filter((r) => r.type === 'invoice.manual').map((r) => r.id));

    const mid = whole[Math.floor(whole.length / 2)]!.createDate;
    const late = whole[Math.floor(whole.length / 4)]!.createDate;
    const range = await all('owner', { from: mid, to: late });
    expect(range.map((r) => r.id)).toEqual(
      whole.filter((r) => r.createDate >= mid && r.createDate < late).map((r) => r.id),
    );
    const inv = whole.find((r) => r.type === 'invoice.manual')!.invoiceId;
    const ofInvoice = await all('owner', { invoiceId: inv });
    expect(ofInvoice.map((r) => r.id)).toEqual(whole.filter((r) => r.invoiceId === inv).map((r) => r.id));
    expect((await all('owner', { invoiceId: inv, type: 'invoice.manual' })).every((r) => r.invoiceId === inv)).toBe(
      true,
    );
    // another merchant's invoice: nothing (not even that it exists)
    const foreign = await all('shop2', { invoiceId: inv });
    expect(foreign).toEqual([]);
  });

  it('a row says what was sent, where, how often and what came back', async () => {
    const [row] = (await list('owner', { status: 'FAILED', limit: 1 })).data;
    const [db] = await q<{
      payload: { type: string; merchantInvoiceId: string };
      attempts: number;
      url: string;
      invoice_status: string;
    }>(sql`SELECT payload, attempts, url, invoice_status FROM callbacks WHERE id = ${row!.id}`);
    const [last] = await q<{ response_code: number | null; error: string | null }>(
      sql`SELECT response_code, error FROM callback_attempts WHERE callback_id = ${row!.id}
          ORDER BY attempted_at DESC, id DESC LIMIT 1`,
    );
    expect(row).toMatchObject({
      type: db!.payload.type,
      merchantInvoiceId: db!.payload.merchantInvoiceId,
      merchantName: 'Demo Merchant',
      attempts: Number(db!.attempts),
      invoiceStatus: db!.invoice_status,
      lastResponseCode: last!.response_code,
      lastError: last!.error,
      nextAttemptAt: null,
      replayOf: null,
    });
    expect(row!.url).toBe(db!.url.split('?')[0]);
    expect(row!.executionDate).not.toBeNull();
  });

  it('a URL is shown without its query string or credentials', async () => {
    const terminal = t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && !x.isTest && x.currency === 'UZS')!;
    const res = await injectSigned(
      t.app,
      sign,
      'POST',
      '/api/merchant/v1/invoices',
      invoiceBody(terminal, { callbackUrl: 'http://user:secret@127.0.0.1:9/paydesk?token=abc' }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.invoiceId as string;
    expect((await injectSigned(t.app, sign, 'POST', `/api/merchant/v1/invoices/${id}/cancel`)).statusCode).toBe(200);
    const rows = await all('owner', { invoiceId: id });
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.url).toBe('http://127.0.0.1:9/paydesk');
  });

  it('bad filters are 400 with the field named', async () => {
    const bad: [string, string][] = [
      ['status=NOPE', 'status'],
      ['type=invoice.deleted', 'type'],
      ['from=yesterday', 'from'],
      ['to=2026-13-01T00:00:00Z', 'to'],
      ['invoiceId=123', 'invoiceId'],
      ['merchant=acme', 'merchant'],
      ['after=2026-01-01', 'after'],
      ['after=2026-01-01T00:00:00Z_1', 'after'],
      ['limit=0', 'limit'],
      ['limit=201', 'limit'],
      ['merchantId=00000000-0000-4000-8000-000000000000', 'merchantId'],
    ];
    for (const [query, field] of bad) {
      const res = await get('owner', `/api/v1/callbacks?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code, query).toBe('VALIDATION_ERROR');
      expect(Object.keys(res.json().error.fields ?? {}), query).toContain(field);
    }
    const backwards = await get('owner', '/api/v1/callbacks?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z');
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().error.fields).toEqual({ to: 'Must be after from' });
  });
});

describe('the demo history', () => {
  it("has a day when Demo Merchant's endpoint was down: that day's deliveries gave up after 72 h (FAILED)", async () => {
    const rows = await q<{ n: number; attempts: number; failed_attempts: number; min: string; max: string }>(sql`
      SELECT count(*)::int AS n, min(c.attempts)::int AS attempts, min(c.create_date)::text AS min, max(c.create_date)::text AS max,
        (SELECT count(*)::int FROM callback_attempts a JOIN callbacks f ON f.id = a.callback_id
          WHERE f.status = 'FAILED' AND a.response_code BETWEEN 200 AND 299) AS failed_attempts
      FROM callbacks c WHERE c.status = 'FAILED' AND c.merchant_id = ${t.demo.merchantId}`);
    const r = rows[0]!;
    expect(r.n).toBeGreaterThan(10);
    expect(r.attempts).toBe(givenUpSchedule().length);
    expect(r.failed_attempts).toBe(0);
    const span = (OUTAGE_FROM_DAYS_AGO - OUTAGE_TO_DAYS_AGO) * 24 * 3600_000;
    expect(new Date(r.max).getTime() - new Date(r.min).getTime()).toBeLessThan(span);
    const schedule = givenUpSchedule();
    expect(schedule.at(-2)!).toBeLessThan(CALLBACK_GIVE_UP_MS);
    expect(schedule.at(-1)!).toBeGreaterThanOrEqual(CALLBACK_GIVE_UP_MS);
    // no other merchant had one
    const [other] = await q<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM callbacks WHERE status = 'FAILED' AND merchant_id <> ${t.demo.merchantId}`,
    );
    expect(other!.n).toBe(0);
  });
});

/** The health figures by their definitions, counted attempt by attempt (what the hourly counts must add up to). */
async function naiveHealth(merchantId: string, now: Date) {
  const since = new Date(now.getTime() - 24 * 3600_000).toISOString();
  const [r] = await q<{ ok: string | null; fails: number; day: number; day_ok: number; last_code: number | null }>(sql`
    WITH ok AS (SELECT max(attempted_at) AS at FROM callback_attempts
                WHERE merchant_id = ${merchantId} AND response_code BETWEEN 200 AND 299)
    SELECT (SELECT at FROM ok)::text AS ok,
      (SELECT count(*)::int FROM callback_attempts a, ok WHERE a.merchant_id = ${merchantId}
        AND (ok.at IS NULL OR a.attempted_at > ok.at)) AS fails,
      (SELECT count(*)::int FROM callback_attempts WHERE merchant_id = ${merchantId}
        AND attempted_at >= ${since}::timestamptz) AS day,
      (SELECT count(*)::int FROM callback_attempts WHERE merchant_id = ${merchantId}
        AND attempted_at >= ${since}::timestamptz AND response_code BETWEEN 200 AND 299) AS day_ok,
      (SELECT response_code FROM callback_attempts WHERE merchant_id = ${merchantId}
        ORDER BY attempted_at DESC, id DESC LIMIT 1) AS last_code`);
  return r!;
}

async function health(who: string, merchant?: string) {
  const res = await get(who, `/api/v1/callbacks/health?${qs({ merchant })}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as EndpointHealth[];
}

describe('GET /api/v1/callbacks/health', () => {
  it('who may read it, and whose', async () => {
    const codes = Object.fromEntries(
      await Promise.all(USERS.map(async (u) => [u, (await get(u, '/api/v1/callbacks/health')).statusCode] as const)),
    );
    expect(codes).toEqual({ owner: 200, support: 200, finance: 403, viewer: 403, shop2: 200, admin: 200, ops: 200 });
    expect((await health('owner', shop2Id)).map((h) => h.merchantId)).toEqual([t.demo.merchantId]);
    expect((await health('shop2', t.demo.merchantId)).map((h) => h.merchantId)).toEqual([shop2Id]);
    const everyone = (await health('admin')).map((h) => h.merchantId);
    expect(everyone).toEqual(expect.arrayContaining([t.demo.merchantId, shop2Id]));
    expect((await health('ops', shop2Id)).map((h) => h.merchantId)).toEqual([shop2Id]);
    expect((await get('admin', '/api/v1/callbacks/health?merchant=nope')).statusCode).toBe(400);
    expect((await get('admin', '/api/v1/callbacks/health?status=FAILED')).statusCode).toBe(400);
  });

  it('the hourly counts are the attempts, hour by hour (the seed and the trigger)', async () => {
    await checkCallbackInvariants(t.ctx.db);
  });

  it('the hourly counts add up to the attempts, at any moment of the hour', async () => {
    for (const merchant of [t.demo.merchantId, shop2Id]) {
      for (const offsetMin of [0, 7, 31, 59, 60 * 24 * 3 + 13]) {
        const now = new Date(Date.now() - offsetMin * 60_000);
        const [h] = await endpointHealth(t.ctx.db, merchant, now);
        const n = await naiveHealth(merchant, now);
        expect(
          {
            lastSuccessAt: h!.lastSuccessAt,
            consecutiveFailures: h!.consecutiveFailures,
            attempts24h: h!.attempts24h,
            succeeded24h: h!.succeeded24h,
          },
          `${merchant} −${offsetMin} min`,
        ).toEqual({
          lastSuccessAt: n.ok === null ? null : new Date(n.ok).toISOString(),
          // attempts after the last 2xx, including any recorded later than this moment (as the naive count does)
          consecutiveFailures: n.fails,
          attempts24h: n.day,
          succeeded24h: n.day_ok,
        });
      }
    }
  });

  it('an endpoint that refuses is FAILING with the attempts since its last success; one 2xx makes it HEALTHY', async () => {
    let up = false;
    const rx = await startReceiver(
      () => (up ? 204 : 503),
      () => [t.demo.webhookSecret],
    );
    try {
      // a day past the seeded history, so that the last 24 h are this test's attempts alone
      t.clock.advance(40 * 24 * 3600_000);
      await tickUntilIdle();
      const before = (await health('owner'))[0]!;
      const terminal = t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && !x.isTest && x.currency === 'UZS')!;
      const created = await injectSigned(
        t.app,
        sign,
        'POST',
        '/api/merchant/v1/invoices',
        invoiceBody(terminal, { callbackUrl: rx.url }),
      );
      const id = created.json().data.invoiceId as string;
      expect((await injectSigned(t.app, sign, 'POST', `/api/merchant/v1/invoices/${id}/cancel`)).statusCode).toBe(200);
      for (let i = 0; i < 4; i++) {
        await tickCallbacks(t.ctx);
        t.clock.advance(10 * 60_000);
      }
      const failing = (await health('owner'))[0]!;
      expect(rx.refused.length).toBeGreaterThanOrEqual(3);
      expect(failing).toMatchObject({
        merchantId: t.demo.merchantId,
        merchantName: 'Demo Merchant',
        state: 'FAILING',
        lastSuccessAt: before.lastSuccessAt,
        lastResponseCode: 503,
        consecutiveFailures: before.consecutiveFailures + rx.refused.length,
        succeeded24h: before.succeeded24h,
      });
      expect(failing.attempts24h).toBe(before.attempts24h + rx.refused.length);
      expect(failing.pending).toBeGreaterThanOrEqual(1);
      expect(failing.urls[0]).toBe(rx.url);
      expect(failing.successRate24h).toBe(failing.attempts24h ? failing.succeeded24h / failing.attempts24h : null);

      up = true;
      t.clock.advance(3600_000);
      await tickUntilIdle();
      const healthy = (await health('owner'))[0]!;
      expect(healthy).toMatchObject({ state: 'HEALTHY', consecutiveFailures: 0, lastResponseCode: 204 });
      expect(new Date(healthy.lastSuccessAt!).getTime()).toBeGreaterThan(new Date(failing.lastAttemptAt!).getTime());
      expect(healthy.succeeded24h).toBeGreaterThanOrEqual(1);
      expect(healthy.successRate24h).toBeGreaterThan(0);
      await checkCallbackInvariants(t.ctx.db);
    } finally {
      t.clock.reset();
      await rx.close();
    }
  });

  it('a merchant that was never called back is IDLE, with no rate', async () => {
    const [m] = await q<{ id: string }>(sql`INSERT INTO merchants (name, webhook_secret)
      VALUES ('Quiet Shop', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw') RETURNING id`);
    const [h] = await health('admin', m!.id);
    expect(h).toMatchObject({
      merchantName: 'Quiet Shop',
      state: 'IDLE',
      lastSuccessAt: null,
      lastAttemptAt: null,
      consecutiveFailures: 0,
      attempts24h: 0,
      succeeded24h: 0,
      successRate24h: null,
      pending: 0,
      urls: [],
    });
  });
});

/** Runs the worker until nothing is due now (each due callback attempted once more at most a few times). */
async function tickUntilIdle() {
  for (let i = 0; i < 50 && (await tickCallbacks(t.ctx, { limit: 200, replayLimit: 200 })) > 0; i++);
}
