import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, loginAs, type TestApp } from '../../test/harness';
import { listen } from '../../test/merchant-client';
import { copyOut, crlfRecords, nextBatchSize } from './copy-out';

describe('crlfRecords', () => {
  const through = async (chunks: string[]) => {
    let out = '';
    for await (const c of Readable.from(chunks.map((s) => Buffer.from(s))).pipe(crlfRecords())) out += String(c);
    return out;
  };

  it('ends records with CRLF and leaves line breaks inside quoted cells, across chunk boundaries', async () => {
    expect(await through(['a,b\n1,2\n'])).toBe('a,b\r\n1,2\r\n');
    expect(await through(['a,"x\ny"\n', '2,"he said ""hi""\n"', ',z\n'])).toBe(
      'a,"x\ny"\r\n2,"he said ""hi""\n",z\r\n',
    );
    expect(await through(['a,"x', '\n', 'y', '"', '\n', 'b\n'])).toBe('a,"x\ny"\r\nb\r\n');
    expect(await through(['no line end'])).toBe('no line end');
  });
});

describe('nextBatchSize', () => {
  it('aims at the target time, grows at most twofold, stays within bounds', () => {
    expect(nextBatchSize(1000, 60)).toBe(500);
    expect(nextBatchSize(1000, 1)).toBe(2000);
    expect(nextBatchSize(100, 100_000)).toBe(50);
    expect(nextBatchSize(40_000, 1)).toBe(50_000);
  });
});

/** A long read's checks, on either database: a refusal starts nothing and leaves the pool's connections usable. */
describe('copyOut checks', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  const read = async (stream: Readable) => {
    let out = '';
    for await (const c of stream) out += String(c);
    return out;
  };
  const copy = "COPY (SELECT 'ok' AS v) TO STDOUT WITH (FORMAT csv)";
  const gone = () => Object.assign(new Error('Terminal pool not found'), { refused: true });

  it('runs the read when every check finds its row, refuses with the first that does not', async () => {
    const yes = { statement: 'SELECT 1', refuse: gone };
    const no = { statement: 'SELECT 1 WHERE false', refuse: gone };
    expect(await read(await copyOut(t.ctx, async () => copy, undefined, [yes, yes]))).toBe('ok\n');
    for (let i = 0; i < 6; i++) {
      // more refusals than the pool has connections: each gives its connection back, out of any transaction
      await expect(copyOut(t.ctx, async () => copy, undefined, [yes, no])).rejects.toMatchObject({ refused: true });
    }
    expect(await read(await copyOut(t.ctx, async () => copy, undefined, [yes]))).toBe('ok\n');
    const tx = await t.ctx.dbh.pool.query<{ s: string }>("SELECT current_setting('transaction_read_only') AS s");
    expect(tx.rows[0]!.s).toBe('off');
  });

  it('a check whose literal holds a backslash reads it with standard strings', async () => {
    const backslash = { statement: "SELECT 1 WHERE 'a\\b' = 'a' || chr(92) || 'b'", refuse: gone };
    expect(await read(await copyOut(t.ctx, async () => copy, undefined, [backslash, { ...backslash }]))).toBe('ok\n');
  });

  it('a lasting check that held is not read again; any other check is read every time', async () => {
    await t.ctx.db.execute(sql`CREATE TABLE lasting_probe (x int)`);
    await t.ctx.db.execute(sql`INSERT INTO lasting_probe VALUES (1)`);
    const statement = 'SELECT 1 FROM lasting_probe';
    const lasting = { statement, refuse: gone, lasting: true };
    const other = { statement: 'SELECT 1 FROM lasting_probe WHERE x = 1', refuse: gone };
    expect(await read(await copyOut(t.ctx, async () => copy, undefined, [lasting, other]))).toBe('ok\n');
    await t.ctx.db.execute(sql`DELETE FROM lasting_probe`);
    // seen to hold: not read again (a fact no route undoes); the other one is read and refuses
    expect(await read(await copyOut(t.ctx, async () => copy, undefined, [lasting]))).toBe('ok\n');
    await expect(copyOut(t.ctx, async () => copy, undefined, [lasting, other])).rejects.toMatchObject({
      refused: true,
    });
    // a lasting check that failed was not remembered: read again, it refuses while its row is missing
    const unseen = { statement: 'SELECT 1 FROM lasting_probe WHERE x = 2', refuse: gone, lasting: true };
    await expect(copyOut(t.ctx, async () => copy, undefined, [unseen])).rejects.toMatchObject({ refused: true });
    await t.ctx.db.execute(sql`INSERT INTO lasting_probe VALUES (2)`);
    expect(await read(await copyOut(t.ctx, async () => copy, undefined, [unseen]))).toBe('ok\n');
  });
});

/**
 * On PostgreSQL long reads have a pool of their own (DbHandle.longReads): read-only connections under the export's
 * statement limit, that cannot take the interactive pool's connections; when all are busy, SERVICE_BUSY in time.
 */
describe.skipIf(!process.env.DATABASE_URL)('long reads pool (PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // the primary's own pool, also where a replica is configured (.ci/run's replica lane): a read sent to the
    // replica while the held one sits on the primary (or the other way round) would not meet the busy pool
    t = await createTestApp({ pgLongReadPoolMax: 1, longReadWaitMs: 300, exportTimeoutMs: 7_000, replicaMaxLagMs: -1 });
  });
  afterAll(() => t.close());
  const read = async (stream: Readable) => {
    let out = '';
    for await (const c of stream) out += String(c);
    return out;
  };

  it('a long-read connection is read-only, with standard strings and the export limit, each time it is used', async () => {
    const settings =
      "COPY (SELECT current_setting('transaction_read_only'), current_setting('standard_conforming_strings'), " +
      "current_setting('statement_timeout')) TO STDOUT (FORMAT csv)";
    for (let i = 0; i < 3; i++) expect(await read(await copyOut(t.ctx, async () => settings))).toBe('on,on,7s\n');
  });

  it('a long read cannot write', async () => {
    await t.ctx.db.execute(sql`CREATE TABLE long_read_probe (x int)`);
    const writes = 'COPY (WITH w AS (INSERT INTO long_read_probe VALUES (1) RETURNING x) SELECT x FROM w) TO STDOUT';
    await expect(copyOut(t.ctx, async () => writes).then(read)).rejects.toThrow(/read-only transaction/);
    const n = await t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM long_read_probe`);
    expect(n.rows[0]!.n).toBe(0);
  });

  it('with every long-read connection busy: another long read is refused 503 in time, requests are served', async () => {
    const held = await copyOut(t.ctx, async () => "COPY (SELECT pg_sleep(1.5), 'first' AS v) TO STDOUT (FORMAT csv)");
    const cookie = await loginAs(t.app, 'admin');
    const started = Date.now();
    const [busy, list] = await Promise.all([
      t.app.inject({ method: 'GET', url: '/api/v1/invoice/csv', headers: { cookie } }),
      t.app.inject({ method: 'GET', url: '/api/v1/invoice?page=1&size=20', headers: { cookie } }),
    ]);
    expect(busy.statusCode, busy.body).toBe(503);
    expect(busy.json().error).toMatchObject({
      code: 'SERVICE_BUSY',
      message: expect.stringMatching(/exports and reports/),
    });
    expect(Date.now() - started).toBeLessThan(1_400); // refused after the 300 ms wait, before the first read ends
    expect(list.statusCode, list.body).toBe(200);
    expect(await read(held)).toBe('"",first\n');
    // the connection is free again
    const again = await t.app.inject({ method: 'GET', url: '/api/v1/invoice/csv', headers: { cookie } });
    expect(again.statusCode, again.body).toBe(200);
  });

  it('a refused report gives its connection back: more refusals than connections, then a report', async () => {
    const cookie = await loginAs(t.app, 'admin');
    const q = `merchantId=${t.demo.merchantId}&periodStart=2026-01-01&periodEnd=2026-01-31`;
    for (let i = 0; i < 3; i++) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v1/report/pool/balance?${q}&terminalPoolId=999999`,
        headers: { cookie },
      });
      expect(res.statusCode, res.body).toBe(404);
    }
    const ok = await t.app.inject({ method: 'GET', url: `/api/v1/report/invoice?${q}`, headers: { cookie } });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('long reads past their own limit (PostgreSQL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ exportTimeoutMs: 300, replicaMaxLagMs: -1 });
  });
  afterAll(() => t.close());

  it('a long read past exportTimeoutMs is stopped (the download ends with the error), the next one runs', async () => {
    const slow = await copyOut(t.ctx, async () => 'COPY (SELECT pg_sleep(1)) TO STDOUT');
    const drain = async () => {
      for await (const chunk of slow) void chunk;
    };
    const err = await drain().then(
      () => null,
      (e: { code?: string }) => e,
    );
    expect(err?.code).toBe('57014');
    let out = '';
    for await (const c of await copyOut(t.ctx, async () => "COPY (SELECT 'next') TO STDOUT")) out += String(c);
    expect(out).toBe('next\n');
  });
});

/**
 * The embedded database has one connection: a long export or report must not hold it for the whole file.
 * Over HTTP, with ROWS invoices: a list request made while the file streams is answered before the file ends.
 */
describe.skipIf(Boolean(process.env.DATABASE_URL))('long reads on the embedded database (PGlite)', () => {
  const ROWS = 40_000;
  let t: TestApp;
  let base: string;
  let cookie: string;
  let merchantId: string;

  beforeAll(async () => {
    t = await createTestApp();
    expect(t.ctx.dbh.kind).toBe('pglite');
    base = await listen(t.app);
    cookie = await loginAs(t.app, 'owner');
    const m = await t.ctx.db.execute<{ id: string }>(sql`SELECT id FROM merchants WHERE name = 'Demo Merchant'`);
    merchantId = String(m.rows[0]!.id);
    await t.ctx.db.execute(sql`
      WITH t AS (SELECT id, flow_type, currency_id FROM terminals WHERE merchant_id = ${merchantId} AND NOT is_test LIMIT 1)
      INSERT INTO invoices (merchant_id, terminal_id, merchant_invoice_id, form_id, flow_type, status, amount, fee,
                            currency_id, is_test, expires_at, status_date, created_at)
      SELECT ${merchantId}, t.id, 'bulk-' || g, 'bulk-form-' || g, t.flow_type, 'DONE', 10000 + g, 25, t.currency_id,
             false, now(), now() - g * interval '1 second', now() - g * interval '1 second'
      FROM generate_series(1, ${ROWS}) g, t`);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  /** Starts a download; resolves with its status once the first bytes are in, and its end (time, body) later. */
  async function download(path: string) {
    const res = await fetch(`${base}${path}`, { headers: { cookie } });
    const done = (async () => {
      const body = await res.text();
      return { at: performance.now(), body };
    })();
    return { status: res.status, done };
  }

  async function listWhile(path: string) {
    const file = await download(path);
    expect(file.status).toBe(200);
    const list = fetch(`${base}/api/v1/invoice?page=0&size=10`, { headers: { cookie } }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as { data: unknown[] },
      at: performance.now(),
    }));
    const [l, f] = await Promise.all([list, file.done]);
    expect(l.status).toBe(200);
    expect(l.body.data.length).toBe(10);
    return { listAt: l.at, fileAt: f.at, body: f.body };
  }

  it('GET /api/v1/invoice made while Invoices.csv streams completes before the file does', async () => {
    const r = await listWhile('/api/v1/invoice/csv');
    expect(r.listAt).toBeLessThan(r.fileAt);
    // the whole file nevertheless, newest first, one header row
    const lines = r.body.trimEnd().split('\n');
    const total = await t.ctx.db.execute<{ n: number }>(
      sql`SELECT COUNT(*)::int AS n FROM invoices WHERE merchant_id = ${merchantId}`,
    );
    expect(lines.length - 1).toBe(Number(total.rows[0]!.n));
    expect(lines.filter((l) => l.startsWith('Invoice ID,')).length).toBe(1);
    const created = lines.slice(1).map((l) => l.split(',')[3]!);
    expect([...created].sort().reverse()).toEqual(created);
    expect(new Set(lines.slice(1).map((l) => l.split(',')[0])).size).toBe(lines.length - 1);
  }, 120_000);

  it('GET /api/v1/invoice made while the invoice report streams completes before the report does', async () => {
    const r = await listWhile('/api/v1/report/invoice?periodStart=2000-01-01&periodEnd=2100-01-01');
    expect(r.listAt).toBeLessThan(r.fileAt);
    const lines = r.body.split('\r\n').filter(Boolean);
    const total = await t.ctx.db.execute<{ n: number }>(
      sql`SELECT COUNT(*)::int AS n FROM invoices WHERE merchant_id = ${merchantId}`,
    );
    expect(lines.length - 1).toBe(Number(total.rows[0]!.n));
    expect(lines.filter((l) => l.startsWith('invoice_id,')).length).toBe(1);
    const created = lines.slice(1).map((l) => l.split(',')[2]!);
    expect([...created].sort()).toEqual(created);
  }, 120_000);

  it('an aggregate report over a year is summed in short chunks of time to the same totals', async () => {
    const now = new Date();
    const start = new Date(now.getTime() - 365 * 86_400_000).toISOString().slice(0, 10);
    const end = now.toISOString().slice(0, 10);
    const pool = await t.ctx.db.execute<{ id: number }>(
      sql`SELECT id FROM terminal_pools WHERE merchant_id = ${merchantId} AND name = 'UZS Main Pool'`,
    );
    const ops = await loginAs(t.app, 'ops');
    const res = await fetch(
      `${base}/api/v1/report/pool/balance?periodStart=${start}&periodEnd=${end}&terminalPoolId=${pool.rows[0]!.id}&merchantId=${merchantId}`,
      { headers: { cookie: ops } },
    );
    expect(res.status).toBe(200);
    const [header, ...rows] = (await res.text()).split('\r\n').filter(Boolean);
    expect(header).toBe('terminal_id,terminal,currency,deposit_sum,withdrawal_sum,net');
    for (const row of rows) {
      const [terminalId, , , dep] = row.split(',');
      const db = await t.ctx.db.execute<{ d: string }>(sql`
        SELECT COALESCE(SUM(amount) FILTER (WHERE flow_type = 'DEPOSIT'), 0)::text AS d FROM invoices
        WHERE terminal_id = ${terminalId} AND status = 'DONE' AND NOT is_test
          AND status_date >= ${start}::date AND status_date < ${end}::date + 1`);
      expect(dep!.replace('.', '')).toBe(String(BigInt(db.rows[0]!.d)).padStart(3, '0'));
    }
    expect(rows.length).toBeGreaterThan(0);
  }, 120_000);
});
