import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { createTestApp, loginAs, DEMO_PASSWORD, type TestApp } from '../../../test/harness';
import { auditLog, merchants, users } from '../../db/schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const codeAt = (secret: string, at: Date) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
    timestamp: at.getTime(),
  });
/** The next 30-second step: a code is good once, so each sign-in in a test moves the clock on. */
const nextStep = () => t.clock.advance(30_000);

const post = (url: string, payload: object, cookie?: string, ip = '10.9.0.1') =>
  t.app.inject({ method: 'POST', url, payload, headers: cookie ? { cookie } : {}, remoteAddress: ip });
const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });

/** Sets up two-factor sign-in for a user and returns its secret and recovery codes. */
async function enrol(username: string) {
  const cookie = await loginAs(t.app, username);
  const setup = await post('/api/v1/user/two-factor/setup', {}, cookie);
  expect(setup.statusCode, setup.body).toBe(200);
  const { secret, otpauthUri } = setup.json().data;
  expect(otpauthUri).toMatch(/^otpauth:\/\/totp\/Paydesk:/);
  expect(otpauthUri).toContain(`secret=${secret}`);
  const enabled = await post('/api/v1/user/two-factor/enable', { code: codeAt(secret, t.clock.now()) }, cookie);
  expect(enabled.statusCode, enabled.body).toBe(200);
  const recoveryCodes: string[] = enabled.json().data.recoveryCodes;
  return { secret: secret as string, recoveryCodes, cookie };
}

/** Back to password-only sign-in, so later tests sign the user in with loginAs. */
const clearFactor = (username: string) =>
  t.ctx.db
    .update(users)
    .set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null, failedLogins: 0, lockedUntil: null })
    .where(eq(users.username, username));

async function passwordStep(username: string, ip = '10.9.0.1') {
  const res = await post('/api/v1/login', { username, password: DEMO_PASSWORD }, undefined, ip);
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

describe('two-factor sign-in (TOTP, RFC 6238)', () => {
  it('enrols from a QR secret, gives ten one-time recovery codes and audits it', async () => {
    const { recoveryCodes, cookie } = await enrol('finance');
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const c of recoveryCodes) expect(c).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    const status = await get('/api/v1/user/two-factor', cookie);
    expect(status.json().data).toMatchObject({ enabled: true, required: false, recoveryCodesLeft: 10, pending: false });
    const me = await get('/api/v1/people/me', cookie);
    expect(me.json().data.twoFactor).toEqual({ enabled: true, required: false });
    const [u] = await t.ctx.db.select().from(users).where(eq(users.username, 'finance'));
    const audit = await t.ctx.db.select().from(auditLog).where(eq(auditLog.targetId, u!.id));
    expect(audit.map((a) => a.action)).toContain('auth.two_factor_enabled');
    // a second setup over an enabled factor is refused
    expect((await post('/api/v1/user/two-factor/setup', {}, cookie)).statusCode).toBe(409);
    await clearFactor('finance');
  });

  it('a wrong code during setup enables nothing', async () => {
    const cookie = await loginAs(t.app, 'support');
    const setup = await post('/api/v1/user/two-factor/setup', {}, cookie);
    const { secret } = setup.json().data;
    const wrong = await post('/api/v1/user/two-factor/enable', { code: '000000' }, cookie);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.fields).toHaveProperty('code');
    expect((await get('/api/v1/user/two-factor', cookie)).json().data).toMatchObject({ enabled: false, pending: true });
    // a code of the new secret still works afterwards; then the factor is off again for later tests
    const ok = await post('/api/v1/user/two-factor/enable', { code: codeAt(secret, t.clock.now()) }, cookie);
    expect(ok.statusCode).toBe(200);
    nextStep();
    const off = await post('/api/v1/user/two-factor/disable', { code: codeAt(secret, t.clock.now()) }, cookie);
    expect(off.statusCode, off.body).toBe(200);
  });

  it('signs in with the password, then a code; the same code is refused the second time', async () => {
    const { secret } = await enrol('viewer');
    nextStep();
    const first = await passwordStep('viewer');
    expect(first.cookies.find((c) => c.name === 'jwt')).toBeUndefined(); // no session before the second step
    const { ok, secondFactor, challenge } = first.json().data;
    expect({ ok, secondFactor }).toEqual({ ok: false, secondFactor: 'totp' });
    // the challenge is no session
    expect((await get('/api/v1/people/me', `jwt=${challenge}`)).statusCode).toBe(401);

    const code = codeAt(secret, t.clock.now());
    const second = await post('/api/v1/login/second-factor', { challenge, code });
    expect(second.statusCode, second.body).toBe(200);
    const cookie = second.cookies.find((c) => c.name === 'jwt');
    expect((await get('/api/v1/people/me', `jwt=${cookie!.value}`)).json().data.username).toBe('viewer');

    // replayed within the same 30 s step, by the same challenge or a fresh one: refused
    const again = await post('/api/v1/login/second-factor', { challenge, code });
    expect(again.statusCode).toBe(401);
    expect(again.json().error.code).toBe('INVALID_CREDENTIALS');
    const fresh = (await passwordStep('viewer')).json().data.challenge;
    expect((await post('/api/v1/login/second-factor', { challenge: fresh, code })).statusCode).toBe(401);
    // an older code (the previous step, still inside the ±1 window) is refused too
    const older = codeAt(secret, new Date(t.clock.now().getTime() - 30_000));
    expect((await post('/api/v1/login/second-factor', { challenge: fresh, code: older })).statusCode).toBe(401);
    await clearFactor('viewer');
  });

  it('signs in with a recovery code, once', async () => {
    const { recoveryCodes } = await enrol('shop2');
    const challenge = (await passwordStep('shop2')).json().data.challenge;
    const code = recoveryCodes[3]!.toUpperCase().replace('-', ' '); // typed as people type it
    const res = await post('/api/v1/login/second-factor', { challenge, code });
    expect(res.statusCode, res.body).toBe(200);
    const challenge2 = (await passwordStep('shop2')).json().data.challenge;
    expect((await post('/api/v1/login/second-factor', { challenge: challenge2, code })).statusCode).toBe(401);
    const cookie = `jwt=${res.cookies.find((c) => c.name === 'jwt')!.value}`;
    expect((await get('/api/v1/user/two-factor', cookie)).json().data.recoveryCodesLeft).toBe(9);
    await clearFactor('shop2');
  });

  it('a forged or expired challenge is refused; a malformed code is a 400 naming the field', async () => {
    const bad = await post('/api/v1/login/second-factor', { challenge: 'x.y.z', code: '123456' });
    expect(bad.statusCode).toBe(401);
    const { secret } = await enrol('admin');
    nextStep();
    const challenge = (await passwordStep('admin')).json().data.challenge;
    t.clock.advance(6 * 60_000); // past the challenge's 5 minutes
    const expired = await post('/api/v1/login/second-factor', { challenge, code: codeAt(secret, t.clock.now()) });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error.code).toBe('UNAUTHORIZED');
    await clearFactor('admin');
    const malformed = await post('/api/v1/login/second-factor', { challenge: 'x.y.z', code: '12ab' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.fields).toHaveProperty('code');
  });

  it('wrong codes count toward the lockout: the tenth failure locks the user, the right code is refused then', async () => {
    const { secret } = await enrol('ops');
    await t.ctx.db.update(users).set({ failedLogins: 0 }).where(eq(users.username, 'ops'));
    nextStep();
    // the right password takes a place until the second step succeeds, so 5 × (password + wrong code) = 10
    let challenge = '';
    for (let i = 0; i < 5; i++) {
      challenge = (await passwordStep('ops', `10.9.1.${i}`)).json().data.challenge;
      const wrong = await post('/api/v1/login/second-factor', { challenge, code: '000000' }, undefined, `10.9.1.${i}`);
      expect(wrong.statusCode).toBe(401);
    }
    const locked = await post('/api/v1/login', { username: 'ops', password: DEMO_PASSWORD }, undefined, '10.9.2.1');
    expect(locked.statusCode).toBe(429);
    expect(locked.json().error.code).toBe('ACCOUNT_LOCKED');
    const [u] = await t.ctx.db.select().from(users).where(eq(users.username, 'ops'));
    const failures = await t.ctx.db.select().from(auditLog).where(eq(auditLog.targetId, u!.id));
    expect(failures.filter((a) => a.action === 'auth.sign_in_failed')).toHaveLength(5);
    // and the right code after the lock is refused as well, even with a challenge from before the lock
    nextStep();
    const right = await post('/api/v1/login/second-factor', { challenge, code: codeAt(secret, t.clock.now()) });
    expect(right.statusCode).toBe(429);
    expect(right.json().error.code).toBe('ACCOUNT_LOCKED');
    await clearFactor('ops');
  });

  it('recovery codes can be renewed (old ones stop working) and the factor turned off with a code', async () => {
    const { secret, recoveryCodes, cookie } = await enrol('owner');
    nextStep();
    const renewed = await post(
      '/api/v1/user/two-factor/recovery-codes',
      { code: codeAt(secret, t.clock.now()) },
      cookie,
    );
    expect(renewed.statusCode, renewed.body).toBe(200);
    const fresh: string[] = renewed.json().data.recoveryCodes;
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(recoveryCodes[0]);
    const stale = await post('/api/v1/user/two-factor/disable', { code: recoveryCodes[0]! }, cookie);
    expect(stale.statusCode).toBe(400);
    const off = await post('/api/v1/user/two-factor/disable', { code: fresh[0]! }, cookie);
    expect(off.statusCode, off.body).toBe(200);
    expect((await passwordStep('owner')).json().data).toEqual({ ok: true });
  });
});

describe('two-factor sign-in under attack', () => {
  it('a stolen session cannot guess codes to turn the factor off or take new recovery codes: the tenth wrong code locks', async () => {
    const { secret, cookie } = await enrol('support');
    const guess = (url: string, i: number) => post(url, { code: String(100000 + i) }, cookie, `10.9.5.${i}`);
    const answers = [];
    for (let i = 0; i < 12; i++) {
      answers.push(
        await guess(i % 2 ? '/api/v1/user/two-factor/disable' : '/api/v1/user/two-factor/recovery-codes', i),
      );
    }
    // a guess that happens to be right would be a 200: none here (the codes are a fixed run, the secret random)
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.slice(0, 10).every((st) => st === 400 || st === 200)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    nextStep();
    const right = await post('/api/v1/user/two-factor/disable', { code: codeAt(secret, t.clock.now()) }, cookie);
    expect(right.statusCode).toBe(429);
    const [u] = await t.ctx.db.select().from(users).where(eq(users.username, 'support'));
    expect(u!.totpEnabledAt).not.toBeNull();
    const audit = await t.ctx.db.select().from(auditLog).where(eq(auditLog.targetId, u!.id));
    expect(audit.filter((a) => a.action === 'auth.sign_in_failed').length).toBeGreaterThanOrEqual(9);
    await clearFactor('support');
  });

  it('turning the factor on ends the other sessions; a challenge is void after a password change', async () => {
    const other = await loginAs(t.app, 'finance');
    const { secret, cookie } = await enrol('finance');
    expect((await get('/api/v1/people/me', other)).statusCode).toBe(401);
    expect((await get('/api/v1/people/me', cookie)).statusCode).toBe(200);

    nextStep();
    const challenge = (await passwordStep('finance')).json().data.challenge;
    const changed = await post(
      '/api/v1/user/change_password',
      { currentPassword: DEMO_PASSWORD, newPassword: 'a fresh long passphrase' },
      cookie,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    const late = await post('/api/v1/login/second-factor', { challenge, code: codeAt(secret, t.clock.now()) });
    expect(late.statusCode).toBe(401);
    expect(late.json().error.message).toMatch(/expired/);
    await clearFactor('finance');
    await t.ctx.db
      .update(users)
      .set({ passwordHash: (await t.ctx.db.select().from(users).where(eq(users.username, 'owner')))[0]!.passwordHash })
      .where(eq(users.username, 'finance'));
  });
});

describe('two-factor policy', () => {
  it('a merchant that requires it: its users without a factor can only set it up; others are unaffected', async () => {
    const owner = await loginAs(t.app, 'owner');
    const [m] = await t.ctx.db.select().from(merchants).where(eq(merchants.id, t.demo.merchantId));
    const on = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/merchant/${m!.id}/two-factor-policy`,
      headers: { cookie: owner },
      payload: { requireTwoFactor: true },
    });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().data.requireTwoFactor).toBe(true);

    // owner has no factor now (turned off above): the next request asks for the setup
    const refused = await get('/api/v1/terminal', owner);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('TWO_FACTOR_SETUP_REQUIRED');
    const me = await get('/api/v1/people/me', owner);
    expect(me.json().data).toMatchObject({ mustSetUpTwoFactor: true, twoFactor: { enabled: false, required: true } });
    // the factor cannot be turned off where it is required
    const { secret } = (await post('/api/v1/user/two-factor/setup', {}, owner)).json().data;
    expect(
      (await post('/api/v1/user/two-factor/enable', { code: codeAt(secret, t.clock.now()) }, owner)).statusCode,
    ).toBe(200);
    expect((await get('/api/v1/terminal', owner)).statusCode).toBe(200);
    nextStep();
    const off = await post('/api/v1/user/two-factor/disable', { code: codeAt(secret, t.clock.now()) }, owner);
    expect(off.statusCode).toBe(403);

    // another merchant's owner may not change Demo Merchant's policy
    const shop2 = await loginAs(t.app, 'shop2');
    const foreign = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/merchant/${m!.id}/two-factor-policy`,
      headers: { cookie: shop2 },
      payload: { requireTwoFactor: false },
    });
    expect([403, 404]).toContain(foreign.statusCode);
    // nor may a user without users.manage (finance) of the merchant itself
    const finance = await loginAs(t.app, 'finance');
    const byFinance = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/merchant/${m!.id}/two-factor-policy`,
      headers: { cookie: finance },
      payload: { requireTwoFactor: false },
    });
    expect(byFinance.statusCode).toBe(403);
    expect((await t.ctx.db.select().from(merchants).where(eq(merchants.id, m!.id)))[0]!.requireTwoFactor).toBe(true);
    await t.ctx.db.update(merchants).set({ requireTwoFactor: false }).where(eq(merchants.id, m!.id));
    await clearFactor('owner');
  });

  it('REQUIRE_2FA_PLATFORM: platform staff without a factor must set one up; merchant staff need not', async () => {
    const strict = await createTestApp({ require2faPlatform: true });
    try {
      const admin = await loginAs(strict.app, 'admin');
      const list = await strict.app.inject({ method: 'GET', url: '/api/v1/terminal', headers: { cookie: admin } });
      expect(list.json().error?.code).toBe('TWO_FACTOR_SETUP_REQUIRED');
      const viewer = await loginAs(strict.app, 'viewer');
      const ok = await strict.app.inject({ method: 'GET', url: '/api/v1/terminal', headers: { cookie: viewer } });
      expect(ok.statusCode).toBe(200);
    } finally {
      await strict.close();
    }
  });

  it('a platform admin resets a user’s second factor (audited, sessions ended); a merchant owner cannot', async () => {
    const { cookie: supportSession } = await enrol('support');
    const [u] = await t.ctx.db.select().from(users).where(eq(users.username, 'support'));
    const owner = await loginAs(t.app, 'owner');
    const byOwner = await post(`/api/v1/users/${u!.id}/two-factor-reset`, {}, owner);
    expect(byOwner.statusCode).toBe(403);
    expect((await t.ctx.db.select().from(users).where(eq(users.id, u!.id)))[0]!.totpEnabledAt).not.toBeNull();
    const admin = await loginAs(t.app, 'admin');
    const reset = await post(`/api/v1/users/${u!.id}/two-factor-reset`, {}, admin);
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().data.twoFactorEnabled).toBe(false);
    expect((await get('/api/v1/people/me', supportSession)).statusCode).toBe(401);
    expect((await passwordStep('support')).json().data).toEqual({ ok: true });
    const audit = await t.ctx.db.select().from(auditLog).where(eq(auditLog.targetId, u!.id));
    expect(audit.map((a) => a.action)).toContain('user.two_factor_reset');
  });
});
