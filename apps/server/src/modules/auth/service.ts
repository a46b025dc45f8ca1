import { and, count, eq, gt, min, sql } from 'drizzle-orm';
import { loginFailures, sessions, users } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { burnPasswordTime, hashPassword, verifyPassword } from '../../lib/password';
import { issueSessionToken } from '../../plugins/auth';

export const LOCKOUT_FAILURES = 10; // PCI DSS 8.3.4: at most 10 attempts
export const LOCKOUT_MINUTES = 30;
export const IP_FAILURES = 30;
export const IP_WINDOW_MINUTES = 15;

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

  await ctx.db.update(users).set({ failedLogins: 0, lockedUntil: null }).where(eq(users.id, user!.id));
  return issueSessionToken(ctx, secret, user!.id);
}

export async function logout(ctx: AppContext, sessionId: string) {
  await ctx.db.update(sessions).set({ revokedAt: ctx.now() }).where(eq(sessions.id, sessionId));
}

export async function changePassword(ctx: AppContext, userId: string, currentPassword: string, newPassword: string) {
  const [user] = await ctx.db.select().from(users).where(eq(users.id, userId));
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
  await ctx.db
    .update(users)
    .set({ passwordHash: await hashPassword(newPassword) })
    .where(eq(users.id, userId));
}
