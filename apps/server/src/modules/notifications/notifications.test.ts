import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { CALLBACK_BACKOFF_CAP_MS, type NotificationItem } from '@paydesk/contracts';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';
import {
  depositGivenRequisites,
  injectSigned,
  invoiceBody,
  merchantSigner,
  startReceiver,
  type Signer,
} from '../../../test/merchant-client';
import { tickCallbacks } from '../callbacks/service';

/**
 * Notifications over HTTP: alerts derived from states made through the API (a terminal below its threshold, a
 * merchant's endpoint refusing callbacks, money no invoice took, a payout left with its provider, a paused account),
 * "In process" while they hold and "Closed" once resolved, each user seeing only what the permissions let them see.
 * Each part moves the test clock weeks ahead of the seed, so that only what it made is in its windows.
 */
let t: TestApp;
let sign: Signer;
const cookies: Record<string, string> = {};
const USERS = ['admin', 'ops', 'owner', 'finance', 'support', 'viewer', 'shop2'] as const;
type User = (typeof USERS)[number];
let shop2Merchant: string;
const DAY = 24 * 3600_000;
const MIN = 60_000;

beforeAll(async () => {
  t = await createTestApp();
  sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
  for (const u of USERS) cookies[u] = await loginAs(t.app, u);
  shop2Merchant = (await as('shop2', 'GET', '/api/v1/merchant/me')).json().data.id;
});
afterAll(async () => t?.close());

const as = (who: User, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: cookies[who]! }, ...(payload === undefined ? {} : { payload }) });
const q = async <T extends Record<string, unknown>>(s: ReturnType<typeof sql>) => (await t.ctx.db.execute<T>(s)).rows;

async function alerts(who: User, query = '') {
  const res = await as(who, 'GET', `/api/v1/notifications${query}`);
  expect(res.statusCode, `${who}: ${res.body}`).toBe(200);
  return res.json() as { data: NotificationItem[]; inProcess: number };
}
const find = async (who: User, id: string) => (await alerts(who)).data.find((n) => n.id === id);

/** Every user's view of one alert: which users see it, and with which status. */
async function seenBy(id: string) {
  const out: Partial<Record<User, string>> = {};
  for (const u of USERS) {
    const n = await find(u, id);
    if (n) out[u] = n.status;
  }
  return out;
}

const liveUzs = (flow: 'DEPOSIT' | 'WITHDRAWAL') =>
  t.demo.terminals.find((x) => x.flowType === flow && x.currency === 'UZS' && !x.isTest)!;

async function createInvoice(flow: 'DEPOSIT' | 'WITHDRAWAL', amount: number, over: Record<string, unknown> = {}) {
  const res = await injectSigned(
    t.app,
    sign,
    'POST',
    '/api/merchant/v1/invoices',
    invoiceBody(liveUzs(flow), { amount, ...over }),
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { invoiceId: string; formId: string };
}
const cancel = async (invoiceId: string) =>
  expect(
    (await injectSigned(t.app, sign, 'POST', `/api/merchant/v1/invoices/${invoiceId}/cancel`, {})).statusCode,
  ).toBe(200);

/** A live UZS deposit whose customer got requisites: its id and the account and provider they belong to. */
const depositWithRequisites = (amount: number) => depositGivenRequisites(t, sign, amount);

let refs = 0;
/** The provider reports money on an account (POST /api/provider/v1/incoming). */
async function reportMoney(provider: string, accountId: number, amount: number) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/provider/v1/incoming',
    headers: { authorization: `Bearer dev:${provider}` },
    payload: {
      accountId,
      amount,
      occurredAt: t.clock.now().toISOString(),
      reference: `notif-${process.pid}-${++refs}`,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: string; status: string };
}

/** A deposit the provider paid: requisites given, then the money reported on that account (it becomes DONE). */
async function paidDeposit(amount: number) {
  const dep = await depositWithRequisites(amount);
  expect((await reportMoney(dep.provider, dep.accountId, amount)).status).toBe('MATCHED');
  return dep;
}

/** A live UZS provider account and its provider's code, found as staff would (accounts, then the account's provider). */
async function liveUzsAccount() {
  const accounts = (await as('ops', 'GET', '/api/v1/people/account')).json().data as {
    id: number;
    isSandbox: boolean;
    currency: string;
  }[];
  const account = accounts.find((a) => !a.isSandbox && a.currency === 'UZS')!;
  const detail = (await as('ops', 'GET', `/api/v1/people/account/${account.id}`)).json().data as { providerId: number };
  const providers = (await as('ops', 'GET', '/api/v1/provider')).json().data as { id: number; code: string }[];
  return { accountId: account.id, provider: providers.find((p) => p.id === detail.providerId)!.code };
}

describe('GET /api/v1/notifications', () => {
  it('needs a session (401) and refuses an unknown filter (400)', async () => {
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/v1/notifications' });
    expect(anonymous.statusCode).toBe(401);
    const bad = await as('ops', 'GET', '/api/v1/notifications?status=OPEN');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'VALIDATION_ERROR', fields: { status: expect.any(String) } });
    expect((await as('ops', 'GET', '/api/v1/notifications?merchantId=x')).statusCode).toBe(400);
  });

  it('a terminal below its low threshold: In process for who may see its statistics, Closed when the rate recovers', async () => {
    const terminal = liveUzs('DEPOSIT');
    const attrTypes = (await as('owner', 'GET', '/api/v1/reference?refHeaderId=105')).json().data as {
      id: number;
      code: string;
    }[];
    const low = attrTypes.find((a) => a.code === 'SUCCESS_PERCENT_LOW_THRESHOLD')!;
    const set = await as('admin', 'PATCH', `/api/v1/terminal/${terminal.id}?merchantId=${t.demo.merchantId}`, {
      attributes: [{ value: '75', attrType: { id: low.id } }],
    });
    expect(set.statusCode, set.body).toBe(200);
    const id = `LOW_SUCCESS_RATE:${terminal.id}`;

    t.clock.set(new Date(Date.now() + 40 * DAY));
    try {
      // an hour with only unfinished invoices: no rate, no alert
      await createInvoice('DEPOSIT', 10_000_00 + 1);
      expect(await seenBy(id)).toEqual({});

      // one paid, one cancelled: 50 % < 75 %
      await paidDeposit(20_000_00 + 3);
      const cancelled = await createInvoice('DEPOSIT', 20_000_00 + 5);
      await cancel(cancelled.invoiceId);
      const n = (await find('owner', id))!;
      expect(n).toMatchObject({
        kind: 'LOW_SUCCESS_RATE',
        status: 'In process',
        name: `Low success rate: ${terminal.name}`,
        paymentStatus: 'Success rate 50 % in the last hour (1 of 2 finished invoices DONE), below the 75 % threshold',
        closedAt: null,
        merchantId: t.demo.merchantId,
        link: '/monitoring',
      });
      // monitoring's figures for the same hour say the same
      const stats = (await as('owner', 'GET', '/api/data/v1/terminal?minutes=60')).json().data as {
        terminalId: string;
        successPercent: number;
        successPercentLowThreshold: number;
      }[];
      expect(stats.find((s) => s.terminalId === terminal.id)).toMatchObject({
        successPercent: 50,
        successPercentLowThreshold: 75,
      });
      // platform staff and the merchant's users who see terminal statistics; not support, finance, viewer, shop2
      expect(await seenBy(id)).toEqual({ admin: 'In process', ops: 'In process', owner: 'In process' });
      expect((await alerts('owner', '?status=IN_PROCESS')).data.map((x) => x.id)).toContain(id);
      expect((await alerts('owner', '?status=CLOSED')).data.map((x) => x.id)).not.toContain(id);

      // the next hour: paid again; the hour before was below, this one is not
      t.clock.advance(61 * MIN);
      await paidDeposit(20_000_00 + 7);
      const closed = (await find('owner', id))!;
      expect(closed).toMatchObject({
        status: 'Closed',
        paymentStatus: 'Success rate back to 100 % in the last hour, from 50 % the hour before (threshold 75 %)',
      });
      expect(closed.closedAt).not.toBeNull();
      expect(await seenBy(id)).toEqual({ admin: 'Closed', ops: 'Closed', owner: 'Closed' });

      // two hours of nothing finished: neither alerting nor recently resolved
      t.clock.advance(125 * MIN);
      await createInvoice('DEPOSIT', 10_000_00 + 9);
      expect(await seenBy(id)).toEqual({});
    } finally {
      t.clock.reset();
      await as('admin', 'PATCH', `/api/v1/terminal/${terminal.id}?merchantId=${t.demo.merchantId}`, {
        attributes: [{ value: '60', attrType: { id: low.id } }],
      });
    }
  });

  it("a merchant's endpoint refusing callbacks: In process for its callback readers, Closed once it takes them", async () => {
    let up = false;
    const rx = await startReceiver(
      () => (up ? 204 : 500),
      () => [t.demo.webhookSecret],
    );
    t.clock.set(new Date(Date.now() + 50 * DAY));
    try {
      for (const amount of [31_000_00 + 1, 31_000_00 + 3]) {
        const inv = await createInvoice('DEPOSIT', amount, { callbackUrl: `${rx.url}?token=s3cret` });
        await cancel(inv.invoiceId);
      }
      const endpointAlert = async (who: User) =>
        (await alerts(who)).data.find((n) => n.kind === 'CALLBACK_FAILED' && n.name.endsWith(rx.url));
      // a first refusal is not yet an alert
      await tickCallbacks(t.ctx, { limit: 500 });
      expect(await endpointAlert('owner')).toBeUndefined();
      for (let i = 0; i < 8; i++) {
        t.clock.advance(5 * MIN);
        await tickCallbacks(t.ctx, { limit: 500 });
      }
      expect(rx.refused.length).toBeGreaterThanOrEqual(5);
      const n = (await endpointAlert('owner'))!;
      expect(n).toMatchObject({
        status: 'In process',
        name: `Callback endpoint failing: ${rx.url}`,
        merchantId: t.demo.merchantId,
        closedAt: null,
      });
      expect(n.paymentStatus).toMatch(/^\d+ delivery attempts in a row failed over \d+ min \(last: HTTP 500\)$/);
      expect(Number(/^(\d+)/.exec(n.paymentStatus)![1])).toBe(rx.refused.length);
      // the URL's query (a merchant may put a token there) is never shown
      expect(JSON.stringify(await alerts('owner'))).not.toContain('s3cret');
      expect(n.link).toMatch(/^\/invoices\/[0-9a-f-]{36}$/);
      // the merchant's callback readers (owner, support) and platform staff; not finance, viewer or another merchant
      expect(await seenBy(n.id)).toEqual({
        admin: 'In process',
        ops: 'In process',
        owner: 'In process',
        support: 'In process',
      });

      // the endpoint takes callbacks again: its callbacks are delivered, the alert is Closed
      up = true;
      t.clock.advance(CALLBACK_BACKOFF_CAP_MS);
      while ((await tickCallbacks(t.ctx, { limit: 500 })) > 0);
      expect(rx.received.length).toBeGreaterThanOrEqual(2);
      const closed = (await find('owner', n.id))!;
      expect(closed).toMatchObject({ status: 'Closed' });
      expect(closed.paymentStatus).toMatch(
        /^Delivering again: the endpoint took a callback after \d+ failed attempts$/,
      );
      expect(await seenBy(n.id)).toEqual({ admin: 'Closed', ops: 'Closed', owner: 'Closed', support: 'Closed' });
    } finally {
      t.clock.reset();
      await rx.close();
    }
  });

  it('unmatched money older than an hour: platform staff only; Closed when returned', async () => {
    t.clock.set(new Date(Date.now() + 60 * DAY));
    try {
      const account = await liveUzsAccount();
      const item = await reportMoney(account.provider, account.accountId, 4_321_000_00 + 17);
      expect(item.status).toBe('UNMATCHED');
      const id = `UNMATCHED_MONEY:${item.id}`;
      // the desk lists it at once; an alert only once it has waited an hour
      expect(await seenBy(id)).toEqual({});
      t.clock.advance(61 * MIN);
      const n = (await find('ops', id))!;
      expect(n).toMatchObject({
        kind: 'UNMATCHED_MONEY',
        status: 'In process',
        paymentStatus: '4,321,000.17 UZS arrived 1 h 1 min ago and matched no invoice',
        merchantId: null,
        link: '/exceptions?tab=unmatched',
      });
      expect(n.name).toMatch(new RegExp(`^Unmatched money on account ${account.accountId} \\(`));
      expect(await seenBy(id)).toEqual({ admin: 'In process', ops: 'In process' });
      for (const u of ['owner', 'finance', 'support', 'viewer', 'shop2'] as const) {
        expect(
          (await alerts(u)).data.filter((x) => x.kind === 'UNMATCHED_MONEY'),
          u,
        ).toEqual([]);
      }

      const returned = await as('ops', 'POST', `/api/v1/incoming/${item.id}/return`, {
        reference: 'RET-NOTIF-1',
        reason: 'payer asked for it back',
      });
      expect(returned.statusCode, returned.body).toBe(200);
      expect(await find('ops', id)).toMatchObject({
        status: 'Closed',
        paymentStatus: '4,321,000.17 UZS returned to the payer after 1 h 1 min',
      });
      expect(await seenBy(id)).toEqual({ admin: 'Closed', ops: 'Closed' });
    } finally {
      t.clock.reset();
    }
  });

  it('a payout with its provider over an hour: platform staff only; Closed when the provider answers', async () => {
    t.clock.set(new Date(Date.now() + 70 * DAY));
    try {
      const { invoiceId, formId } = await createInvoice('WITHDRAWAL', 12_000_00);
      const init = await t.app.inject({ method: 'POST', url: `/api/payments/form/${formId}/init` });
      await t.app.inject({
        method: 'POST',
        url: `/api/payments/form/${formId}/credential`,
        payload: { amount: 12_000_00, paymentMethodId: init.json().data.methods[0].id },
      });
      const complete = await t.app.inject({
        method: 'POST',
        url: `/api/payments/form/${formId}/complete`,
        payload: { credential: '8600123456789012' },
      });
      expect(complete.statusCode, complete.body).toBe(200);
      const [txn] = await q<{ id: string; code: string }>(sql`SELECT pt.id, p.code FROM provider_transactions pt
        JOIN provider_accounts a ON a.id = pt.account_id JOIN providers p ON p.id = a.provider_id
        WHERE pt.invoice_id = ${invoiceId} AND pt.status = 'PENDING'`);
      const id = `PAYOUT_STUCK:${invoiceId}`;
      expect(await seenBy(id)).toEqual({});
      t.clock.advance(61 * MIN);
      const n = (await find('admin', id))!;
      expect(n).toMatchObject({ kind: 'PAYOUT_STUCK', status: 'In process', link: '/exceptions?tab=payouts' });
      expect(n.paymentStatus).toMatch(/^12,000\.00 UZS: payout attempt 1 with .+, pending for 1 h 1 min$/);
      expect(await seenBy(id)).toEqual({ admin: 'In process', ops: 'In process' });

      const answer = await t.app.inject({
        method: 'POST',
        url: `/api/provider/v1/payouts/${txn!.id}`,
        headers: { authorization: `Bearer dev:${txn!.code}` },
        payload: { status: 'DONE' },
      });
      expect(answer.statusCode, answer.body).toBe(200);
      const closed = (await find('admin', id))!;
      expect(closed).toMatchObject({ status: 'Closed', link: `/invoices/${invoiceId}` });
      expect(closed.paymentStatus).toMatch(/answered DONE for payout attempt 1 after 1 h 1 min$/);
      expect(await seenBy(id)).toEqual({ admin: 'Closed', ops: 'Closed' });
    } finally {
      t.clock.reset();
    }
  });

  it('a paused account: In process while out of routing, Closed when resumed; platform staff only', async () => {
    const accounts = (await as('ops', 'GET', '/api/v1/people/account')).json().data as { id: number }[];
    const accountId = accounts.at(-1)!.id;
    const id = `ACCOUNT_PAUSED:${accountId}`;
    const paused = await as('ops', 'POST', `/api/v1/people/account/${accountId}/pause`, {
      reason: 'card blocked by the bank',
    });
    expect(paused.statusCode, paused.body).toBe(200);
    const n = (await find('ops', id))!;
    expect(n).toMatchObject({ kind: 'ACCOUNT_PAUSED', status: 'In process', link: '/accounts' });
    expect(n.paymentStatus).toMatch(/^Out of routing for \d+ s: card blocked by the bank$/);
    expect(await seenBy(id)).toEqual({ admin: 'In process', ops: 'In process' });
    const resumed = await as('ops', 'POST', `/api/v1/people/account/${accountId}/resume`, {
      reason: 'the bank unblocked the card',
    });
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect((await find('ops', id))!).toMatchObject({ status: 'Closed' });
    expect((await find('ops', id))!.paymentStatus).toMatch(
      /^Back in routing after \d+ s: the bank unblocked the card$/,
    );
  });

  it('the In process count is every In process alert the user sees; merchant users never see another merchant', async () => {
    for (const u of USERS) {
      const all = await alerts(u);
      const open = await alerts(u, '?status=IN_PROCESS');
      expect(open.inProcess, u).toBe(all.inProcess);
      expect(
        open.data.every((n) => n.status === 'In process'),
        u,
      ).toBe(true);
      expect(open.data.length, u).toBe(all.data.filter((n) => n.status === 'In process').length);
      expect(open.data.length, u).toBeLessThanOrEqual(open.inProcess);
    }
    for (const u of ['owner', 'support'] as const) {
      expect(
        (await alerts(u)).data.every((n) => n.merchantId === t.demo.merchantId),
        u,
      ).toBe(true);
    }
    expect((await alerts('shop2')).data.every((n) => n.merchantId === shop2Merchant)).toBe(true);
    for (const u of ['finance', 'viewer'] as const) expect(await alerts(u), u).toEqual({ data: [], inProcess: 0 });
  });
});

/** The value of one sample line (`name{labels} value`), or undefined when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}

describe('/metrics: the desk queues', () => {
  it("gives every queue's size and oldest age, as the desk's summary says, from one query per scrape", async () => {
    t.clock.set(new Date(Date.now() + 80 * DAY));
    try {
      const account = await liveUzsAccount();
      await reportMoney(account.provider, account.accountId, 7_000_00 + 29);

      /** The scrape's text, and the clock just before and after it (its ages are measured in between). */
      const scrape = async () => {
        // an answer under a second old is reused by every gauge of a scrape: wait past it
        await new Promise((r) => setTimeout(r, 1100));
        const before = t.clock.now().getTime();
        const res = await t.app.inject({ method: 'GET', url: '/metrics' });
        const after = t.clock.now().getTime();
        expect(res.statusCode).toBe(200);
        return { text: res.body, before, after };
      };
      const ageWithin = (value: number | undefined, oldestAt: string | null, s: { before: number; after: number }) => {
        if (oldestAt === null) return expect(value).toBe(0);
        expect(value).toBeGreaterThanOrEqual((s.before - Date.parse(oldestAt)) / 1000 - 0.001);
        expect(value).toBeLessThanOrEqual((s.after - Date.parse(oldestAt)) / 1000 + 0.001);
      };
      const summary = async () => {
        const res = await as('ops', 'GET', '/api/v1/exceptions/summary');
        expect(res.statusCode, res.body).toBe(200);
        return res.json().data as { queue: string; count: number; oldestAt: string | null }[];
      };
      // both desk gauges from one query (the outbox's is a select of its own)
      const execute = vi.spyOn(t.ctx.db, 'execute');
      const first = await scrape();
      expect(execute).toHaveBeenCalledTimes(1);
      execute.mockRestore();
      const desk = await summary();
      expect(desk.map((d) => d.queue).sort()).toEqual(
        [
          'callbacksFailed',
          'contradictions',
          'payedStuck',
          'payoutStuck',
          'pausedAccounts',
          'statementExceptions',
          'unmatched',
        ].sort(),
      );
      expect(first.text).toContain('# TYPE paydesk_exception_queue_items gauge');
      expect(first.text).toContain('# TYPE paydesk_exception_queue_oldest_seconds gauge');
      for (const d of desk) {
        expect(sample(first.text, 'paydesk_exception_queue_items', { queue: d.queue }), d.queue).toBe(d.count);
        ageWithin(sample(first.text, 'paydesk_exception_queue_oldest_seconds', { queue: d.queue }), d.oldestAt, first);
      }
      const unmatched = desk.find((d) => d.queue === 'unmatched')!;
      expect(unmatched.count).toBeGreaterThan(0);

      // one more unmatched payment and an hour on: one more item, the oldest an hour older
      await reportMoney(account.provider, account.accountId, 7_000_00 + 31);
      t.clock.advance(3600_000);
      const later = await scrape();
      expect(sample(later.text, 'paydesk_exception_queue_items', { queue: 'unmatched' })).toBe(unmatched.count + 1);
      ageWithin(
        sample(later.text, 'paydesk_exception_queue_oldest_seconds', { queue: 'unmatched' }),
        unmatched.oldestAt,
        later,
      );
      expect(sample(later.text, 'paydesk_exception_queue_oldest_seconds', { queue: 'unmatched' })).toBeGreaterThan(
        sample(first.text, 'paydesk_exception_queue_oldest_seconds', { queue: 'unmatched' })! + 3600,
      );
    } finally {
      t.clock.reset();
    }
  });
});
