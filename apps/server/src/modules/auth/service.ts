import { and, count, eq, gt, isNull, min, ne, sql } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { userScope } from '@paydesk/contracts';
import { loginFailures, sessions, users } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { burnPasswordTime, hashPassword, verifyPassword, withPasswordSlot } from '../../lib/password';
import { passwordProblem } from '../../lib/password-policy';
import { issueSessionToken, type SessionUser } from '../../plugins/auth';
import { recordAudit, staffActor } from '../audit/service';
import { useSecondFactor, WrongCodeError, type SecondFactorUse } from './two-factor';

const LOCKOUT_FAILURES = 10; // PCI DSS 8.3.4: at most 10 attempts
const LOCKOUT_MINUTES = 30;
const IP_FAILURES = 30;
const IP_WINDOW_MINUTES = 15;
/** Namespace of the per-IP advisory lock of sign-in attempts (second key: hashtext of the IP). */
const IP_LOCK_NS = 7_240_502;

/**
 * Sign-in with attempts counted atomically (PCI DSS 8.3.4): an attempt takes its place in the IP's and
 * the user's count BEFORE the password is checked, in one statement each, so a parallel burst locks the
 * user after exactly LOCKOUT_FAILURES failures and every attempt past that — the right password too —
 * is refused without running scrypt. A successful attempt gives its place back.
 */
export type LoginOutcome =
  { kind: 'signed_in'; token: string; expiresAt: Date } | { kind: 'second_factor'; challenge: string; expiresAt: Date };

const CHALLENGE_MINUTES = 5;
const CHALLENGE_AUDIENCE = 'paydesk:second-factor';

export async function login(
  ctx: AppContext,
  secret: Uint8Array,
  username: string,
  password: string,
  ip: string,
): Promise<LoginOutcome> {
  // admitted to the hashing queue first: a burst past its bound is refused before anything is counted
  return withPasswordSlot(async () => {
    const now = ctx.now();
    const failureId = await reserveIpAttempt(ctx, ip, username, now);

    const [user] = await ctx.db.select().from(users).where(eq(users.username, username));
    if (user && !(await reserveUserAttempt(ctx, user.id, now))) {
      await ctx.db.delete(loginFailures).where(eq(loginFailures.id, failureId)); // refused before trying: no failure
      throw await lockedError(ctx, user.id, now);
    }

    const ok = user ? await verifyPassword(password, user.passwordHash) : (await burnPasswordTime(password), false);
    if (!ok) {
      // the reserved places stay: the failure row is the IP's count, the user's counter already moved
      await signInFailed(ctx, ip, username, user, 'password', now);
      throw new AppError('INVALID_CREDENTIALS', 'Invalid username or password');
    }

    await ctx.db.delete(loginFailures).where(eq(loginFailures.id, failureId));
    if (user!.disabledAt) {
      throw new AppError('FORBIDDEN', 'This user is disabled. Ask your administrator to enable it.');
    }
    if (user!.totpEnabledAt) {
      // the user's place stays taken until the second step succeeds: guessing codes behind a known password
      // runs into the same lock as guessing passwords
      const expiresAt = new Date(now.getTime() + CHALLENGE_MINUTES * 60_000);
      const challenge = await new SignJWT({ fp: factorFingerprint(user!) })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(user!.id)
        .setAudience(CHALLENGE_AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(secret);
      return { kind: 'second_factor', challenge, expiresAt };
    }
    return { kind: 'signed_in', ...(await completeSignIn(ctx, secret, user!, ip, null, now)) };
  });
}

/**
 * The second step: the challenge from a right password and a code from the authenticator app (or a recovery
 * code). A wrong code is a failed attempt like a wrong password: it takes a place in the IP's and the user's
 * counts, and the tenth locks the user.
 */
export async function loginSecondFactor(
  ctx: AppContext,
  secret: Uint8Array,
  challenge: string,
  code: string,
  ip: string,
) {
  let userId: string | undefined;
  let fingerprint: unknown;
  try {
    const { payload } = await jwtVerify(challenge, secret, {
      algorithms: ['HS256'],
      audience: CHALLENGE_AUDIENCE,
      currentDate: ctx.now(),
    });
    userId = payload.sub;
    fingerprint = payload.fp;
  } catch {
    /* expired or forged: start again */
  }
  if (!userId) throw new AppError('UNAUTHORIZED', 'This sign-in has expired. Enter your password again.');
  const now = ctx.now();
  const [user] = await ctx.db.select().from(users).where(eq(users.id, userId));
  // a password change, a password reset or a new second factor since the password step voids the challenge
  if (!user || !user.totpEnabledAt || fingerprint !== factorFingerprint(user)) {
    throw new AppError('UNAUTHORIZED', 'This sign-in has expired. Enter your password again.');
  }
  if (user.disabledAt) throw new AppError('FORBIDDEN', 'This user is disabled. Ask your administrator to enable it.');
  const failureId = await reserveIpAttempt(ctx, ip, user.username, now);
  if (!(await reserveUserAttempt(ctx, user.id, now))) {
    await ctx.db.delete(loginFailures).where(eq(loginFailures.id, failureId));
    throw await lockedError(ctx, user.id, now);
  }
  const used = await useSecondFactor(ctx.db, user.id, code, now);
  if (!used) {
    await signInFailed(ctx, ip, user.username, user, 'second_factor', now);
    throw new AppError('INVALID_CREDENTIALS', 'The code is wrong or was already used', {
      code: 'The code is wrong or was already used',
    });
  }
  await ctx.db.delete(loginFailures).where(eq(loginFailures.id, failureId));
  return completeSignIn(ctx, secret, user, ip, used, now);
}

/** Changes with the user's password and second factor: what a challenge was issued for. */
const factorFingerprint = (user: typeof users.$inferSelect) =>
  createHash('sha256').update(`${user.passwordHash}|${user.totpSecret}`).digest('base64url').slice(0, 22);

/** A right password (and second factor): the places taken are given back, the sign-in is audited. */
async function completeSignIn(
  ctx: AppContext,
  secret: Uint8Array,
  user: typeof users.$inferSelect,
  ip: string,
  secondFactor: SecondFactorUse | null,
  now: Date,
) {
  await ctx.db.transaction(async (tx) => {
    // a success was not a failure: it gives back its place (and any lock its own place had set)
    await tx.update(users).set({ failedLogins: 0, lockedUntil: null }).where(eq(users.id, user.id));
    await recordAudit(
      tx,
      staffActor({ id: user.id, username: user.username, scope: userScope(user.merchantId) }, ip),
      {
        action: 'auth.sign_in',
        merchantId: user.merchantId,
        targetType: 'user',
        targetId: user.id,
        ...(secondFactor ? { after: { secondFactor } } : {}),
      },
      now,
    );
  });
  return issueSessionToken(ctx, secret, user.id);
}

async function signInFailed(
  ctx: AppContext,
  ip: string,
  username: string,
  user: typeof users.$inferSelect | undefined,
  step: 'password' | 'second_factor',
  now: Date,
) {
  ctx.metrics?.signInFailure(step);
  await recordAudit(
    ctx.db,
    { userId: user?.id ?? null, username: username.slice(0, 100), kind: 'anonymous', ip },
    {
      action: 'auth.sign_in_failed',
      merchantId: user?.merchantId ?? null,
      targetType: 'user',
      targetId: user?.id,
      ...(step === 'second_factor' ? { after: { step } } : {}),
    },
    now,
  );
}

async function lockedError(ctx: AppContext, userId: string, now: Date) {
  const [locked] = await ctx.db.select({ until: users.lockedUntil }).from(users).where(eq(users.id, userId));
  const retry = Math.max(1, Math.ceil(((locked?.until?.getTime() ?? now.getTime()) - now.getTime()) / 1000));
  return new AppError(
    'ACCOUNT_LOCKED',
    `This user is locked after ${LOCKOUT_FAILURES} failed sign-in attempts. Try again in ${Math.ceil(retry / 60)} minutes.`,
    undefined,
    { 'retry-after': String(retry) },
  );
}

/**
 * Takes a place in the IP's failure count under a per-IP lock (count and insert as one step), or refuses
 * with 429 when the window is full. Returns the place (a login_failures row) to give back on success.
 */
async function reserveIpAttempt(ctx: AppContext, ip: string, username: string, now: Date): Promise<number> {
  const windowStart = new Date(now.getTime() - IP_WINDOW_MINUTES * 60_000);
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${IP_LOCK_NS}::int, hashtext(${ip}))`);
    const [row] = await tx
      .select({ n: count(), oldest: min(loginFailures.at) })
      .from(loginFailures)
      .where(and(eq(loginFailures.ip, ip), gt(loginFailures.at, windowStart)));
    if (row && row.n >= IP_FAILURES) {
      const oldest = row.oldest ? new Date(row.oldest).getTime() : now.getTime();
      const retry = Math.max(1, Math.ceil((oldest + IP_WINDOW_MINUTES * 60_000 - now.getTime()) / 1000));
      throw new AppError(
        'TOO_MANY_REQUESTS',
        'Too many failed sign-in attempts from this address. Try again later.',
        undefined,
        { 'retry-after': String(retry) },
      );
    }
    const [placed] = await tx
      .insert(loginFailures)
      .values({ ip, username: username.slice(0, 200), at: now })
      .returning({ id: loginFailures.id });
    return placed!.id;
  });
}

/**
 * One statement: counts the attempt as a failure unless the user is locked; the attempt that reaches
 * LOCKOUT_FAILURES locks the user (and restarts the count for after the lock). False when locked.
 */
async function reserveUserAttempt(ctx: AppContext, userId: string, now: Date): Promise<boolean> {
  const lockUntil = new Date(now.getTime() + LOCKOUT_MINUTES * 60_000).toISOString();
  const res = await ctx.db.execute<{ locked: boolean }>(sql`
    UPDATE users SET
      failed_logins = CASE WHEN failed_logins + 1 >= ${LOCKOUT_FAILURES} THEN 0 ELSE failed_logins + 1 END,
      locked_until = CASE WHEN failed_logins + 1 >= ${LOCKOUT_FAILURES} THEN ${lockUntil}::timestamptz ELSE NULL END
    WHERE id = ${userId} AND (locked_until IS NULL OR locked_until <= ${now.toISOString()}::timestamptz)
    RETURNING locked_until IS NOT NULL AS locked`);
  if (res.rows[0]?.locked) ctx.metrics?.lockout();
  return res.rows.length === 1;
}

/**
 * A second-factor code a signed-in user gives to change the factor (turn it off, new recovery codes) is an
 * attempt like a sign-in: it takes a place in the IP's and the user's counts first, a wrong one is audited and
 * keeps its place (the tenth locks the user: a stolen session cannot guess codes), a right one gives it back.
 */
export async function withCountedCode<T>(ctx: AppContext, me: SessionUser, ip: string, change: () => Promise<T>) {
  const now = ctx.now();
  const failureId = await reserveIpAttempt(ctx, ip, me.username, now);
  if (!(await reserveUserAttempt(ctx, me.id, now))) {
    await ctx.db.delete(loginFailures).where(eq(loginFailures.id, failureId));
    throw await lockedError(ctx, me.id, now);
  }
  try {
    const result = await change();
    await ctx.db.delete(loginFailures).where(eq(loginFailures.id, failureId));
    await ctx.db.update(users).set({ failedLogins: 0 }).where(eq(users.id, me.id));
    return result;
  } catch (err) {
    if (err instanceof WrongCodeError) {
      const [user] = await ctx.db.select().from(users).where(eq(users.id, me.id));
      await signInFailed(ctx, ip, me.username, user, 'second_factor', now);
    } else {
      // failed for another reason than the code (the refusals come before the count): no guess was made
      await ctx.db.delete(loginFailures).where(eq(loginFailures.id, failureId));
      await ctx.db
        .update(users)
        .set({ failedLogins: sql`GREATEST(${users.failedLogins} - 1, 0)` })
        .where(eq(users.id, me.id));
    }
    throw err;
  }
}

export async function logout(ctx: AppContext, sessionId: string) {
  await ctx.db.update(sessions).set({ revokedAt: ctx.now() }).where(eq(sessions.id, sessionId));
}

/** Changes the password, clears a one-time password's flag and ends the user's other sessions. */
export async function changePassword(
  ctx: AppContext,
  me: SessionUser,
  ip: string,
  currentPassword: string,
  newPassword: string,
) {
  const [user] = await ctx.db.select().from(users).where(eq(users.id, me.id));
  if (!user) throw new AppError('UNAUTHORIZED', 'Sign in to continue');
  // the policy first: a refused new password costs no attempt and no hashing
  const problem = passwordProblem(newPassword, user);
  if (problem) throw new AppError('VALIDATION_ERROR', problem, { newPassword: problem });
  await withPasswordSlot(() => replacePassword(ctx, me, user, ip, currentPassword, newPassword));
}

async function replacePassword(
  ctx: AppContext,
  me: SessionUser,
  user: typeof users.$inferSelect,
  ip: string,
  currentPassword: string,
  newPassword: string,
) {
  // guessing the current password is throttled like sign-in: the same count and lock
  if (!(await reserveUserAttempt(ctx, user.id, ctx.now()))) {
    throw new AppError(
      'ACCOUNT_LOCKED',
      `This user is locked after ${LOCKOUT_FAILURES} failed password attempts. Try again later.`,
    );
  }
  if (!(await verifyPassword(currentPassword, user.passwordHash))) {
    throw new AppError('WRONG_PASSWORD', 'The current password is wrong', {
      currentPassword: 'The current password is wrong',
    });
  }
  // the right current password was no failure: give its place back even if the new one is refused below
  await ctx.db.update(users).set({ failedLogins: 0, lockedUntil: null }).where(eq(users.id, user.id));
  if (currentPassword.normalize('NFKC') === newPassword.normalize('NFKC')) {
    throw new AppError('VALIDATION_ERROR', 'The new password must differ from the current one', {
      newPassword: 'The new password must differ from the current one',
    });
  }
  const passwordHash = await hashPassword(newPassword);
  await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    await tx
      .update(users)
      .set({ passwordHash, mustChangePassword: false, failedLogins: 0, lockedUntil: null })
      .where(eq(users.id, me.id));
    await tx
      .update(sessions)
      .set({ revokedAt: now })
      .where(and(eq(sessions.userId, me.id), isNull(sessions.revokedAt), ne(sessions.id, me.sessionId)));
    await recordAudit(
      tx,
      staffActor(me, ip),
      {
        action: 'auth.password_changed',
        merchantId: me.merchantId,
        targetType: 'user',
        targetId: me.id,
        after: { mustChangePassword: false, otherSessionsEnded: true },
      },
      now,
    );
  });
}
