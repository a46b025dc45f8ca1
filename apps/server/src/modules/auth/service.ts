import { and, count, eq, gt, isNull, min, ne, sql } from 'drizzle-orm';
import { userScope } from '@paydesk/contracts';
import { loginFailures, sessions, users } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { burnPasswordTime, hashPassword, verifyPassword } from '../../lib/password';
import { issueSessionToken, type SessionUser } from '../../plugins/auth';
import { recordAudit, staffActor } from '../audit/service';

const LOCKOUT_FAILURES = 10; // PCI DSS 8.3.4: at most 10 attempts
const LOCKOUT_MINUTES = 30;
const IP_FAILURES = 30;
const IP_WINDOW_MINUTES = 15;

export async function login(ctx: AppContext, secret: Uint8Array, username: string, password: string, ip: string) {
  const now = ctx.now();
  const windowStart = new Date(now.getTime() - IP_WINDOW_MINUTES * 60_000);
  const [ipRow] = await ctx.db
    .select({ n: count(), oldest: min(loginFailures.at) })
    .from(loginFailures)
    .where(and(eq(loginFailures.ip, ip), gt(loginFailures.at, windowStart)));
  if (ipRow && ipRow.n >= IP_FAILURES) {
    const oldest = ipRow.oldest ? new Date(ipRow.oldest).getTime() : now.getTime();
    const retry = Math.max(1, Math.ceil((oldest + IP_WINDOW_MINUTES * 60_000 - now.getTime()) / 1000));
    throw new AppError(
      'TOO_MANY_REQUESTS',
      'Too many failed sign-in attempts from this address. Try again later.',
      undefined,
      {
        'retry-after': String(retry),
      },
    );
  }

  const [user] = await ctx.db.select().from(users).where(eq(users.username, username));
  if (user?.lockedUntil && user.lockedUntil > now) {
    const retry = Math.ceil((user.lockedUntil.getTime() - now.getTime()) / 1000);
    throw new AppError(
      'ACCOUNT_LOCKED',
      `This user is locked after ${LOCKOUT_FAILURES} failed sign-in attempts. Try again in ${Math.ceil(retry / 60)} minutes.`,
      undefined,
      { 'retry-after': String(retry) },
    );
  }

  const ok = user ? await verifyPassword(password, user.passwordHash) : (await burnPasswordTime(password), false);
  if (!ok) {
    await ctx.db.transaction(async (tx) => {
      await tx.insert(loginFailures).values({ ip, username, at: now });
      // the attempted name is recorded as typed (it may be no user at all); never the password
      await recordAudit(
        tx,
        { userId: user?.id ?? null, username: username.slice(0, 100), kind: 'anonymous', ip },
        { action: 'auth.sign_in_failed', merchantId: user?.merchantId ?? null, targetType: 'user', targetId: user?.id },
        now,
      );
      if (user) {
        await tx
          .update(users)
          .set({
            failedLogins: sql`CASE WHEN ${users.failedLogins} + 1 >= ${LOCKOUT_FAILURES} THEN 0 ELSE ${users.failedLogins} + 1 END`,
            lockedUntil: sql`CASE WHEN ${users.failedLogins} + 1 >= ${LOCKOUT_FAILURES} THEN ${new Date(now.getTime() + LOCKOUT_MINUTES * 60_000).toISOString()}::timestamptz ELSE ${users.lockedUntil} END`,
          })
          .where(eq(users.id, user.id));
      }
    });
    throw new AppError('INVALID_CREDENTIALS', 'Invalid username or password');
  }

  if (user!.disabledAt) {
    throw new AppError('FORBIDDEN', 'This user is disabled. Ask your administrator to enable it.');
  }
  await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ failedLogins: 0, lockedUntil: null }).where(eq(users.id, user!.id));
    await recordAudit(
      tx,
      staffActor({ id: user!.id, username: user!.username, scope: userScope(user!.merchantId) }, ip),
      { action: 'auth.sign_in', merchantId: user!.merchantId, targetType: 'user', targetId: user!.id },
      now,
    );
  });
  return issueSessionToken(ctx, secret, user!.id);
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
  if (!(await verifyPassword(currentPassword, user.passwordHash))) {
    throw new AppError('WRONG_PASSWORD', 'The current password is wrong', {
      currentPassword: 'The current password is wrong',
    });
  }
  if (currentPassword === newPassword) {
    throw new AppError('VALIDATION_ERROR', 'The new password must differ from the current one', {
      newPassword: 'The new password must differ from the current one',
    });
  }
  const passwordHash = await hashPassword(newPassword);
  await ctx.db.transaction(async (tx) => {
    const now = ctx.now();
    await tx.update(users).set({ passwordHash, mustChangePassword: false }).where(eq(users.id, me.id));
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
