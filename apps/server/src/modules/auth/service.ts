import { eq } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { userScope } from '@paydesk/contracts';
import { sessions, users } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { burnPasswordTime, hashPassword, verifyPassword, withPasswordSlot } from '../../lib/password';
import { passwordProblem } from '../../lib/password-policy';
import { endSessions, issueSessionToken, type SessionUser } from '../../plugins/auth';
import { recordAudit, staffActor } from '../audit/service';
import { giveBackIpPlace, lockedError, reserveAttempt, reserveUserAttempt, signInFailed } from './attempts';
import { useSecondFactor, type SecondFactorUse } from './two-factor';

export { removeSecondFactor } from './two-factor';

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
    const [user] = await ctx.db.select().from(users).where(eq(users.username, username));
    const failureId = await reserveAttempt(ctx, ip, username, user?.id, now);

    const ok = user ? await verifyPassword(password, user.passwordHash) : (await burnPasswordTime(password), false);
    if (!ok) {
      // the reserved places stay: the failure row is the IP's count, the user's counter already moved
      await signInFailed(ctx, ip, username, user, 'password', now);
      throw new AppError('INVALID_CREDENTIALS', 'Invalid username or password');
    }

    await giveBackIpPlace(ctx, failureId);
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
  const failureId = await reserveAttempt(ctx, ip, user.username, user.id, now);
  const used = await useSecondFactor(ctx.db, user.id, code, now);
  if (!used) {
    await signInFailed(ctx, ip, user.username, user, 'second_factor', now);
    throw new AppError('INVALID_CREDENTIALS', 'The code is wrong or was already used', {
      code: 'The code is wrong or was already used',
    });
  }
  await giveBackIpPlace(ctx, failureId);
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
  const now = ctx.now();
  if (!(await reserveUserAttempt(ctx, user.id, now))) throw await lockedError(ctx, user.id, now);
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
    await tx
      .update(users)
      .set({ passwordHash, mustChangePassword: false, failedLogins: 0, lockedUntil: null })
      .where(eq(users.id, me.id));
    await endSessions(tx, me.id, now, me.sessionId);
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
