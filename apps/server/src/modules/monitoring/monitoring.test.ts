import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { TerminalStatItem } from '@paydesk/contracts';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';
import { invoices } from '../../db/schema';

/**
 * Demo merchant ids read from this file's own database (the harness's demo JSON is one file shared by every
 * concurrent test run, so another run may have rewritten it).
 */
let t: TestApp;
/** The demo merchant and its terminals, as the seed wrote them. */
let demo: TestApp['demo'];
let owner: string;
let admin: string;
let secondId: string;
let testTerminal: { id: string; currencyId: number };

type Stat = TerminalStatItem;

/**
 * A few invoices of known outcome on the test terminal, created about `minutesAgo` minutes ago: moved to the middle of
 * their 5-minute UTC bucket, so that the few seconds they span never straddle a bucket boundary whatever the clock says.
 */
async function addInvoices(statuses: string[], minutesAgo: number) {
  const now = t.ctx.now().getTime();
  const bucket = 5 * 60_000;
  const at = Math.floor((now - minutesAgo * 60_000) / bucket) * bucket + bucket / 2;
  await t.ctx.db.insert(invoices).values(
    statuses.map((status, i) => ({
      merchantId: demo.merchantId,
      terminalId: testTerminal.id,
      merchantInvoiceId: `mon-${randomUUID()}`,
      formId: randomBytes(16).toString('hex'),
      flowType: 'DEPOSIT',
      status,
      amount: 1_000_000,
      currencyId: testTerminal.currencyId,
      isTest: true,
      expiresAt: new Date(now + 30 * 60_000),
      createdAt: new Date(at - i * 1000),
      statusDate: new Date(at),
    })),
  );
}

/** One invoice per [status, createdAt ISO] on a terminal, for bucket tests at a fixed clock. */
async function addAt(
  terminal: { id: string; currencyId: number; merchantId: string },
  rows: [status: string, createdAt: string][],
) {
  await t.ctx.db.insert(invoices).values(
    rows.map(([status, at]) => ({
      merchantId: terminal.merchantId,
      terminalId: terminal.id,
      merchantInvoiceId: `mon-${randomUUID()}`,
      formId: randomBytes(16).toString('hex'),
      flowType: 'DEPOSIT',
      status,
      amount: 1_000_000,
      currencyId: terminal.currencyId,
      isTest: true,
      expiresAt: new Date(new Date(at).getTime() + 30 * 60_000),
      createdAt: new Date(at),
      statusDate: new Date(at),
    })),
  );
}

beforeAll(async () => {
  t = await createTestApp();
  demo = t.demo;
  owner = await loginAs(t.app, 'owner');
  admin = await loginAs(t.app, 'admin');
  secondId = String(
    (await t.ctx.db.execute<{ id: string }>(sql`SELECT id FROM merchants WHERE name = 'Second Shop'`)).rows[0]!.id,
  );
  const id = demo.terminals.find((x) => x.name === 'Test UZS Deposit')!.id;
  const r = await t.ctx.db.execute<{ currency_id: number }>(sql`SELECT currency_id FROM terminals WHERE id = ${id}`);
  testTerminal = { id, currencyId: Number(r.rows[0]!.currency_id) };
});
afterAll(async () => {
  await t.close();
});

const get = (cookie: string, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
/** A share of the finished invoices, worked out here; null when none has finished. */
const pct = (part: number, finished: number) => (finished ? Math.round((part * 1000) / finished) / 10 : null);

/** Counts per terminal and status done here, straight from the invoices table, for (from, from + minutes]. */
async function countByTerminal(merchantId: string, from: Date, minutes: number) {
  const to = new Date(from.getTime() + minutes * 60_000);
  const res = await t.ctx.db.execute<{ terminal_id: string; status: string; n: number }>(sql`
    SELECT terminal_id, status, COUNT(*)::int AS n FROM invoices
    WHERE merchant_id = ${merchantId} AND created_at > ${from.toISOString()}::timestamptz AND created_at <= ${to.toISOString()}::timestamptz
    GROUP BY 1, 2`);
  const out = new Map<string, Map<string, number>>();
  for (const r of res.rows) {
    if (!out.has(r.terminal_id)) out.set(r.terminal_id, new Map());
    out.get(r.terminal_id)!.set(r.status, Number(r.n));
  }
  return out;
}

function expectMatchesCount(stats: Stat[], counted: Map<string, Map<string, number>>) {
  for (const s of stats) {
    const c = counted.get(s.terminalId) ?? new Map<string, number>();
    const total = [...c.values()].reduce((a, b) => a + b, 0);
    const n = (k: string) => c.get(k) ?? 0;
    const finished = n('DONE') + n('CANCELED') + n('DECLINED');
    expect(s, s.name).toMatchObject({
      total,
      newCount: n('NEW'),
      successCount: n('DONE'),
      successPercent: pct(n('DONE'), finished),
      cancelCount: n('CANCELED'),
      cancelPercent: pct(n('CANCELED'), finished),
      declinedCount: n('DECLINED'),
      declinedPercent: pct(n('DECLINED'), finished),
    });
    expect(s.series.reduce((a, p) => a + p.total, 0)).toBe(total);
    expect(s.series.reduce((a, p) => a + p.successCount, 0)).toBe(n('DONE'));
    expect(s.series.reduce((a, p) => a + p.finishedCount, 0)).toBe(finished);
  }
}

describe('GET /api/data/v1/terminal', () => {
  it("gives every terminal of the merchant with counts and percents that match a count of the period's invoices", async () => {
    await addInvoices(['DONE', 'DONE', 'DONE', 'DECLINED', 'CANCELED', 'NEW', 'IN_PROGRESS', 'DONE'], 20);
    for (const [minutes, bucketMinutes] of [
      [60, 5],
      [180, 15],
      [1440, 60],
    ] as const) {
      // a whole second, so that no seed invoice sits between this and the server's own clock reading
      const now = new Date(Math.floor(Date.now() / 1000) * 1000 + 500);
      t.clock.set(now);
      const res = await get(owner, `/api/data/v1/terminal?minutes=${minutes}`);
      t.clock.reset();
      expect(res.statusCode).toBe(200);
      const stats = res.json().data as Stat[];
      expect(stats.map((s) => s.terminalId).sort()).toEqual(demo.terminals.map((x) => x.id).sort());
      for (const s of stats) {
        expect(s.bucketMinutes).toBe(bucketMinutes);
        // consecutive buckets on UTC clock boundaries, from the period start's bucket to now's
        const starts = s.series.map((p) => new Date(p.t).getTime());
        const step = bucketMinutes * 60_000;
        expect(starts.every((x, i) => x % step === 0 && (i === 0 || x - starts[i - 1]! === step))).toBe(true);
        expect(starts.at(-1)).toBe(Math.floor(now.getTime() / step) * step);
        expect(s.series.length).toBeGreaterThanOrEqual(minutes / bucketMinutes);
        expect(s.series.length).toBeLessThanOrEqual(minutes / bucketMinutes + 1);
      }
      const from = new Date(now.getTime() - minutes * 60_000);
      expectMatchesCount(stats, await countByTerminal(demo.merchantId, from, minutes));
    }
  });

  it('computes the known mix on the test terminal, thresholds from its attributes', async () => {
    const stats = (await get(owner, '/api/data/v1/terminal?minutes=60')).json().data as Stat[];
    const s = stats.find((x) => x.terminalId === testTerminal.id)!;
    // the seed may also have put invoices on this terminal in the last hour; those are in the count too
    expect(s.successCount).toBeGreaterThanOrEqual(4);
    expect(s).toMatchObject({ enable: true, successPercentLowThreshold: 60, successPercentHighThreshold: 85 });
    // the 5-minute bucket 20 minutes ago holds our 8 invoices
    const bucket = s.series.find((p) => p.total >= 8);
    expect(bucket).toBeDefined();
    expect(bucket!.successCount).toBeGreaterThanOrEqual(4);
  });

  it('a fresh period with exactly our invoices gives exact percents of the finished ones', async () => {
    t.clock.advance(6 * 3600_000); // six hours on: nothing of the seed is in the last hour any more
    await addInvoices(['DONE', 'DONE', 'DONE', 'DONE', 'DECLINED', 'CANCELED', 'NEW', 'IN_PROGRESS', 'PAYED'], 5);
    const stats = (await get(owner, '/api/data/v1/terminal?minutes=60')).json().data as Stat[];
    const s = stats.find((x) => x.terminalId === testTerminal.id)!;
    // 6 finished: 4 done, 1 declined, 1 canceled; NEW, IN_PROGRESS and PAYED are still under way
    expect(s).toMatchObject({
      total: 9,
      newCount: 1,
      successCount: 4,
      successPercent: 66.7,
      declinedCount: 1,
      declinedPercent: 16.7,
      cancelCount: 1,
      cancelPercent: 16.7,
    });
    const others = stats.filter((x) => x.terminalId !== testTerminal.id);
    for (const o of others)
      expect(o).toMatchObject({
        total: 0,
        successPercent: null,
        cancelPercent: null,
        declinedPercent: null,
        series: expect.arrayContaining([expect.objectContaining({ successPercent: null })]),
      });
    expect(s.series.filter((p) => p.total > 0)).toEqual([
      expect.objectContaining({ total: 9, successCount: 4, finishedCount: 6, successPercent: 66.7 }),
    ]);
    t.clock.reset();
  });

  it('a terminal whose invoices are all NEW has no rate (null, "no data"), not 0 %', async () => {
    t.clock.advance(12 * 3600_000); // twelve hours on: an hour with nothing but what is made here
    await addInvoices(['NEW', 'NEW', 'NEW'], 5);
    const res = await get(owner, '/api/data/v1/terminal?minutes=60');
    expect(res.statusCode).toBe(200);
    const s = (res.json().data as Stat[]).find((x) => x.terminalId === testTerminal.id)!;
    expect(s).toMatchObject({
      total: 3,
      newCount: 3,
      successCount: 0,
      successPercent: null,
      cancelCount: 0,
      cancelPercent: null,
      declinedCount: 0,
      declinedPercent: null,
    });
    expect(s.series.filter((p) => p.total > 0)).toEqual([
      expect.objectContaining({ total: 3, successCount: 0, finishedCount: 0, successPercent: null }),
    ]);
    // one that finished, even as a failure, gives a rate again: 0 % of one finished
    await addInvoices(['DECLINED'], 5);
    const after = (await get(owner, '/api/data/v1/terminal?minutes=60')).json().data as Stat[];
    expect(after.find((x) => x.terminalId === testTerminal.id)).toMatchObject({
      total: 4,
      successPercent: 0,
      declinedPercent: 100,
      cancelPercent: 0,
    });
    t.clock.reset();
  });

  it('scopes: a merchant user naming another merchant gets its own; merchant.rw.all gets the one it names', async () => {
    const mine = (await get(owner, `/api/data/v1/terminal?minutes=60&merchantId=${secondId}`)).json().data as Stat[];
    expect(mine.map((s) => s.terminalId).sort()).toEqual(demo.terminals.map((x) => x.id).sort());
    const now = new Date(Math.floor(Date.now() / 1000) * 1000 + 500);
    t.clock.set(now);
    const res = await get(admin, `/api/data/v1/terminal?minutes=180&merchantId=${secondId}`);
    t.clock.reset();
    const theirs = res.json().data as Stat[];
    expect(theirs.map((s) => s.name).sort()).toEqual(['Shop RUB Withdrawal', 'Shop UZS Deposit']);
    expectMatchesCount(theirs, await countByTerminal(secondId, new Date(now.getTime() - 180 * 60_000), 180));
  });

  it('403 without data.terminal.statistic (support, viewer); 401 without a session', async () => {
    for (const u of ['support', 'viewer']) {
      const res = await get(await loginAs(t.app, u), '/api/data/v1/terminal?minutes=60');
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/data/v1/terminal?minutes=60' })).statusCode).toBe(401);
  });

  it('400 with clear messages for bad queries', async () => {
    const cases: [string, RegExp][] = [
      ['', /minutes/],
      ['?minutes=abc', /minutes must be a number/],
      ['?minutes=0', /at least 1/],
      ['?minutes=1441', /at most 1440/],
      ['?minutes=1.5', /whole number/],
      ['?minutes=60&merchantId=nope', /merchantId/],
      ['?minutes=60&foo=1', /foo/],
    ];
    for (const [q, msg] of cases) {
      const res = await get(owner, `/api/data/v1/terminal${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect(res.json().error.message, q).toMatch(msg);
    }
  });
});

describe('GET /api/data/v1/terminal: success-rate series', () => {
  // a quiet day far from the seed: 10:37:30 UTC
  const NOW = '2030-01-15T10:37:30Z';
  let shopTerminal: { id: string; currencyId: number; merchantId: string };

  beforeAll(async () => {
    const r = await t.ctx.db.execute<{ id: string; currency_id: number }>(
      sql`SELECT id, currency_id FROM terminals WHERE merchant_id = ${secondId} AND name = 'Shop UZS Deposit'`,
    );
    shopTerminal = { id: String(r.rows[0]!.id), currencyId: Number(r.rows[0]!.currency_id), merchantId: secondId };
    const ours = { ...testTerminal, merchantId: demo.merchantId };
    await addAt(ours, [
      ['DONE', '2030-01-14T23:59:45Z'], // in "from day start" (sent as 638 min = from 23:59:30), folded into 00:00
      ['DONE', '2030-01-15T07:37:00Z'], // before the 3 h period
      ['DECLINED', '2030-01-15T08:01:00Z'], // 3 h: bucket 08:00
      ['DONE', '2030-01-15T09:37:00Z'], // before the 1 h period; 3 h: bucket 09:30
      ['DONE', '2030-01-15T09:37:45Z'], // 1 h: first bucket 09:35
      ['DONE', '2030-01-15T10:02:00Z'], // 1 h: bucket 10:00
      ['DONE', '2030-01-15T10:04:59Z'],
      ['DECLINED', '2030-01-15T10:03:00Z'],
      ['NEW', '2030-01-15T10:36:00Z'], // 1 h: last bucket 10:35
      ['DONE', '2030-01-15T10:40:00Z'], // after now: never counted
    ]);
    // another merchant's traffic in the very same buckets must not show up in ours
    await addAt(shopTerminal, [
      ['DONE', '2030-01-15T10:01:00Z'],
      ['DECLINED', '2030-01-15T10:02:00Z'],
      ['DONE', '2030-01-15T10:36:00Z'],
    ]);
  });

  async function statsAt(cookie: string, query: string) {
    t.clock.set(new Date(NOW));
    const res = await get(cookie, `/api/data/v1/terminal?${query}`);
    t.clock.reset();
    expect(res.statusCode, query).toBe(200);
    return res.json().data as Stat[];
  }
  const nonEmpty = (s: Stat) =>
    s.series.filter((p) => p.total > 0).map((p) => [p.t.slice(11, 16), p.successCount, p.total]);

  it('1 h: 5-minute buckets from 09:35 to 10:35 with the successes and totals of the invoices made', async () => {
    const stats = await statsAt(owner, 'minutes=60');
    const s = stats.find((x) => x.terminalId === testTerminal.id)!;
    expect(s.bucketMinutes).toBe(5);
    expect(s.series.map((p) => p.t.slice(11, 16))).toEqual(
      Array.from({ length: 13 }, (_, i) => {
        const m = 9 * 60 + 35 + i * 5;
        return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
      }),
    );
    expect(s.series[0]!.t).toBe('2030-01-15T09:35:00Z');
    expect(nonEmpty(s)).toEqual([
      ['09:35', 1, 1],
      ['10:00', 2, 3],
      ['10:35', 0, 1],
    ]);
    expect(s.series.find((p) => p.t.slice(11, 16) === '10:00')!.successPercent).toBe(66.7);
    // 10:35 holds one NEW invoice: nothing has finished there, so no rate (not 0 %)
    expect(s.series.find((p) => p.t.slice(11, 16) === '10:35')!.successPercent).toBeNull();
    expect(s.series.find((p) => p.t.slice(11, 16) === '10:10')!.successPercent).toBeNull();
    // 3 done of the 4 finished (the NEW one has no outcome yet)
    expect(s).toMatchObject({ total: 5, successCount: 3, declinedCount: 1, newCount: 1, successPercent: 75 });
    // Demo Merchant's other terminals had nothing: every bucket empty
    for (const o of stats.filter((x) => x.terminalId !== testTerminal.id)) {
      expect(o.series).toHaveLength(13);
      expect(nonEmpty(o)).toEqual([]);
    }
  });

  it('3 h: 15-minute buckets from 07:30; from day start: hourly from 00:00, the seconds before midnight folded in', async () => {
    const three = (await statsAt(owner, 'minutes=180')).find((x) => x.terminalId === testTerminal.id)!;
    expect(three.bucketMinutes).toBe(15);
    expect(three.series).toHaveLength(13);
    expect(three.series[0]!.t).toBe('2030-01-15T07:30:00Z');
    expect(nonEmpty(three)).toEqual([
      ['08:00', 0, 1],
      ['09:30', 2, 2],
      ['10:00', 2, 3],
      ['10:30', 0, 1],
    ]);

    // what the web sends for "from day start" at 10:37:30: ceil(637.5) = 638 minutes
    const day = (await statsAt(owner, 'minutes=638')).find((x) => x.terminalId === testTerminal.id)!;
    expect(day.bucketMinutes).toBe(60);
    expect(day.series.map((p) => p.t)).toEqual(
      Array.from({ length: 11 }, (_, h) => `2030-01-15T${String(h).padStart(2, '0')}:00:00Z`),
    );
    expect(nonEmpty(day)).toEqual([
      ['00:00', 1, 1],
      ['07:00', 1, 1],
      ['08:00', 0, 1],
      ['09:00', 2, 2],
      ['10:00', 2, 4],
    ]);
    expect(day.total).toBe(9);
  });

  it("scoping: the other merchant's owner sees only its own buckets, never ours, even naming our merchant", async () => {
    const shop2 = await loginAs(t.app, 'shop2');
    for (const q of ['minutes=60', `minutes=60&merchantId=${demo.merchantId}`]) {
      const stats = await statsAt(shop2, q);
      expect(stats.map((s) => s.terminalId)).not.toContain(testTerminal.id);
      const s = stats.find((x) => x.terminalId === shopTerminal.id)!;
      expect(nonEmpty(s)).toEqual([
        ['10:00', 1, 2],
        ['10:35', 1, 1],
      ]);
    }
  });

  it('400 for a period the series cannot take', async () => {
    for (const q of ['minutes=0', 'minutes=1441', 'minutes=-5', 'minutes=60&bucket=5']) {
      const res = await get(owner, `/api/data/v1/terminal?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
  });
});

describe('GET /api/v1/terminal/statistic', () => {
  it('merchant.rw.all sees every merchant with its terminals; others only their own', async () => {
    const all = (await get(admin, '/api/v1/terminal/statistic')).json().data as {
      merchantId: string;
      name: string;
      terminals: { terminalId: string; name: string; enable: boolean }[];
    }[];
    expect(all.map((m) => m.name)).toEqual(['Demo Merchant', 'Second Shop']);
    expect(all[0]!.terminals.map((x) => x.terminalId).sort()).toEqual(demo.terminals.map((x) => x.id).sort());
    expect(all[0]!.terminals.every((x) => x.enable === true)).toBe(true);

    const own = (await get(owner, `/api/v1/terminal/statistic?merchantId=${secondId}`)).json().data;
    expect(own.map((m: { merchantId: string }) => m.merchantId)).toEqual([demo.merchantId]);
    const second = (await get(await loginAs(t.app, 'shop2'), '/api/v1/terminal/statistic')).json().data;
    expect(second.map((m: { name: string }) => m.name)).toEqual(['Second Shop']);
    expect(second[0].terminals).toHaveLength(2);
  });

  it('403 without terminal.statistic.settings; 400 for unknown parameters', async () => {
    for (const u of ['support', 'viewer']) {
      expect((await get(await loginAs(t.app, u), '/api/v1/terminal/statistic')).statusCode).toBe(403);
    }
    const bad = await get(owner, '/api/v1/terminal/statistic?x=1');
    expect(bad.statusCode).toBe(400);
  });
});
