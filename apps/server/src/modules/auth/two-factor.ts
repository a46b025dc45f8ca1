import { createHash, randomBytes } from 'node:crypto';
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { TwoFactorSetup, TwoFactorStatus } from '@paydesk/contracts';
import { recoveryCodes, users } from '../../db/schema';
import type { DbOrTx } from '../../db/create-db';
import type { AppContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { endSessions, type SessionUser } from '../../plugins/auth';
import { recordAudit, staffActor } from '../audit/service';
import { WrongCodeError, withCountedCode } from './attempts';

/**
 * Two-factor sign-in with TOTP (RFC 6238: HMAC-SHA1, 6 digits, 30 s, what every authenticator app reads),
 * enrolled from Settings with a QR code and ten one-time recovery codes.
 */
const ISSUER = 'Paydesk';
const PERIOD = 30;
/** One step either side of now: a phone clock 30 s off still works (RFC 6238 §5.2). */
const WINDOW = 1;
const RECOVERY_CODES = 10;
/** base32 without padding: 10 characters = 50 bits each, shown as xxxxx-xxxxx */
const RECOVERY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

const totpFor = (secret: string, label: string) =>
  new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD, secret: Secret.fromBase32(secret) });

/** The time step a code belongs to, or null when it matches none within the window. */
function matchingStep(secret: string, code: string, at: Date): number | null {
  const delta = totpFor(secret, 'x').validate({ token: code, timestamp: at.getTime(), window: WINDOW });
  return delta === null ? null : Math.floor(at.getTime() / 1000 / PERIOD) + delta;
}

const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODES }, () => {
    const bytes = randomBytes(10);
    const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % 32]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** Replaces a user's recovery codes with ten new ones and returns them (shown once, stored hashed). */
async function replaceRecoveryCodes(tx: DbOrTx, userId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx.insert(recoveryCodes).values(codes.map((c) => ({ userId, codeHash: hashCode(c.replace('-', '')) })));
  return codes;
}

export type SecondFactorUse = 'totp' | 'recovery_code';

/**
 * Checks a second-factor code of an enrolled user and uses it up, atomically: a TOTP code moves the user's
 * last accepted step forward (a code, or an older one, is never good twice, RFC 6238 §5.2); a recovery code is
 * marked used. `code` is normalised by the contracts schema (6 digits, or 10 base32 letters).
 * Null when the code is wrong, reused or the user has no second factor.
 */
export async function useSecondFactor(
  db: DbOrTx,
  userId: string,
  code: string,
  at: Date,
): Promise<SecondFactorUse | null> {
  if (/^\d{6}$/.test(code)) {
    const [u] = await db.select({ secret: users.totpSecret }).from(users).where(eq(users.id, userId));
    if (!u?.secret) return null;
    const step = matchingStep(u.secret, code, at);
    if (step === null) return null;
    const moved = await db
      .update(users)
      .set({ totpLastStep: step })
      .where(
        and(
          eq(users.id, userId),
          eq(users.totpSecret, u.secret),
          sql`(${users.totpLastStep} IS NULL OR ${users.totpLastStep} < ${step})`,
        ),
      )
      .returning({ id: users.id });
    return moved.length === 1 ? 'totp' : null;
  }
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: at })
    .where(
      and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, hashCode(code)), isNull(recoveryCodes.usedAt)),
    )
    .returning({ id: recoveryCodes.id });
  return used.length === 1 ? 'recovery_code' : null;
}

export async function twoFactorStatus(ctx: AppContext, me: SessionUser): Promise<TwoFactorStatus> {
  const [u] = await ctx.db
    .select({ enabledAt: users.totpEnabledAt, pending: users.totpPendingSecret })
    .from(users)
    .where(eq(users.id, me.id));
  const [left] = await ctx.db
    .select({ n: count() })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, me.id), isNull(recoveryCodes.usedAt)));
  return {
    enabled: Boolean(u?.enabledAt),
    enabledAt: u?.enabledAt?.toISOString() ?? null,
    required: me.twoFactorRequired,
    recoveryCodesLeft: u?.enabledAt ? (left?.n ?? 0) : 0,
    pending: Boolean(u?.pending) && !u?.enabledAt,
  };
}

/** Starts a setup: a new secret, kept aside until the app's first code confirms it. */
export async function startTwoFactorSetup(ctx: AppContext, me: SessionUser): Promise<TwoFactorSetup> {
  if (me.twoFactorEnabled) {
    throw new AppError('CONFLICT', 'Two-factor sign-in is already on. Turn it off first to set up another app.');
  }
  const secret = new Secret({ size: 20 }).base32;
  await ctx.db.update(users).set({ totpPendingSecret: secret }).where(eq(users.id, me.id));
  return { secret, otpauthUri: totpFor(secret, me.username).toString() };
}

/** Confirms the setup with the app's current code: the second factor is on; ten recovery codes come back once. */
export async function enableTwoFactor(ctx: AppContext, me: SessionUser, ip: string, code: string): Promise<string[]> {
  const now = ctx.now();
  return ctx.db.transaction(async (tx) => {
    const [u] = await tx
      .select({ pending: users.totpPendingSecret, enabledAt: users.totpEnabledAt })
      .from(users)
      .where(eq(users.id, me.id))
      .for('update');
    if (u?.enabledAt) throw new AppError('CONFLICT', 'Two-factor sign-in is already on');
    if (!u?.pending) throw new AppError('INVALID_STATE', 'Start the setup first: no secret is waiting for a code');
    const step = matchingStep(u.pending, code, now);
    if (step === null) {
      throw new AppError('VALIDATION_ERROR', 'The code does not match. Check the time on your phone and try again.', {
        code: 'The code does not match',
      });
    }
    await tx
      .update(users)
      .set({ totpSecret: u.pending, totpPendingSecret: null, totpEnabledAt: now, totpLastStep: step })
      .where(eq(users.id, me.id));
    await endSessions(tx, me.id, now, me.sessionId);
    const codes = await replaceRecoveryCodes(tx, me.id);
    await recordAudit(
      tx,
      staffActor(me, ip),
      { action: 'auth.two_factor_enabled', merchantId: me.merchantId, targetType: 'user', targetId: me.id },
      now,
    );
    return codes;
  });
}

/** A current code (or a recovery code) proves the app is at hand before the factor is changed. */
async function confirmWithCode(tx: DbOrTx, me: SessionUser, code: string, at: Date) {
  if (!(await useSecondFactor(tx, me.id, code, at))) throw new WrongCodeError();
}

/**
 * Removes a user's second factor and recovery codes: the user turning it off, or a platform admin resetting it
 * (users module). Its sessions are the caller's business.
 */
export async function removeSecondFactor(tx: DbOrTx, userId: string) {
  await tx
    .update(users)
    .set({ totpSecret: null, totpPendingSecret: null, totpEnabledAt: null, totpLastStep: null })
    .where(eq(users.id, userId));
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
}

/** What may be refused before any code is looked at (so a refusal there is no guess, and counts nothing). */
function assertFactorChangeable(me: SessionUser, change: 'disable' | 'renew') {
  if (!me.twoFactorEnabled) throw new AppError('INVALID_STATE', 'Two-factor sign-in is not on');
  if (change === 'disable' && me.twoFactorRequired) {
    throw new AppError(
      'FORBIDDEN',
      me.scope === 'platform'
        ? 'Two-factor sign-in is required for platform staff and cannot be turned off'
        : 'Your merchant requires two-factor sign-in; it cannot be turned off',
    );
  }
}

/** Turns the factor off with a current code, counted like a sign-in attempt (a stolen session cannot guess it). */
export async function disableTwoFactor(ctx: AppContext, me: SessionUser, ip: string, code: string) {
  assertFactorChangeable(me, 'disable');
  const now = ctx.now();
  await withCountedCode(ctx, me, ip, () =>
    ctx.db.transaction(async (tx) => {
      await confirmWithCode(tx, me, code, now);
      await removeSecondFactor(tx, me.id);
      await endSessions(tx, me.id, now, me.sessionId);
      await recordAudit(
        tx,
        staffActor(me, ip),
        { action: 'auth.two_factor_disabled', merchantId: me.merchantId, targetType: 'user', targetId: me.id },
        now,
      );
    }),
  );
}

/** Ten new recovery codes (the old ones stop working) for a current code, counted like a sign-in attempt. */
export async function renewRecoveryCodes(ctx: AppContext, me: SessionUser, ip: string, code: string) {
  assertFactorChangeable(me, 'renew');
  const now = ctx.now();
  return withCountedCode(ctx, me, ip, () =>
    ctx.db.transaction(async (tx) => {
      await confirmWithCode(tx, me, code, now);
      const codes = await replaceRecoveryCodes(tx, me.id);
      await recordAudit(
        tx,
        staffActor(me, ip),
        { action: 'auth.recovery_codes_renewed', merchantId: me.merchantId, targetType: 'user', targetId: me.id },
        now,
      );
      return codes;
    }),
  );
}
