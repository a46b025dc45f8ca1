import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, DEMO_PASSWORD, type TestApp } from '../../../test/harness';
import { MAX_REMEMBERED_NAMES, nameMemory } from './attempts';

/**
 * The lockout tells nobody which usernames exist: a name no user has is counted and locked exactly like a user,
 * so eleven failures answer the same, status, body and headers, whether the name is real or not.
 */
let t: TestApp;
let clock: () => Date;
beforeAll(async () => {
  t = await createTestApp();
  clock = t.ctx.now;
});
afterAll(async () => t?.close());
const unfreeze = () => {
  t.ctx.now = clock;
};

/** One moment for every attempt of both runs: Retry-After counts down from the same lock time. */
const T = new Date('2031-03-04T05:06:07Z');
/** Stops the server's clock at `at`: the harness clock would move by the milliseconds each request takes. */
const frozenAt = (at: Date) => {
  t.ctx.now = () => new Date(at);
};
let ipNo = 0;
/** Each attempt from its own address: the address limit (30 failures) stays out of the way. */
const login = (username: string, password: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/login',
    payload: { username, password },
    remoteAddress: `10.123.${Math.floor(++ipNo / 250)}.${ipNo % 250}`,
  });

/** What a client sees of an answer (the Date header aside, which only says when it was sent). */
const seen = (res: Awaited<ReturnType<typeof login>>) => {
  const { date: _date, ...headers } = res.headers;
  return { status: res.statusCode, body: res.body, headers };
};

async function elevenFailures(username: string) {
  const answers = [];
  frozenAt(T);
  for (let i = 0; i < 11; i++) answers.push(seen(await login(username, `wrong-password-${i}`)));
  unfreeze();
  return answers;
}

describe('locking out a username', () => {
  it('answers a name no user has exactly as a real user: 10 × 401, then 429 ACCOUNT_LOCKED with Retry-After', async () => {
    const real = await elevenFailures('support');
    const unknown = await elevenFailures('no-such-user-7f3a');
    expect(unknown).toEqual(real);
    expect(real.slice(0, 10).every((a) => a.status === 401)).toBe(true);
    expect(real[10]!.status).toBe(429);
    expect(JSON.parse(real[10]!.body).error.code).toBe('ACCOUNT_LOCKED');
    expect(real[10]!.headers['retry-after']).toBe(String(30 * 60));
  });

  it('a locked unknown name refuses even a password, and unlocks after 30 minutes like a user', async () => {
    frozenAt(T);
    const locked = await login('no-such-user-7f3a', DEMO_PASSWORD);
    expect(locked.statusCode).toBe(429);
    frozenAt(new Date(T.getTime() + 31 * 60_000));
    const [real, unknown] = [await login('support', 'wrong-again'), await login('no-such-user-7f3a', 'wrong-again')];
    unfreeze();
    expect(seen(unknown)).toEqual(seen(real));
    expect(unknown.statusCode).toBe(401);
  });

  it('a parallel burst on an unknown name locks it after exactly 10, as for a user', async () => {
    const res = await Promise.all(Array.from({ length: 40 }, (_, i) => login('ghost-burst', `wrong-${i}`)));
    const codes = res.map((r) => r.json().error?.code as string);
    expect(codes.filter((c) => c === 'INVALID_CREDENTIALS')).toHaveLength(10);
    expect(codes.filter((c) => c === 'ACCOUNT_LOCKED')).toHaveLength(30);
  });

  it('remembers a bounded number of names: a spray of new names pushes out the oldest, never grows past it', async () => {
    const count = async () =>
      Number(
        (await t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM login_name_failures`)).rows[0]!.n,
      );
    // as if an attacker had already tried MAX_REMEMBERED_NAMES names, the first ones long ago
    await t.ctx.db.execute(sql`
      INSERT INTO login_name_failures (username, failed_logins, last_failed_at)
      SELECT 'sprayed-' || g, 1, now() - interval '1 day' + g * interval '1 millisecond'
      FROM generate_series(1, ${MAX_REMEMBERED_NAMES}) AS g`);
    expect(await count()).toBeGreaterThan(MAX_REMEMBERED_NAMES);
    // the process trims once every `trimEvery` new names: this one is the one that trims
    nameMemory.newSinceTrim = nameMemory.trimEvery - 1;
    await login('one-more-new-name', 'wrong');
    expect(await count()).toBe(MAX_REMEMBERED_NAMES);
    expect(nameMemory.newSinceTrim).toBe(0);
    // the names in between do not trim: the table holds at most trimEvery names more than the bound
    await login('and-another-new-name', 'wrong');
    expect(await count()).toBe(MAX_REMEMBERED_NAMES + 1);
    const kept = await t.ctx.db.execute<{ username: string }>(
      sql`SELECT username FROM login_name_failures WHERE username IN ('sprayed-1', 'one-more-new-name', 'ghost-burst')`,
    );
    expect(kept.rows.map((r) => r.username).sort()).toEqual(['ghost-burst', 'one-more-new-name']);
  });
});
