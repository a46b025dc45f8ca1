import { createPublicKey, randomBytes } from 'node:crypto';
import { asc, count, eq } from 'drizzle-orm';
import { PUBLIC_KEY_MESSAGE, WEBHOOK_SECRET_OVERLAP_HOURS, type ApprovalHeld, type Merchant } from '@paydesk/contracts';
import type { Tx } from '../../db/create-db';
import { merchants } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { badRequest, invalidState, notFound } from '../../lib/errors';
import { recordAudit, type AuditActor } from '../audit/service';
import { holdForApproval, type ApprovalGrant } from '../engine/service';

const columns = {
  id: merchants.id,
  name: merchants.name,
  clientPublicKey: merchants.clientPublicKey,
  previousWebhookSecretUntil: merchants.previousWebhookSecretUntil,
  requireTwoFactor: merchants.requireTwoFactor,
};
type Row = {
  id: string;
  name: string;
  clientPublicKey: string | null;
  previousWebhookSecretUntil: Date | null;
  requireTwoFactor: boolean;
};

function toMerchant(r: Row, now: Date): Merchant {
  const until = r.previousWebhookSecretUntil;
  return {
    id: r.id,
    name: r.name,
    clientPublicKey: r.clientPublicKey,
    previousWebhookSecretUntil: until && until > now ? until.toISOString() : null,
    requireTwoFactor: r.requireTwoFactor,
  };
}

export async function getMerchant(ctx: AppContext, id: string): Promise<Merchant> {
  const [m] = await ctx.db.select(columns).from(merchants).where(eq(merchants.id, id));
  if (!m) throw notFound('Merchant');
  return toMerchant(m, ctx.now());
}

async function lockMerchant(tx: Tx, id: string) {
  const [m] = await tx.select().from(merchants).where(eq(merchants.id, id)).for('update');
  if (!m) throw notFound('Merchant');
  return m;
}

export async function listMerchants(ctx: AppContext, page: number, size: number) {
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select(columns)
      .from(merchants)
      .orderBy(asc(merchants.createdAt), asc(merchants.name))
      .limit(size)
      .offset(page * size),
    ctx.db.select({ n: count() }).from(merchants),
  ]);
  const now = ctx.now();
  return { data: rows.map((r) => toMerchant(r, now)), total: total?.n ?? 0 };
}

/**
 * The merchant API verifies request signatures with this key (merchant-api/signature.ts), so only a parseable
 * Ed25519 SPKI key is accepted; it is stored in canonical PEM form.
 */
function canonicalEd25519Pem(pem: string): string {
  let key;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch {
    throw badRequest(`${PUBLIC_KEY_MESSAGE}: it could not be parsed`, { clientPublicKey: PUBLIC_KEY_MESSAGE });
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw badRequest(`${PUBLIC_KEY_MESSAGE}: got a ${key.asymmetricKeyType ?? 'unknown'} key`, {
      clientPublicKey: PUBLIC_KEY_MESSAGE,
    });
  }
  return key.export({ type: 'spki', format: 'pem' }).toString();
}

export async function renameMerchant(ctx: AppContext, actor: AuditActor, id: string, name: string): Promise<Merchant> {
  return ctx.db.transaction(async (tx) => {
    const before = await lockMerchant(tx, id);
    const [m] = await tx.update(merchants).set({ name }).where(eq(merchants.id, id)).returning(columns);
    if (before.name !== name) {
      await recordAudit(
        tx,
        actor,
        {
          action: 'merchant.renamed',
          merchantId: id,
          targetType: 'merchant',
          targetId: id,
          before: { name: before.name },
          after: { name },
        },
        ctx.now(),
      );
    }
    return toMerchant(m!, ctx.now());
  });
}

/**
 * Requires (or stops requiring) a second factor of every user of the merchant: from their next request, a
 * user without one can only set it up (TWO_FACTOR_SETUP_REQUIRED elsewhere).
 */
export async function setTwoFactorPolicy(
  ctx: AppContext,
  actor: AuditActor,
  id: string,
  requireTwoFactor: boolean,
): Promise<Merchant> {
  return ctx.db.transaction(async (tx) => {
    const before = await lockMerchant(tx, id);
    if (before.requireTwoFactor === requireTwoFactor) {
      throw invalidState(
        `Two-factor sign-in is already ${requireTwoFactor ? 'required' : 'optional'} for this merchant`,
      );
    }
    const [m] = await tx.update(merchants).set({ requireTwoFactor }).where(eq(merchants.id, id)).returning(columns);
    await recordAudit(
      tx,
      actor,
      {
        action: 'merchant.two_factor_policy_changed',
        merchantId: id,
        targetType: 'merchant',
        targetId: id,
        before: { requireTwoFactor: before.requireTwoFactor },
        after: { requireTwoFactor },
      },
      ctx.now(),
    );
    return toMerchant(m!, ctx.now());
  });
}

/**
 * Replaces the key the merchant API verifies signatures with; requests signed with the old key fail from now on. Held
 * for a second person when the platform's policy or the merchant's own covers it; `grant` is the approval.
 */
export async function replacePublicKey(
  ctx: AppContext,
  actor: AuditActor,
  id: string,
  pem: string,
  grant?: ApprovalGrant,
): Promise<Merchant | { held: ApprovalHeld }> {
  const canonical = canonicalEd25519Pem(pem);
  if (actor.userId) {
    const [m] = await ctx.db.select({ name: merchants.name }).from(merchants).where(eq(merchants.id, id));
    const held = await holdForApproval(
      ctx,
      { ...actor, userId: actor.userId },
      {
        action: 'merchant.key.edit',
        merchantId: id,
        targetType: 'merchant',
        targetId: id,
        summary: `Replace the API public key of ${m?.name ?? 'the merchant'}`,
        payload: { merchantId: id, clientPublicKey: canonical },
        before: null,
        after: { clientPublicKey: canonical },
        reason: 'API key replacement',
      },
      grant,
    );
    if (held) return { held };
  }
  return ctx.db.transaction(async (tx) => {
    const before = await lockMerchant(tx, id);
    if (before.clientPublicKey === canonical) throw invalidState("This is already the merchant's public key");
    const [m] = await tx
      .update(merchants)
      .set({ clientPublicKey: canonical })
      .where(eq(merchants.id, id))
      .returning(columns);
    await recordAudit(
      tx,
      actor,
      {
        action: 'merchant.public_key_replaced',
        merchantId: id,
        targetType: 'merchant',
        targetId: id,
        before: { clientPublicKey: before.clientPublicKey },
        after: { clientPublicKey: canonical },
      },
      ctx.now(),
    );
    return toMerchant(m!, ctx.now());
  });
}

const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * A new webhook secret, returned this once. The old one keeps signing callbacks beside it for
 * WEBHOOK_SECRET_OVERLAP_HOURS (Standard Webhooks carries several signatures in one header), so a
 * merchant can roll its verifier without losing a callback. Secrets never reach the audit trail.
 */
export async function rotateWebhookSecret(ctx: AppContext, actor: AuditActor, id: string) {
  return ctx.db.transaction(async (tx) => {
    const before = await lockMerchant(tx, id);
    const now = ctx.now();
    const until = new Date(now.getTime() + WEBHOOK_SECRET_OVERLAP_HOURS * 3_600_000);
    const webhookSecret = newWebhookSecret();
    await tx
      .update(merchants)
      .set({ webhookSecret, previousWebhookSecret: before.webhookSecret, previousWebhookSecretUntil: until })
      .where(eq(merchants.id, id));
    await recordAudit(
      tx,
      actor,
      {
        action: 'merchant.webhook_secret_rotated',
        merchantId: id,
        targetType: 'merchant',
        targetId: id,
        after: { previousSecretValidUntil: until.toISOString() },
      },
      now,
    );
    return { webhookSecret, previousValidUntil: until.toISOString() };
  });
}

/** A real merchant with its own webhook secret; it signs API calls once a public key is set. */
export async function createMerchant(ctx: AppContext, actor: AuditActor, name: string): Promise<Merchant> {
  return ctx.db.transaction(async (tx) => {
    const [m] = await tx
      .insert(merchants)
      .values({ name, clientPublicKey: null, webhookSecret: newWebhookSecret(), createdAt: ctx.now() })
      .returning(columns);
    await recordAudit(
      tx,
      actor,
      { action: 'merchant.created', merchantId: m!.id, targetType: 'merchant', targetId: m!.id, after: { name } },
      ctx.now(),
    );
    return toMerchant(m!, ctx.now());
  });
}
