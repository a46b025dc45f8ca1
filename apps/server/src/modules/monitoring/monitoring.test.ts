import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';
import { invoices } from '../../db/schema';

/**
 * Demo merchant ids read from this file's own database (the harness's demo JSON is one file shared by every
 * concurrent test run, so another run may have rewritten it).
 */
async function demoOf(t: TestApp) {
  const m = await t.ctx.db.execute<{ id: string }>(sql`SELECT id FROM merchants WHERE name = 'Demo Merchant'`);
  const merchantId = String(m.rows[0]!.id);
  const ts = await t.ctx.db.execute<{ id: string; name: string }>(
    sql`SELECT id, name FROM terminals WHERE merchant_id = ${merchantId}`,
  );
  return { merchantId, terminals: ts.rows.map((r) => ({ id: String(r.id), name: String(r.name) })) };
}

let t: TestApp;
let demo: Awaited<ReturnType<typeof demoOf>>;
let owner: string;
let admin: string;
let secondId: string;
let testTerminal: { id: string; currencyId: number };

type Stat = {
  terminalId: string;
  name: string;
  enable: boolean;
  total: number;
  newCount: number;
  successCount: number;
  successPercent: number;
  cancelCount: number;
  cancelPercent: number;
  declinedCount: number;
  declinedPercent: number;
  successPercentLowThreshold: number | null;
  successPercentHighThreshold: number | null;
  series: { t: string; successPercent: number | null; total: number }[];
};

/** A few invoices of known outcome on the test terminal, created minutes ago. */
async function addInvoices(statuses: string[], minutesAgo: number) {
  const now = t.ctx.now().getTime();
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
      createdAt: new Date(now - minutesAgo * 60_000 - i * 1000),
      statusDate: new Date(now - minutesAgo * 60_000),
    })),
  );
}

beforeAll(async () => {
  t = await createTestApp();
  demo = await demoOf(t);
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
const pct = (part: number, total: number) => (total ? Math.round((part * 1000) / total) / 10 : 0);

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
    expect(s, s.name).toMatchObject({
      total,
      newCount: n('NEW'),
      successCount: n('DONE'),
      successPercent: pct(n('DONE'), total),
      cancelCount: n('CANCELED'),
      cancelPercent: pct(n('CANCELED'), total),
      declinedCount: n('DECLINED'),
      declinedPercent: pct(n('DECLINED'), total),
    });
    expect(s.series.reduce((a, p) => a + p.total, 0)).toBe(total);
  }
}

describe('GET /api/data/v1/terminal', () => {
  it("gives every terminal of the merchant with counts and percents that match a count of the period's invoices", async () => {
    await addInvoices(['DONE', 'DONE', 'DONE', 'DECLINED', 'CANCELED', 'NEW', 'IN_PROGRESS', 'DONE'], 20);
    for (const minutes of [60, 180, 1440]) {
      const res = await get(owner, `/api/data/v1/terminal?minutes=${minutes}`);
      expect(res.statusCode).toBe(200);
      const stats = res.json().data as Stat[];
      expect(stats.map((s) => s.terminalId).sort()).toEqual(demo.terminals.map((x) => x.id).sort());
      expect(stats[0]!.series).toHaveLength(10);
      const from = new Date(stats[0]!.series[0]!.t);
      expect(Math.abs(from.getTime() - (Date.now() - minutes * 60_000))).toBeLessThan(10_000);
      expectMatchesCount(stats, await countByTerminal(demo.merchantId, from, minutes));
    }
  });

  it('computes the known mix on the test terminal: 4 of 8 done = 50 %, 12.5 % declined, thresholds from its attributes', async () => {
    const stats = (await get(owner, '/api/data/v1/terminal?minutes=60')).json().data as Stat[];
    const s = stats.find((x) => x.terminalId === testTerminal.id)!;
    // the seed may also have put invoices on this terminal in the last hour; those are in the count too
    const counted = (await countByTerminal(demo.merchantId, new Date(s.series[0]!.t), 60)).get(testTerminal.id)!;
    expect(counted.get('DONE')).toBeGreaterThanOrEqual(4);
    expect(s.successCount).toBe(counted.get('DONE'));
    expect(s).toMatchObject({ enable: true, successPercentLowThreshold: 60, successPercentHighThreshold: 85 });
    // the bucket 20 minutes ago holds our 8 invoices
    const bucket = s.series.find((p) => p.total >= 8);
    expect(bucket).toBeDefined();
  });

  it('a fresh period with exactly our invoices gives exact percents', async () => {
    t.clock.advance(6 * 3600_000); // six hours on: nothing of the seed is in the last hour any more
    await addInvoices(['DONE', 'DONE', 'DONE', 'DONE', 'DECLINED', 'CANCELED', 'NEW', 'IN_PROGRESS'], 5);
    const stats = (await get(owner, '/api/data/v1/terminal?minutes=60')).json().data as Stat[];
    const s = stats.find((x) => x.terminalId === testTerminal.id)!;
    expect(s).toMatchObject({
      total: 8,
      newCount: 1,
      successCount: 4,
      successPercent: 50,
      declinedCount: 1,
      declinedPercent: 12.5,
      cancelCount: 1,
      cancelPercent: 12.5,
    });
    const others = stats.filter((x) => x.terminalId !== testTerminal.id);
    for (const o of others)
      expect(o).toMatchObject({
        total: 0,
        successPercent: 0,
        series: expect.arrayContaining([expect.objectContaining({ successPercent: null })]),
      });
    expect(s.series.at(-1)).toMatchObject({ total: 8, successPercent: 50 });
    t.clock.reset();
  });

  it('scopes: a merchant user naming another merchant gets its own; merchant.rw.all gets the one it names', async () => {
    const mine = (await get(owner, `/api/data/v1/terminal?minutes=60&merchantId=${secondId}`)).json().data as Stat[];
    expect(mine.map((s) => s.terminalId).sort()).toEqual(demo.terminals.map((x) => x.id).sort());
    const res = await get(admin, `/api/data/v1/terminal?minutes=180&merchantId=${secondId}`);
    const theirs = res.json().data as Stat[];
    expect(theirs.map((s) => s.name).sort()).toEqual(['Shop RUB Withdrawal', 'Shop UZS Deposit']);
    expectMatchesCount(theirs, await countByTerminal(secondId, new Date(theirs[0]!.series[0]!.t), 180));
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
