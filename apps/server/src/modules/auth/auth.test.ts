import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, loginAs, DEMO_PASSWORD, type TestApp } from '../../../test/harness';
import { loginFailures, users } from '../../db/schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const login = (username: string, password: string, ip = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/v1/login', payload: { username, password }, remoteAddress: ip });

describe('POST /api/v1/login', () => {
  it('signs in with the right password and sets an HttpOnly, SameSite=Strict jwt cookie on path /', async () => {
    const res = await login('owner', DEMO_PASSWORD);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { ok: true } });
    const c = res.cookies.find((k) => k.name === 'jwt');
    expect(c).toBeDefined();
    expect(c!.httpOnly).toBe(true);
    expect(c!.sameSite).toBe('Strict');
    expect(c!.path).toBe('/');
    expect(c!.secure).toBeFalsy();
  });

  it('sets the Secure flag behind https', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { username: 'owner', password: DEMO_PASSWORD },
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(res.cookies.find((k) => k.name === 'jwt')!.secure).toBe(true);
  });

  it('answers 401 with a message on a wrong password or unknown user', async () => {
    for (const [u, p] of [
      ['owner', 'nope-nope'],
      ['nobody', 'whatever'],
    ] as const) {
      const res = await login(u, p, '10.0.0.2');
      expect(res.statusCode).toBe(401);
      expect(res.json().error).toEqual({ code: 'INVALID_CREDENTIALS', message: 'Invalid username or password' });
      expect(res.cookies.find((k) => k.name === 'jwt')).toBeUndefined();
    }
  });

  it('refuses bad bodies with 400 and the fields, never 500', async () => {
    const cases: unknown[] = [
      {},
      { username: '', password: 'x' },
      { username: 'a', password: 'b', extra: 1 },
      'not json',
      [1, 2],
    ];
    for (const payload of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/login',
        payload: payload as object,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { username: 'a', password: 'b', extra: 1 },
    });
    expect(unknown.json().error.fields).toHaveProperty('extra');
  });

  it('locks a username for 30 minutes after 10 failures (429 with Retry-After), even with the right password', async () => {
    const [u] = await t.ctx.db.select().from(users).where(eq(users.username, 'support'));
    expect(u).toBeDefined();
    for (let i = 0; i < 10; i++) {
      const res = await login('support', `wrong-${i}`, `10.1.0.${i}`);
      expect(res.statusCode).toBe(401);
    }
    const locked = await login('support', DEMO_PASSWORD, '10.1.1.1');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error.code).toBe('ACCOUNT_LOCKED');
    const retry = Number(locked.headers['retry-after']);
    expect(retry).toBeGreaterThan(29 * 60);
    expect(retry).toBeLessThanOrEqual(30 * 60);

    t.clock.advance(31 * 60_000);
    const again = await login('support', DEMO_PASSWORD, '10.1.1.1');
    expect(again.statusCode).toBe(200);
    t.clock.reset();
  });

  it('throttles an IP after 30 failures in 15 minutes', async () => {
    const ip = '10.9.9.9';
    await t.ctx.db
      .insert(loginFailures)
      .values(Array.from({ length: 30 }, (_, i) => ({ ip, username: `ghost${i}`, at: new Date(Date.now() - 60_000) })));
    const res = await login('owner', DEMO_PASSWORD, ip);
    expect(res.statusCode).toBe(429);
    expect(res.json().error.code).toBe('TOO_MANY_REQUESTS');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // another address is unaffected
    expect((await login('owner', DEMO_PASSWORD, '10.9.9.10')).statusCode).toBe(200);
  });
});

describe('session', () => {
  it('GET /api/v1/people/me gives permissions, personal and merchantId', async () => {
    const cookie = await loginAs(t.app, 'owner');
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/people/me', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const me = res.json().data;
    expect(me.permissions).toContain('merchant.read');
    expect(me.permissions).not.toContain('merchant.rw.all');
    expect(me.personal.firstName).toBeTruthy();
    expect(me.merchantId).toBe(t.demo.merchantId);
  });

  it('viewer has no permission strings at all', async () => {
    const cookie = await loginAs(t.app, 'viewer');
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/people/me', headers: { cookie } });
    expect(res.json().data.permissions).toEqual([]);
  });

  it('answers 401 without a session, with a forged token, and after logout for the old token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/people/me' })).statusCode).toBe(401);
    const forged = await t.app.inject({
      method: 'GET',
      url: '/api/v1/people/me',
      headers: { cookie: 'jwt=eyJhbGciOiJIUzI1NiJ9.e30.x' },
    });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().error.code).toBe('UNAUTHORIZED');

    const cookie = await loginAs(t.app, 'owner');
    const out = await t.app.inject({ method: 'POST', url: '/api/v1/logout', headers: { cookie } });
    expect(out.statusCode).toBe(200);
    const cleared = out.cookies.find((k) => k.name === 'jwt');
    expect(cleared?.value).toBe('');
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/people/me', headers: { cookie } })).statusCode).toBe(401);
  });

  it('403 without the permission, 200 with it', async () => {
    const viewer = await loginAs(t.app, 'viewer');
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/settings/settings.withdrawal.retry.auto.enable',
      headers: { cookie: viewer },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('FORBIDDEN');
    const owner = await loginAs(t.app, 'owner');
    const ok = await t.app.inject({
      method: 'GET',
      url: '/api/v1/settings/settings.withdrawal.retry.auto.enable',
      headers: { cookie: owner },
    });
    expect(ok.statusCode).toBe(200);
    expect(['true', 'false']).toContain(ok.json().data.value);
  });

  it('refuses a state-changing call from a foreign Origin (CSRF)', async () => {
    const cookie = await loginAs(t.app, 'owner');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/settings/settings.withdrawal.retry.auto.enable',
      headers: { cookie, origin: 'https://evil.example' },
      payload: { value: 'true' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('CSRF_REJECTED');
    const same = await t.app.inject({
      method: 'POST',
      url: '/api/v1/settings/settings.withdrawal.retry.auto.enable',
      headers: { cookie, origin: 'http://localhost:3000' },
      payload: { value: 'true' },
    });
    expect(same.statusCode).toBe(200);
    const back = await t.app.inject({
      method: 'POST',
      url: '/api/v1/settings/settings.withdrawal.retry.auto.enable',
      headers: { cookie },
      payload: { value: 'false' },
    });
    expect(back.json().data.value).toBe('false');
  });
});

describe('attempts counted atomically (PCI DSS 8.3.4)', () => {
  it('a parallel burst of 40 wrong passwords locks the user after exactly 10; the right one is refused too', async () => {
    const res = await Promise.all(
      Array.from({ length: 40 }, (_, i) => login('finance', `wrong-${i}`, `10.77.${Math.floor(i / 200)}.${i % 200}`)),
    );
    const codes = res.map((r) => r.json().error?.code as string);
    expect(codes.filter((c) => c === 'INVALID_CREDENTIALS')).toHaveLength(10);
    expect(codes.filter((c) => c === 'ACCOUNT_LOCKED')).toHaveLength(30);
    const right = await login('finance', DEMO_PASSWORD, '10.77.1.1');
    expect(right.statusCode).toBe(429);
    expect(right.json().error.code).toBe('ACCOUNT_LOCKED');
    const failures = await t.ctx.db.execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM login_failures WHERE username = 'finance'`,
    );
    expect(failures.rows[0]!.n).toBe(10);
  });

  it('failed sign-ins and lockouts show in /metrics', async () => {
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.statusCode).toBe(200);
    // the bursts above: wrong passwords counted, and the one attempt that locked the user counted as a lockout
    expect(metrics.body).toMatch(/paydesk_sign_in_failures_total\{reason="password"\} [1-9]\d*/);
    expect(metrics.body).toMatch(/paydesk_sign_in_lockouts_total [1-9]\d*/);
  });

  it('a parallel burst from one address is throttled after exactly 30 failures', async () => {
    const ip = '10.88.0.1';
    const res = await Promise.all(Array.from({ length: 36 }, (_, i) => login(`nobody-${i}`, 'x-wrong-pass', ip)));
    const codes = res.map((r) => r.json().error?.code as string);
    expect(codes.filter((c) => c === 'INVALID_CREDENTIALS')).toHaveLength(30);
    expect(codes.filter((c) => c === 'TOO_MANY_REQUESTS')).toHaveLength(6);
  });
});

describe('POST /api/v1/user/change_password', () => {
  it('changes the password; the old one stops working; wrong current password is 400', async () => {
    const cookie = await loginAs(t.app, 'viewer');
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/change_password',
      headers: { cookie },
      payload: { currentPassword: 'not-it-at-all', newPassword: 'brand-new-pass-1' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({ code: 'WRONG_PASSWORD', message: 'The current password is wrong' });

    const short = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/change_password',
      headers: { cookie },
      payload: { currentPassword: DEMO_PASSWORD, newPassword: 'short' },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.fields).toHaveProperty('newPassword');

    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/change_password',
      headers: { cookie },
      payload: { currentPassword: DEMO_PASSWORD, newPassword: 'brand-new-pass-1' },
    });
    expect(ok.statusCode).toBe(200);
    expect((await login('viewer', DEMO_PASSWORD, '10.2.0.1')).statusCode).toBe(401);
    expect((await login('viewer', 'brand-new-pass-1', '10.2.0.1')).statusCode).toBe(200);
  });

  it('wrong current passwords count toward the lockout like sign-in failures', async () => {
    const cookie = await loginAs(t.app, 'owner');
    const change = (currentPassword: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/user/change_password',
        headers: { cookie },
        payload: { currentPassword, newPassword: 'yet-another-pass-3' },
      });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => change(`guess-${i}`)));
    expect(answers.filter((r) => r.statusCode === 400)).toHaveLength(10);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(2);
    expect((await change(DEMO_PASSWORD)).statusCode).toBe(429);
    expect((await login('owner', DEMO_PASSWORD, '10.66.0.1')).statusCode).toBe(429);
    await t.ctx.db.update(users).set({ lockedUntil: null, failedLogins: 0 }).where(eq(users.username, 'owner'));
  });

  it('refuses a short or common new password with 400 naming the field, and counts no attempt', async () => {
    const cookie = await loginAs(t.app, 'shop2');
    for (const newPassword of ['12345678', 'password1234', 'qwertyuiop123', 'shop2-2026!!']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/user/change_password',
        headers: { cookie },
        payload: { currentPassword: DEMO_PASSWORD, newPassword },
      });
      expect(res.statusCode, newPassword).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect(res.json().error.fields).toHaveProperty('newPassword');
    }
    const [u] = await t.ctx.db.select().from(users).where(eq(users.username, 'shop2'));
    expect(u!.failedLogins).toBe(0);
    // the demo password itself still signs in (the policy applies when a password is set)
    expect((await login('shop2', DEMO_PASSWORD, '10.3.0.1')).statusCode).toBe(200);
  });

  it('a burst of wrong sign-ins does not hold up signed-in users: /me answers while the burst is still hashing', async () => {
    const cookie = await loginAs(t.app, 'ops');
    let burstDone = 0;
    const burst = Array.from({ length: 12 }, (_, i) =>
      login(`nobody-${i}`, 'wrong-password', `10.77.${i}.1`).then((r) => {
        burstDone++;
        return r;
      }),
    );
    await new Promise((r) => setTimeout(r, 50));
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/people/me', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    // scrypt runs under its own queue (one or two at a time): most of the burst is still waiting
    expect(burstDone).toBeLessThan(12);
    expect((await Promise.all(burst)).every((r) => r.statusCode === 401)).toBe(true);
  });

  it('a password change ends every other session of the user; the one that changed it stays', async () => {
    const laptop = await loginAs(t.app, 'support');
    const phone = await loginAs(t.app, 'support');
    const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/v1/people/me', headers: { cookie } });
    expect((await me(phone)).statusCode).toBe(200);
    const changed = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/change_password',
      headers: { cookie: laptop },
      payload: { currentPassword: DEMO_PASSWORD, newPassword: 'another-long-pass-2' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await me(phone)).statusCode).toBe(401);
    expect((await me(laptop)).statusCode).toBe(200);
  });
});

describe('tenant scope', () => {
  it('a merchant user cannot read another merchant by naming it', async () => {
    const owner = await loginAs(t.app, 'owner');
    const merchants = await t.app.inject({
      method: 'GET',
      url: '/api/v1/merchant?page=0&size=50',
      headers: { cookie: await loginAs(t.app, 'admin') },
    });
    expect(merchants.statusCode).toBe(200);
    const other = merchants.json().data.find((m: { id: string }) => m.id !== t.demo.merchantId);
    expect(other).toBeDefined();
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/merchant/me?merchantId=${other.id}`,
      headers: { cookie: owner },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.id).toBe(t.demo.merchantId);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/merchant?page=0&size=50', headers: { cookie: owner } }))
        .statusCode,
    ).toBe(403);
  });

  it('admin (merchant.rw.all) works on the merchant it names', async () => {
    const admin = await loginAs(t.app, 'admin');
    const list = (
      await t.app.inject({ method: 'GET', url: '/api/v1/merchant?page=0&size=50', headers: { cookie: admin } })
    ).json();
    expect(list.data[0].name).toBe('Demo Merchant');
    const other = list.data[1];
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/terminal?merchantId=${other.id}`,
      headers: { cookie: admin },
    });
    expect(res.statusCode).toBe(200);
    const mine = await t.app.inject({
      method: 'GET',
      url: '/api/v1/terminal',
      headers: { cookie: await loginAs(t.app, 'owner') },
    });
    const ids = new Set(mine.json().data.map((x: { id: string }) => x.id));
    for (const term of res.json().data) expect(ids.has(term.id)).toBe(false);
  });
});
