import { and, count, eq, gt, min, sql } from 'drizzle-orm';
import { loginFailures, loginNameFailures, users } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { SessionUser } from '../../plugins/auth';
import { recordAudit } from '../audit/service';

/**
 * Sign-in attempts, counted atomically (PCI DSS 8.3.4): an attempt takes its place in the IP's and the user's
 * count BEFORE the secret (password or code) is checked; a right one gives its place back. Password sign-in, the
 * second step and codes given to change the factor all count here.
 */
const LOCKOUT_FAILURES = 10; // PCI DSS 8.3.4: at most 10 attempts
const LOCKOUT_MINUTES = 30;
const IP_FAILURES = 30;
const IP_WINDOW_MINUTES = 15;
/** Namespace of the per-IP advisory lock of sign-in attempts (second key: hashtext of the IP). */
const IP_LOCK_NS = 7_240_502;

/**
 * Names no user has that the lockout remembers (login_name_failures): past this the names that failed longest ago
 * are forgotten, so that an attacker spraying names cannot grow the table without bound. Forgetting a name early is
 * the only way an unknown name can differ from a real one (it would unlock sooner): it takes this many other names'
 * failures first, each costing a place in its address's count.
 */
export const MAX_REMEMBERED_NAMES = 50_000;
/**
 * Trimming walks the newest MAX_REMEMBERED_NAMES rows (tens of milliseconds on the embedded database, which serves
 * nothing else meanwhile): each process does it once per this many new names, so the table holds at most
 * MAX_REMEMBERED_NAMES plus this many per process.
 */
export const nameMemory = { trimEvery: 500, newSinceTrim: 0 };

/**
 * Takes a place in the IP's count and in the username's; a locked username is refused (429) without counting.
 * Returns the IP's place, to give back with `giveBackIpPlace` when the attempt succeeds.
 *
 * A name no user has is counted and locked exactly like a user (login_name_failures): otherwise the lockout would
 * tell which usernames exist (only a real user's eleventh failure would answer ACCOUNT_LOCKED).
 */
export async function reserveAttempt(
  ctx: AppContext,
  ip: string,
  username: string,
  userId: string | undefined,
  now: Date,
): Promise<number> {
  const failureId = await reserveIpAttempt(ctx, ip, username, now);
  const counted = userId
    ? await reserveUserAttempt(ctx, userId, now)
    : await reserveUnknownNameAttempt(ctx, username, now);
  if (!counted) {
    await giveBackIpPlace(ctx, failureId); // refused before trying: no failure
    throw userId ? await lockedError(ctx, userId, now) : await unknownNameLockedError(ctx, username, now);
  }
  return failureId;
}

export const giveBackIpPlace = (ctx: AppContext, failureId: number) =>
  ctx.db.delete(loginFailures).where(eq(loginFailures.id, failureId));

export async function signInFailed(
  ctx: AppContext,
  ip: string,
  username: string,
  user: { id: string; merchantId: string | null } | undefined,
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

export async function lockedError(ctx: AppContext, userId: string, now: Date) {
  const [locked] = await ctx.db.select({ until: users.lockedUntil }).from(users).where(eq(users.id, userId));
  return lockedAnswer(locked?.until ?? null, now);
}

/** The same answer, word for word and header for header, for a locked name that no user has. */
async function unknownNameLockedError(ctx: AppContext, username: string, now: Date) {
  const [locked] = await ctx.db
    .select({ until: loginNameFailures.lockedUntil })
    .from(loginNameFailures)
    .where(eq(loginNameFailures.username, username));
  return lockedAnswer(locked?.until ?? null, now);
}

function lockedAnswer(until: Date | null, now: Date) {
  const retry = Math.max(1, Math.ceil(((until?.getTime() ?? now.getTime()) - now.getTime()) / 1000));
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
export async function reserveUserAttempt(ctx: AppContext, userId: string, now: Date): Promise<boolean> {
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
 * `reserveUserAttempt` for a name no user has, in one statement with the same rule: counts the failure unless the
 * name is locked, the tenth locks it for LOCKOUT_MINUTES (and restarts the count). False when locked. New names
 * now and then push the oldest ones out (MAX_REMEMBERED_NAMES).
 */
async function reserveUnknownNameAttempt(ctx: AppContext, username: string, now: Date): Promise<boolean> {
  const at = now.toISOString();
  const lockUntil = new Date(now.getTime() + LOCKOUT_MINUTES * 60_000).toISOString();
  const res = await ctx.db.execute<{ inserted: boolean }>(sql`
    INSERT INTO login_name_failures AS f (username, failed_logins, locked_until, last_failed_at)
    VALUES (${username}, 1, NULL, ${at}::timestamptz)
    ON CONFLICT (username) DO UPDATE SET
      failed_logins = CASE WHEN f.failed_logins + 1 >= ${LOCKOUT_FAILURES} THEN 0 ELSE f.failed_logins + 1 END,
      locked_until = CASE WHEN f.failed_logins + 1 >= ${LOCKOUT_FAILURES} THEN ${lockUntil}::timestamptz ELSE NULL END,
      last_failed_at = ${at}::timestamptz
    WHERE f.locked_until IS NULL OR f.locked_until <= ${at}::timestamptz
    RETURNING (xmax = 0) AS inserted`);
  const row = res.rows[0];
  if (row?.inserted && ++nameMemory.newSinceTrim >= nameMemory.trimEvery) {
    nameMemory.newSinceTrim = 0;
    await forgetOldestNames(ctx);
  }
  return row !== undefined;
}

/** Keeps the remembered names to MAX_REMEMBERED_NAMES: those whose last failure is oldest go first. */
async function forgetOldestNames(ctx: AppContext) {
  await ctx.db.execute(sql`
    DELETE FROM login_name_failures WHERE username IN (
      SELECT username FROM login_name_failures ORDER BY last_failed_at DESC OFFSET ${MAX_REMEMBERED_NAMES}
    )`);
}

/**
 * A second-factor code a signed-in user gives to change the factor (turn it off, new recovery codes) is an
 * attempt like a sign-in: it takes a place in the IP's and the user's counts first, a wrong one is audited and
 * keeps its place (the tenth locks the user: a stolen session cannot guess codes), a right one gives it back.
 */
export async function withCountedCode<T>(ctx: AppContext, me: SessionUser, ip: string, change: () => Promise<T>) {
  const now = ctx.now();
  const failureId = await reserveAttempt(ctx, ip, me.username, me.id, now);
  try {
    const result = await change();
    await giveBackIpPlace(ctx, failureId);
    await ctx.db.update(users).set({ failedLogins: 0 }).where(eq(users.id, me.id));
    return result;
  } catch (err) {
    if (err instanceof WrongCodeError) {
      await signInFailed(ctx, ip, me.username, me, 'second_factor', now);
    } else {
      // failed for another reason than the code (a refusal comes before the count): no guess was made
      await giveBackIpPlace(ctx, failureId);
      await ctx.db
        .update(users)
        .set({ failedLogins: sql`GREATEST(${users.failedLogins} - 1, 0)` })
        .where(eq(users.id, me.id));
    }
    throw err;
  }
}

/** A wrong or used code given by a signed-in user: counted like a failed sign-in by `withCountedCode`. */
export class WrongCodeError extends AppError {
  constructor() {
    super('VALIDATION_ERROR', 'The code is wrong or was already used', {
      code: 'The code is wrong or was already used',
    });
  }
}
