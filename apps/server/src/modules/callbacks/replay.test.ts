import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { CALLBACK_REPLAY_MAX, CALLBACK_REPLAY_PER_SECOND } from '@paydesk/contracts';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';
import { injectSigned, invoiceBody, merchantSigner, startReceiver, type Signer } from '../../../test/merchant-client';
import { checkCallbackInvariants } from './invariants.testkit';
import { tickCallbacks } from './service';

/**
 * Bulk replay over HTTP: who may replay whose deliveries, what a preview counts (and that it writes nothing), what a
 * replay queues (one new delivery per event, its own webhook-id, the original body, none beside a pending delivery),
 * how the worker sends them (after the live callbacks, signed like every callback), and what is refused.
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
const replay = (who: string, body: unknown) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/callbacks/replay',
    headers: { cookie: cookies[who]! },
    payload: body as object,
  });

/** What a refused or previewed replay must leave as it was. */
async function written() {
  const [r] = await q<{ callbacks: number; audit: number; attempts: number }>(sql`SELECT
    (SELECT count(*)::int FROM callbacks) AS callbacks,
    (SELECT count(*)::int FROM audit_log) AS audit,
    (SELECT count(*)::int FROM callback_attempts) AS attempts`);
  return r!;
}

/** The events a replay of a merchant's FAILED deliveries should send, counted by their definition. */
async function failedEvents(merchantId: string) {
  const [r] = await q<{ n: number }>(sql`
    SELECT count(DISTINCT coalesce(c.replay_of, c.id))::int AS n FROM callbacks c
    JOIN callbacks o ON o.id = coalesce(c.replay_of, c.id)
    JOIN invoices i ON i.id = o.invoice_id JOIN terminals tm ON tm.id = i.terminal_id
    WHERE c.merchant_id = ${merchantId} AND c.status = 'FAILED' AND o.status <> 'PENDING'
      AND coalesce(i.callback_url, tm.callback_url) IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM callbacks p WHERE p.replay_of = o.id AND p.status = 'PENDING')`);
  return r!.n;
}

const liveDeposit = () => t.demo.terminals.find((x) => x.flowType === 'DEPOSIT' && !x.isTest && x.currency === 'UZS')!;

/** A cancelled deposit whose callbacks go to `url`: its id. */
async function cancelled(url: string) {
  const res = await injectSigned(
    t.app,
    sign,
    'POST',
    '/api/merchant/v1/invoices',
    invoiceBody(liveDeposit(), { callbackUrl: url }),
  );
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().data.invoiceId as string;
  expect((await injectSigned(t.app, sign, 'POST', `/api/merchant/v1/invoices/${id}/cancel`)).statusCode).toBe(200);
  return id;
}

describe('POST /api/v1/callbacks/replay: who, whose, and a preview', () => {
  it('a preview counts the events a replay would send and writes nothing; who may ask, for whom', async () => {
    const expected = await failedEvents(t.demo.merchantId);
    expect(expected).toBeGreaterThan(10); // the seeded outage
    const before = await written();
    const body = { status: 'FAILED', preview: true };
    const answers = Object.fromEntries(
      await Promise.all(
        USERS.map(async (u) => {
          const res = await replay(u, { ...body, merchant: t.demo.merchantId });
          return [u, res.statusCode === 200 ? res.json().data : res.statusCode] as const;
        }),
      ),
    );
    const perSecond = CALLBACK_REPLAY_PER_SECOND;
    expect(answers).toEqual({
      owner: { count: expected, perSecond },
      support: { count: expected, perSecond },
      finance: 403,
      viewer: 403,
      // Second Shop's own deliveries, whatever merchant it names: none of them failed
      shop2: { count: 0, perSecond },
      admin: { count: expected, perSecond },
      ops: { count: expected, perSecond },
    });
    // platform staff name the merchant whose deliveries they replay
    const unnamed = await replay('admin', body);
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json().error.fields).toEqual({ merchant: 'Choose a merchant' });
    expect((await replay('ops', { ...body, merchant: shop2Id })).json().data).toEqual({
      count: 0,
      perSecond: CALLBACK_REPLAY_PER_SECOND,
    });
    expect(await written()).toEqual(before);
  });

  it('bad filters are 400 (an unknown merchant 404), and nothing is written', async () => {
    const before = await written();
    const bad: [string, unknown, number, string?][] = [
      ['owner', { status: 'NOPE' }, 400, 'status'],
      ['owner', { type: 'invoice.deleted' }, 400, 'type'],
      ['owner', { from: 'yesterday' }, 400, 'from'],
      ['owner', { from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, 400, 'to'],
      ['owner', { from: '2026-02-01T00:00:00Z', to: '2026-02-01T00:00:00Z' }, 400, 'to'],
      ['owner', { invoiceId: 'INV-1' }, 400, 'invoiceId'],
      ['owner', { merchant: 'acme' }, 400, 'merchant'],
      ['owner', { preview: 'yes' }, 400, 'preview'],
      ['owner', { status: 'FAILED', limit: 10 }, 400],
      ['owner', [], 400],
      ['admin', { status: 'FAILED' }, 400, 'merchant'],
      ['admin', { status: 'FAILED', merchant: '00000000-0000-4000-8000-000000000000' }, 404],
    ];
    for (const [who, body, status, field] of bad) {
      const res = await replay(who, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      if (field) expect(Object.keys(res.json().error.fields ?? {}), JSON.stringify(body)).toContain(field);
    }
    expect(await written()).toEqual(before);
  });
});

describe('a replay', () => {
  it('queues one new delivery per event: its own webhook-id, the original body, in event order, audited', async () => {
    const expected = await failedEvents(t.demo.merchantId);
    const now = t.clock.now();
    const res = await replay('owner', { status: 'FAILED' });
    expect(res.statusCode, res.body).toBe(202);
    const { count, replayId, perSecond } = res.json().data as { count: number; replayId: string; perSecond: number };
    expect(count).toBe(expected);
    expect(perSecond).toBe(CALLBACK_REPLAY_PER_SECOND);
    const rows = await q<{
      id: string;
      replay_of: string;
      same_body: boolean;
      same_invoice: boolean;
      original_status: string;
      original_create: string;
      status: string;
      url: string;
      current_url: string;
      due_ms: number;
      create_date: string;
    }>(sql`
      SELECT r.id, r.replay_of, r.payload = o.payload AS same_body,
        r.invoice_id = o.invoice_id AND r.merchant_id = o.merchant_id AS same_invoice,
        o.status AS original_status, o.create_date::text AS original_create, r.status, r.url,
        coalesce(i.callback_url, tm.callback_url) AS current_url,
        (extract(epoch FROM r.next_attempt_at - ${now.toISOString()}::timestamptz) * 1000)::float8 AS due_ms,
        r.create_date::text AS create_date
      FROM callbacks r JOIN callbacks o ON o.id = r.replay_of
      JOIN invoices i ON i.id = r.invoice_id JOIN terminals tm ON tm.id = i.terminal_id
      WHERE r.replay_id = ${replayId}
      ORDER BY r.next_attempt_at`);
    expect(rows).toHaveLength(count);
    expect(new Set(rows.map((r) => r.replay_of)).size).toBe(count);
    for (const r of rows) {
      expect(r).toMatchObject({ same_body: true, same_invoice: true, original_status: 'FAILED', status: 'PENDING' });
      expect(r.id).not.toBe(r.replay_of);
      expect(r.url).toBe(r.current_url);
    }
    // due one after another at the replay's rate, oldest event first
    const step = 1000 / CALLBACK_REPLAY_PER_SECOND;
    expect(Number(rows[0]!.due_ms)).toBeGreaterThanOrEqual(0);
    expect(Number(rows[0]!.due_ms)).toBeLessThan(5000);
    rows.forEach((r, k) => expect(Number(r.due_ms) - Number(rows[0]!.due_ms)).toBeCloseTo(k * step, 0));
    const created = rows.map((r) => new Date(r.original_create).getTime());
    expect(created).toEqual([...created].sort((a, b) => a - b));

    const [audit] = await q<{ merchant_id: string; target_type: string; after: unknown; actor_username: string }>(
      sql`SELECT merchant_id, target_type, after, actor_username FROM audit_log
          WHERE action = 'callbacks.replayed' AND target_id = ${replayId}`,
    );
    expect(audit).toEqual({
      merchant_id: t.demo.merchantId,
      target_type: 'callback_replay',
      actor_username: 'owner',
      after: { filter: { status: 'FAILED', merchant: t.demo.merchantId }, count },
    });
    const trail = await t.app.inject({
      method: 'GET',
      url: '/api/v1/audit?action=callbacks.replayed',
      headers: { cookie: cookies.owner! },
    });
    expect(trail.json().data.map((e: { targetId: string }) => e.targetId)).toContain(replayId);

    // the list shows them, each naming what it replays
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/v1/callbacks?status=PENDING&limit=200',
      headers: { cookie: cookies.support! },
    });
    const replays = (listed.json().data as { id: string; replayOf: string | null }[]).filter((r) => r.replayOf);
    expect(replays.length).toBe(Math.min(count, 200));

    // never beside a delivery of the same event in flight: a second replay, or its preview, finds nothing to send
    expect((await replay('support', { status: 'FAILED', preview: true })).json().data).toEqual({
      count: 0,
      perSecond: CALLBACK_REPLAY_PER_SECOND,
    });
    const again = await replay('support', { status: 'FAILED' });
    expect(again.statusCode).toBe(202);
    expect(again.json().data.count).toBe(0);
    await checkCallbackInvariants(t.ctx.db);
  });

  it('two replays at once send each event once', async () => {
    const a = await cancelled('http://127.0.0.1:9/hooks');
    const b = await cancelled('http://127.0.0.1:9/hooks');
    t.clock.advance(80 * 3600_000);
    try {
      for (let i = 0; i < 20 && (await tickCallbacks(t.ctx, { limit: 500 })) > 0; i++);
      const [events] = await q<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM callbacks WHERE invoice_id IN (${a}, ${b}) AND status = 'FAILED'`,
      );
      expect(events!.n).toBeGreaterThanOrEqual(2);
      const both = await Promise.all([
        replay('owner', { invoiceId: a }),
        replay('support', { invoiceId: a }),
        replay('ops', { invoiceId: b, merchant: t.demo.merchantId }),
        replay('admin', { invoiceId: b, merchant: t.demo.merchantId, status: 'FAILED' }),
      ]);
      for (const r of both) expect(r.statusCode, r.body).toBe(202);
      const counts = both.map((r) => r.json().data.count as number);
      const [queued] = await q<{ n: number; events: number }>(sql`
        SELECT count(*)::int AS n, count(DISTINCT replay_of)::int AS events FROM callbacks
        WHERE invoice_id IN (${a}, ${b}) AND replay_of IS NOT NULL`);
      expect(queued!.n).toBe(queued!.events);
      expect(counts.reduce((x, y) => x + y, 0)).toBe(queued!.n);
      expect(queued!.n).toBe(events!.n);
      await checkCallbackInvariants(t.ctx.db);
    } finally {
      t.clock.reset();
    }
  });
});

describe('the worker and replays', () => {
  it('delivers replays after the live callbacks, signed like every callback; the endpoint takes each event', async () => {
    let up = false;
    const rx = await startReceiver(
      () => (up ? 204 : 503),
      () => [t.demo.webhookSecret],
    );
    const wh = new Webhook(t.demo.webhookSecret);
    try {
      // everything queued so far is worked off first, far in the future, so that what is due below is this test's
      t.clock.advance(200 * 3600_000);
      for (let i = 0; i < 50 && (await tickCallbacks(t.ctx, { limit: 500, replayLimit: 500 })) > 0; i++);
      const from = t.clock.now();
      // the endpoint is down for three days: these invoices' callbacks give up
      const down = [await cancelled(rx.url), await cancelled(rx.url), await cancelled(rx.url)];
      for (let h = 0; h < 74; h++) {
        await tickCallbacks(t.ctx, { limit: 500 });
        t.clock.advance(3600_000);
      }
      const originals = await q<{ id: string; payload: unknown; status: string }>(
        sql`SELECT id, payload, status FROM callbacks WHERE invoice_id IN (${down[0]!}, ${down[1]!}, ${down[2]!})`,
      );
      expect(originals.length).toBeGreaterThanOrEqual(3);
      expect(originals.every((o) => o.status === 'FAILED')).toBe(true);
      const stuck = async () =>
        (
          (
            await t.app.inject({
              method: 'GET',
              url: '/api/v1/exceptions/stuck?kind=CALLBACK&limit=200',
              headers: { cookie: cookies.ops! },
            })
          ).json().data as { invoiceId: string }[]
        ).map((s) => s.invoiceId);
      expect(await stuck()).toEqual(expect.arrayContaining(down));
      // one more invoice whose callbacks are still being tried: its events are left alone
      const pending = await cancelled(rx.url);
      const to = new Date(t.clock.now().getTime() + 1000);

      up = true;
      const res = await replay('owner', { from: from.toISOString(), to: to.toISOString() });
      expect(res.statusCode, res.body).toBe(202);
      expect(res.json().data.count).toBe(originals.length);
      const replayId = res.json().data.replayId as string;
      const replays = await q<{ id: string; replay_of: string }>(
        sql`SELECT id, replay_of FROM callbacks WHERE replay_id = ${replayId}`,
      );
      expect(replays.map((r) => r.replay_of).sort()).toEqual(originals.map((o) => o.id).sort());
      const [untouched] = await q<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM callbacks WHERE invoice_id = ${pending} AND replay_of IS NOT NULL`,
      );
      expect(untouched!.n).toBe(0);

      // live callbacks first: with the pending invoice's callbacks and every replay due, a tick takes all the live ones
      // and only `replayLimit` replays
      t.clock.advance(60_000);
      const due = async (replay: boolean) =>
        (
          await q<{ n: number }>(sql`SELECT count(*)::int AS n FROM callbacks WHERE status = 'PENDING'
            AND next_attempt_at <= ${t.clock.now().toISOString()}::timestamptz
            AND (replay_of IS NOT NULL) = ${replay}`)
        )[0]!.n;
      const live = await due(false);
      expect(live).toBeGreaterThan(0);
      expect(await due(true)).toBe(originals.length);
      expect(await tickCallbacks(t.ctx, { limit: live + 2, replayLimit: 1 })).toBe(live + 1);
      expect(await due(false)).toBe(0);
      expect(await due(true)).toBe(originals.length - 1);
      // with no live callback due, a tick still takes at most its replay share
      expect(await tickCallbacks(t.ctx, { limit: 10, replayLimit: 1 })).toBe(1);
      while ((await tickCallbacks(t.ctx)) > 0);

      const rows = await q<{ id: string; status: string; payload: unknown }>(
        sql`SELECT id, status, payload FROM callbacks WHERE replay_id = ${replayId}`,
      );
      expect(rows.every((r) => r.status === 'DELIVERED')).toBe(true);
      const ids = new Set(rows.map((r) => r.id));
      const got = rx.received.filter((h) => ids.has(h.headers['webhook-id']!));
      // each event once more, under its replay's own webhook-id, with the original body
      expect(got.map((h) => h.headers['webhook-id']).sort()).toEqual([...ids].sort());
      for (const h of got) {
        const row = rows.find((r) => r.id === h.headers['webhook-id'])!;
        expect(JSON.parse(h.body)).toEqual(row.payload);
        expect(originals.map((o) => o.id)).not.toContain(h.headers['webhook-id']);
        // the simulated clock is days ahead, past the library's 5-minute tolerance: check the signature itself
        const ts = new Date(Number(h.headers['webhook-timestamp']) * 1000);
        expect(h.headers['webhook-signature']).toBe(wh.sign(h.headers['webhook-id']!, ts, h.body));
      }
      // the desk's failed-callbacks queue no longer lists these invoices: their latest delivery got through
      const after = await stuck();
      for (const id of down) expect(after).not.toContain(id);
      await checkCallbackInvariants(t.ctx.db);
    } finally {
      t.clock.reset();
      // every callback it got verifies with standardwebhooks and matches the documented schema
      await rx.close();
    }
  });
});

describe('the cap', () => {
  it(`more than ${CALLBACK_REPLAY_MAX.toLocaleString('en')} matching deliveries are refused with a clear message, and nothing is written`, async () => {
    // a merchant with that many deliveries on one invoice, written straight into the outbox
    const [inv] = await q<{ id: string }>(
      sql`SELECT invoice_id AS id FROM callbacks WHERE merchant_id = ${shop2Id} ORDER BY create_date DESC LIMIT 1`,
    );
    const inserted = await t.ctx.db.execute(sql`
      INSERT INTO callbacks (invoice_id, merchant_id, url, payload, invoice_status, status, attempts, create_date, execution_date)
      SELECT c.invoice_id, c.merchant_id, c.url, c.payload, c.invoice_status, 'DELIVERED', 1,
        now() - interval '1 day' + g * interval '1 millisecond', now()
      FROM (SELECT * FROM callbacks WHERE invoice_id = ${inv!.id} LIMIT 1) c, generate_series(1, ${CALLBACK_REPLAY_MAX + 1}) g`);
    expect(inserted.rowCount).toBe(CALLBACK_REPLAY_MAX + 1);
    const before = await written();
    for (const preview of [true, false]) {
      const res = await replay('shop2', { status: 'DELIVERED', preview });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(
        'More than 100,000 deliveries match: a replay takes at most that many. Narrow the filter, e.g. to a shorter ' +
          'time range or one status.',
      );
    }
    expect(await written()).toEqual(before);
    // narrowed, it goes through
    const lastHour = await replay('shop2', {
      status: 'DELIVERED',
      from: new Date(Date.now() - 3600_000).toISOString(),
      preview: true,
    });
    expect(lastHour.statusCode, lastHour.body).toBe(200);
  }, 120_000);
});

describe('the replay rate', () => {
  it('is the server’s CALLBACK_REPLAY_PER_SECOND: the answer names it and the deliveries fall due that far apart', async () => {
    const fast = await createTestApp({ callbackReplayPerSecond: 250 });
    try {
      const cookie = await loginAs(fast.app, 'owner');
      const res = await fast.app.inject({
        method: 'POST',
        url: '/api/v1/callbacks/replay',
        headers: { cookie },
        payload: { status: 'DELIVERED' },
      });
      expect(res.statusCode, res.body).toBe(202);
      const { count, replayId, perSecond } = res.json().data as { count: number; replayId: string; perSecond: number };
      expect(perSecond).toBe(250);
      expect(count).toBeGreaterThan(2);
      const due = (
        await fast.ctx.db.execute<{ ms: number }>(sql`
          SELECT (extract(epoch FROM next_attempt_at) * 1000)::float8 AS ms FROM callbacks
          WHERE replay_id = ${replayId} ORDER BY next_attempt_at`)
      ).rows.map((r) => Number(r.ms));
      due.forEach((ms, k) => expect(ms - due[0]!).toBeCloseTo(k * 4, 0));
    } finally {
      await fast.close();
    }
  });
});
