import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestDb, type TestApp } from '../../test/harness';
import { TMP_DIR } from '../../test/paths';
import { buildApp, logOptions } from '../app';
import { loadConfig } from '../config';
import { createContext } from '../lib/context';
import { countLockout, countSignInFailure } from '../lib/metrics';
import { startLoop } from '../workers/loop';

/**
 * Operations endpoints and request logging (hardening issue): /metrics in Prometheus text with a registry per
 * app, its access rule (METRICS_TOKEN, else internal clients only in production), /api/ready, and one log
 * line per request that never carries a query string, a header or a body.
 */
const apps: TestApp[] = [];
afterAll(async () => Promise.all(apps.map((a) => a.close())));

const app = async (overrides: Parameters<typeof createTestApp>[0] = {}) => {
  const t = await createTestApp(overrides);
  apps.push(t);
  return t;
};

const INVOICE_ID = '0b6c7a52-6a8e-4c1e-9d2f-3f1d2a9c8e71';

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

describe('/metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await app();
  });

  it('serves Prometheus text: requests by route pattern, outbox, pool, sign-ins, process', async () => {
    // an undelivered callback an hour old
    // (a copy of a seeded callback's body: a real one, as the harness checks every callback's body)
    const inv = await t.ctx.dbh.pool.query<{ id: string; merchant_id: string; payload: unknown }>(
      'SELECT invoice_id AS id, merchant_id, payload FROM callbacks LIMIT 1',
    );
    await t.ctx.dbh.pool.query(
      `INSERT INTO callbacks (invoice_id, merchant_id, url, payload, invoice_status, status, create_date)
       VALUES ($1, $2, 'http://127.0.0.1:9/cb', $3, 'NEW', 'PENDING', now() - interval '1 hour')`,
      [inv.rows[0]!.id, inv.rows[0]!.merchant_id, JSON.stringify(inv.rows[0]!.payload)],
    );
    const pending = await t.ctx.dbh.pool.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM callbacks WHERE status = 'PENDING'",
    );

    expect((await t.app.inject({ method: 'GET', url: `/api/v1/invoice/${INVOICE_ID}?merchantId=x` })).statusCode).toBe(
      401,
    );
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/invoice/${INVOICE_ID}` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/no-such-route/123' })).statusCode).toBe(404);
    countSignInFailure(t.ctx, 'password');
    countSignInFailure(t.ctx, 'password');
    countSignInFailure(t.ctx, 'second_factor');
    countLockout(t.ctx);

    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = res.body;
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');

    // the route label is the pattern: the id (and the query) never become a label value
    const invoice = { method: 'GET', route: '/api/v1/invoice/:id', status_code: '401' };
    expect(sample(text, 'http_request_duration_seconds_count', invoice)).toBe(2);
    expect(sample(text, 'http_request_duration_seconds_bucket', { ...invoice, le: '+Inf' })).toBe(2);
    expect(text).not.toContain(INVOICE_ID);
    expect(text).not.toContain('merchantId=x');
    expect(sample(text, 'http_request_duration_seconds_count', { route: '/api/health', status_code: '200' })).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count', { route: 'unmatched', status_code: '404' })).toBe(1);
    expect(text).not.toContain('no-such-route');

    expect(sample(text, 'paydesk_callback_outbox_depth')).toBe(pending.rows[0]!.n);
    expect(sample(text, 'paydesk_callback_outbox_oldest_age_seconds')).toBeGreaterThanOrEqual(3599);

    const max = t.ctx.dbh.pool.options.max;
    expect(sample(text, 'paydesk_db_pool_max_connections')).toBe(max);
    expect(sample(text, 'paydesk_db_pool_connections')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'paydesk_db_pool_connections')).toBeLessThanOrEqual(max);
    expect(sample(text, 'paydesk_db_pool_idle_connections')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'paydesk_db_pool_waiting_clients')).toBe(0);

    expect(sample(text, 'paydesk_sign_in_failures_total', { reason: 'password' })).toBe(2);
    expect(sample(text, 'paydesk_sign_in_failures_total', { reason: 'second_factor' })).toBe(1);
    expect(sample(text, 'paydesk_sign_in_lockouts_total')).toBe(1);

    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('worker loops report the time since their last good tick and its duration, and go away when stopped', async () => {
    const ok = startLoop('metrics-test-ok', 20, t.app.log, async () => {
      await new Promise((r) => setTimeout(r, 5));
    });
    const failing = startLoop('metrics-test-failing', 20, t.app.log, async () => {
      throw new Error('always');
    });
    try {
      await new Promise((r) => setTimeout(r, 600));
      const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      const okAge = sample(text, 'paydesk_worker_seconds_since_last_tick', { worker: 'metrics-test-ok' });
      expect(okAge).toBeGreaterThanOrEqual(0);
      expect(okAge).toBeLessThan(0.5);
      expect(sample(text, 'paydesk_worker_tick_duration_seconds', { worker: 'metrics-test-ok' })).toBeGreaterThan(
        0.003,
      );
      expect(sample(text, 'paydesk_worker_interval_seconds', { worker: 'metrics-test-ok' })).toBe(0.02);
      // a loop whose every tick fails is lagging: its age counts from its start
      expect(
        sample(text, 'paydesk_worker_seconds_since_last_tick', { worker: 'metrics-test-failing' }),
      ).toBeGreaterThanOrEqual(0.59);
    } finally {
      await ok.stop();
      await failing.stop();
    }
    const after = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(after).not.toContain('metrics-test-ok');
    expect(after).not.toContain('metrics-test-failing');
  });

  it('each app has its own registry', async () => {
    const other = await app();
    const text = (await other.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(sample(text, 'paydesk_sign_in_failures_total', { reason: 'password' })).toBe(0);
    expect(sample(text, 'http_request_duration_seconds_count', { route: '/api/v1/invoice/:id' })).toBeUndefined();
  });

  it('outside production without a token: anyone', async () => {
    expect(t.ctx.config.env).toBe('test');
    const res = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.7' });
    expect(res.statusCode).toBe(200);
  });

  it('is not in the OpenAPI document and needs no session', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(Object.keys(doc.paths)).not.toContain('/metrics');
    expect(Object.keys(doc.paths)).not.toContain('/api/ready');
    expect(Object.keys(doc.paths)).not.toContain('/api/health');
  });
});

describe('/metrics access', () => {
  const TOKEN = 'metrics-token-0123456789abcdef';

  it('with METRICS_TOKEN: 401 without it or with a wrong one, 200 with it', async () => {
    const t = await app({ metricsToken: TOKEN });
    const none = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: expect.any(String) } });
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    for (const authorization of [`Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, TOKEN, `Basic ${TOKEN}`]) {
      const wrong = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization } });
      expect(wrong.statusCode, authorization).toBe(401);
      expect(wrong.body).not.toContain('http_request_duration_seconds');
    }
    const ok = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('http_request_duration_seconds');
  });

  it('in production without a token: loopback and private clients only, never a forwarded request', async () => {
    const t = await app({ env: 'production', trustProxy: false });
    const from = (remoteAddress: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });
    for (const ip of ['127.0.0.1', '10.1.2.3', '172.20.0.5', '192.168.1.20', '::1', '::ffff:10.0.0.7', 'fd00::5']) {
      expect((await from(ip)).statusCode, ip).toBe(200);
    }
    for (const ip of ['203.0.113.7', '8.8.8.8', '2001:db8::1', '::ffff:203.0.113.7', '100.64.0.1']) {
      const res = await from(ip);
      expect(res.statusCode, ip).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
    }
    // a proxy nobody told us about (TRUST_PROXY) makes the internet look internal: refused
    expect((await from('127.0.0.1', { 'x-forwarded-for': '203.0.113.7' })).statusCode).toBe(403);
    // the liveness probe answers anyone
    expect((await t.app.inject({ method: 'GET', url: '/api/health', remoteAddress: '203.0.113.7' })).statusCode).toBe(
      200,
    );
  });

  it('TRUST_PROXY=true does not let a client write its own address into X-Forwarded-For; a listed proxy does', async () => {
    const blanket = await app({ env: 'production', trustProxy: true });
    const spoofed = await blanket.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '10.0.0.2',
      headers: { 'x-forwarded-for': '127.0.0.1, 203.0.113.9' },
    });
    expect(spoofed.statusCode).toBe(403);
    const listed = await app({ env: 'production', trustProxy: '10.0.0.2' });
    const internalViaProxy = await listed.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '10.0.0.2',
      headers: { 'x-forwarded-for': '10.0.0.9' },
    });
    expect(internalViaProxy.statusCode).toBe(200);
    const externalViaProxy = await listed.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '10.0.0.2',
      headers: { 'x-forwarded-for': '127.0.0.1, 203.0.113.9' },
    });
    expect(externalViaProxy.statusCode).toBe(403);
  });
});

describe('/api/health and /api/ready', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await app();
  });

  it('health: 200 {ok:true}; ready: 200 {ok:true} on a migrated database', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ ok: true });
    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    // with streaming replicas configured (DATABASE_REPLICA_URL), each one's lag is reported beside
    const { replicas, ...rest } = ready.json();
    expect(rest).toEqual({ ok: true });
    expect(replicas === undefined || Array.isArray(replicas)).toBe(true);
  });

  it('ready: 503 NOT_READY when the database does not answer within 2 s; health and /metrics still 200', async () => {
    const pool = t.ctx.dbh.pool;
    const held = await Promise.all(Array.from({ length: pool.options.max }, () => pool.connect()));
    try {
      const started = Date.now();
      const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toEqual({ error: { code: 'NOT_READY', message: expect.stringMatching(/2000 ms/) } });
      expect(Date.now() - started).toBeLessThan(5000);
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      // a scrape still answers, saying what it cannot know (and what the pool is doing)
      const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
      expect(metrics.statusCode).toBe(200);
      expect(sample(metrics.body, 'paydesk_callback_outbox_depth')).toBeNaN();
      expect(sample(metrics.body, 'paydesk_db_pool_waiting_clients')).toBeGreaterThanOrEqual(1);
    } finally {
      for (const c of held) c.release();
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
  });

  it('ready: 503 NOT_READY while a migration of this build is not applied', async () => {
    await t.ctx.dbh.pool.query(
      'DELETE FROM drizzle.__drizzle_migrations WHERE created_at = (SELECT max(created_at) FROM drizzle.__drizzle_migrations)',
    );
    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().error).toEqual({
      code: 'NOT_READY',
      message: expect.stringMatching(/1 migration\(s\) pending/),
    });
  });
});

describe('request log', () => {
  it('one info line per request: method, route, path without query, status, time, request id; no secrets', async () => {
    const raw: string[] = [];
    const dbh = await createTestDb();
    const config = loadConfig(
      { NODE_ENV: 'test' },
      { workers: false, dataDir: TMP_DIR, publicUrl: 'http://localhost:3000', trustProxy: true },
    );
    // no redaction configured: the line itself must carry nothing secret
    const app = await buildApp(await createContext(dbh, config), {
      logger: { level: 'debug', stream: { write: (s: string) => raw.push(s) } },
    });
    try {
      await app.ready();
      const secrets = {
        query: 'SEARCHTERM-4111111111111111',
        cookie: 'COOKIEVALUE-abcdef0123456789',
        authorization: 'Bearer AUTHVALUE-0123456789',
        signature: 'SIGNATUREVALUE-0123456789',
        password: 'PASSWORDVALUE-0123456789',
      };
      const requests = [
        {
          method: 'GET' as const,
          url: `/api/v1/invoice?search=${secrets.query}`,
          headers: { cookie: `jwt=${secrets.cookie}`, authorization: secrets.authorization },
        },
        {
          method: 'GET' as const,
          url: `/api/v1/invoice/${INVOICE_ID}?q=${secrets.query}`,
          headers: { 'x-signature': secrets.signature },
        },
        {
          method: 'POST' as const,
          url: '/api/v1/login',
          payload: { username: 'nobody-at-all', password: secrets.password },
        },
        { method: 'GET' as const, url: `/no/such/page.js?x=${secrets.query}` },
      ];
      for (const r of requests) await app.inject(r);
      // probes and scrapes: debug
      await app.inject({ method: 'GET', url: '/api/health' });
      await app.inject({ method: 'GET', url: '/api/ready' });
      await app.inject({ method: 'GET', url: '/metrics' });

      const lines = raw.map((l) => JSON.parse(l));
      const info = lines.filter((l) => l.level === 30);
      expect(info).toHaveLength(requests.length);
      expect(new Set(info.map((l) => l.reqId)).size).toBe(requests.length);
      expect(info.every((l) => l.msg === 'request completed' && typeof l.responseTimeMs === 'number')).toBe(true);
      expect(info.map(({ method, route, path, statusCode }) => ({ method, route, path, statusCode }))).toEqual([
        { method: 'GET', route: '/api/v1/invoice', path: '/api/v1/invoice', statusCode: 401 },
        { method: 'GET', route: '/api/v1/invoice/:id', path: `/api/v1/invoice/${INVOICE_ID}`, statusCode: 401 },
        { method: 'POST', route: '/api/v1/login', path: '/api/v1/login', statusCode: 401 },
        { method: 'GET', route: null, path: '/no/such/page.js', statusCode: 404 },
      ]);
      // nothing else is logged per request (Fastify's "incoming request" / "request completed" pair is off)
      expect(lines.filter((l) => l.msg === 'incoming request')).toHaveLength(0);

      const quiet = lines.filter((l) => l.level === 20 && l.msg === 'request completed').map((l) => l.path);
      expect(quiet).toEqual(['/api/health', '/api/ready', '/metrics']);

      const all = raw.join('');
      for (const [what, secret] of Object.entries(secrets)) {
        expect(all, what).not.toContain(secret.replace(/^Bearer /, ''));
      }
      expect(all).not.toMatch(/"(cookie|authorization|x-signature|headers|body)"/i);
    } finally {
      await app.close();
      await dbh.close();
    }
  });

  it('masks card and phone numbers in every line, whatever writes them (a path, an error, a plugin)', async () => {
    const raw: string[] = [];
    const dbh = await createTestDb();
    const config = loadConfig({ NODE_ENV: 'test' }, { workers: false, dataDir: TMP_DIR });
    const app = await buildApp(await createContext(dbh, config), {
      logger: logOptions('debug', { write: (s: string) => raw.push(s) }),
    });
    try {
      await app.ready();
      // a number in the path itself, plain and grouped
      await app.inject({ method: 'GET', url: '/pay/9860123456789015/+998901234567' });
      await app.inject({ method: 'GET', url: '/pay/9860%201234%205678%209015' });
      // what code logs: an error's message, an object's fields
      app.log.error(new Error('provider refused card 4111-1111-1111-1111 for +7 916 123-45-67'), 'payout failed');
      app.log.info({ requisite: '9860123456789015', time2: 1764400000006 }, 'requisite 9860 1234 5678 9015');
      const all = raw.join('');
      for (const full of ['9860123456789015', '9860 1234 5678 9015', '4111-1111-1111-1111', '998901234567']) {
        expect(all).not.toContain(full);
      }
      expect(all).not.toContain('916 123-45-67');
      expect(all).toContain('986012******9015');
      expect(all).toContain('4111-11**-****-1111');
      expect(all).toContain('+99890*****67');
      expect(all).toContain('+7916*****67');
      // a time in ms is left alone, and every line is still JSON
      expect(all).toContain('1764400000006');
      for (const l of raw) expect(() => JSON.parse(l)).not.toThrow();
    } finally {
      await app.close();
      await dbh.close();
    }
  });
});
