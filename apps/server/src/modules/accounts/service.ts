import { asc, eq, sql } from 'drizzle-orm';
import {
  toExactInt,
  type ExactInt,
  credentialValueIssue,
  hasPermission,
  maskCredential,
  normalizeCredentialValue,
  type AccountCreateBody,
  type AccountCredential,
  type AccountDetails,
  type AccountLimit,
  type AccountLimitBody,
  type AccountListItem,
  type CredentialCreateBody,
} from '@paydesk/contracts';
import type { DbOrTx } from '../../db/create-db';
import {
  accountCredentials,
  accountLimits,
  currencies,
  paymentMethods,
  providerAccounts,
  providers,
} from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { providerAccountBalanceSql } from '../ledger/service';
import { badRequest, notFound } from '../../lib/errors';
import { recordAudit, type AuditActor } from '../audit/service';
import { flagOverLimit } from '../routing/service';

/**
 * Provider accounts belong to providers and serve every merchant, so they are not tenant-scoped:
 * access is the people.account / people.account.edit permissions alone.
 */
type Actor = { permissions: readonly string[] };

const showsCardNumbers = (actor: Actor) => hasPermission(actor.permissions, 'invoice.credentials.read');
const credentialOut = (
  actor: Actor,
  c: { id: number; credentialType: string; paramType: string; value: string },
): AccountCredential => ({
  ...c,
  value: showsCardNumbers(actor) ? c.value : maskCredential(c.credentialType, c.value),
});

const listColumns = {
  id: providerAccounts.id,
  providerName: providers.name,
  bankName: providerAccounts.bankName,
  paymentMethodName: paymentMethods.name,
  enabled: providerAccounts.enabled,
  isSandbox: providers.isSandbox,
  currency: currencies.code,
};

export function listAccounts(ctx: AppContext): Promise<AccountListItem[]> {
  return ctx.db
    .select(listColumns)
    .from(providerAccounts)
    .innerJoin(providers, eq(providers.id, providerAccounts.providerId))
    .innerJoin(paymentMethods, eq(paymentMethods.id, providerAccounts.paymentMethodId))
    .innerJoin(currencies, eq(currencies.id, paymentMethods.currencyId))
    .orderBy(asc(providerAccounts.id));
}

async function accountRow(db: DbOrTx, id: number) {
  const [row] = await db
    .select({
      ...listColumns,
      providerId: providerAccounts.providerId,
      paymentMethodId: providerAccounts.paymentMethodId,
      ownerName: providerAccounts.ownerName,
      currencyCode: currencies.code,
      dimension: currencies.dimension,
    })
    .from(providerAccounts)
    .innerJoin(providers, eq(providers.id, providerAccounts.providerId))
    .innerJoin(paymentMethods, eq(paymentMethods.id, providerAccounts.paymentMethodId))
    .innerJoin(currencies, eq(currencies.id, paymentMethods.currencyId))
    .where(eq(providerAccounts.id, id));
  if (!row) throw notFound('Account');
  return row;
}

export async function getAccount(ctx: AppContext, actor: Actor, id: number): Promise<AccountDetails> {
  const { currencyCode, dimension, ...row } = await accountRow(ctx.db, id);
  const creds = await ctx.db
    .select({
      id: accountCredentials.id,
      credentialType: accountCredentials.credentialType,
      paramType: accountCredentials.paramType,
      value: accountCredentials.value,
    })
    .from(accountCredentials)
    .where(eq(accountCredentials.accountId, id))
    .orderBy(asc(accountCredentials.id));
  return {
    ...row,
    currency: { code: currencyCode, dimension },
    credentials: creds.map((c) => credentialOut(actor, c)),
  };
}

/** Audit records never hold a full card or phone number: the first 6 and last 4 of a card, the last 4 of anything else. */
const auditValue = (type: string, value: string) =>
  type === 'CARD' ? maskCredential(type, value) : value.length > 4 ? `…${value.slice(-4)}` : '…';

export async function setAccountEnabled(
  ctx: AppContext,
  audit: AuditActor,
  id: number,
  enabled: boolean,
): Promise<AccountListItem> {
  return ctx.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ enabled: providerAccounts.enabled })
      .from(providerAccounts)
      .where(eq(providerAccounts.id, id))
      .for('update');
    if (!before) throw notFound('Account');
    await tx.update(providerAccounts).set({ enabled }).where(eq(providerAccounts.id, id));
    if (before.enabled !== enabled) {
      await recordAudit(
        tx,
        audit,
        {
          action: 'account.enabled_changed',
          targetType: 'account',
          targetId: id,
          before: { enabled: before.enabled },
          after: { enabled },
        },
        ctx.now(),
      );
    }
    const { providerName, bankName, paymentMethodName, isSandbox, currency } = await accountRow(tx, id);
    return { id, providerName, bankName, paymentMethodName, enabled, isSandbox, currency };
  });
}

/** A new account with a default limit row (limit 0: it takes no deposits until a limit is set). */
export async function createAccount(
  ctx: AppContext,
  audit: AuditActor,
  body: AccountCreateBody,
): Promise<AccountListItem> {
  const [method] = await ctx.db
    .select({ id: paymentMethods.id })
    .from(paymentMethods)
    .where(eq(paymentMethods.id, body.paymentMethodId));
  const [provider] = await ctx.db
    .select({ id: providers.id })
    .from(providers)
    .where(eq(providers.id, body.paymentProviderId));
  const fields: Record<string, string> = {};
  if (!method) fields.paymentMethodId = 'Unknown payment method';
  if (!provider) fields.paymentProviderId = 'Unknown payment provider';
  if (Object.keys(fields).length) throw badRequest(Object.values(fields)[0]!, fields);
  const id = await ctx.db.transaction(async (tx) => {
    const [a] = await tx
      .insert(providerAccounts)
      .values({
        providerId: body.paymentProviderId,
        paymentMethodId: body.paymentMethodId,
        bankName: body.bankName?.trim() || null,
        ownerName: body.ownerName?.trim() || null,
        enabled: true,
        createdAt: ctx.now(),
      })
      .returning({ id: providerAccounts.id });
    await tx.insert(accountLimits).values({ accountId: a!.id, limit: 0n, priority: 0, checkUniqueAmount: false });
    await recordAudit(
      tx,
      audit,
      {
        action: 'account.created',
        targetType: 'account',
        targetId: a!.id,
        after: {
          paymentProviderId: body.paymentProviderId,
          paymentMethodId: body.paymentMethodId,
          bankName: body.bankName?.trim() || null,
          limit: 0,
        },
      },
      ctx.now(),
    );
    return a!.id;
  });
  const { providerName, bankName, paymentMethodName, enabled, isSandbox, currency } = await accountRow(ctx.db, id);
  return { id, providerName, bankName, paymentMethodName, enabled, isSandbox, currency };
}

export async function addCredential(
  ctx: AppContext,
  actor: Actor,
  audit: AuditActor,
  body: CredentialCreateBody,
): Promise<AccountCredential> {
  await accountRow(ctx.db, body.peopleAccountId);
  const value = normalizeCredentialValue(body.credentialType, body.value);
  return ctx.db.transaction(async (tx) => {
    const [c] = await tx
      .insert(accountCredentials)
      .values({
        accountId: body.peopleAccountId,
        credentialType: body.credentialType,
        paramType: body.paramType,
        value,
      })
      .returning({
        id: accountCredentials.id,
        credentialType: accountCredentials.credentialType,
        paramType: accountCredentials.paramType,
        value: accountCredentials.value,
      });
    await recordAudit(
      tx,
      audit,
      {
        action: 'account.credential_added',
        targetType: 'account',
        targetId: body.peopleAccountId,
        after: { credentialId: c!.id, credentialType: c!.credentialType, value: auditValue(c!.credentialType, value) },
      },
      ctx.now(),
    );
    return credentialOut(actor, c!);
  });
}

export async function updateCredential(
  ctx: AppContext,
  actor: Actor,
  audit: AuditActor,
  credentialId: number,
  rawValue: string,
): Promise<AccountCredential> {
  return ctx.db.transaction(async (tx) => {
    const [current] = await tx
      .select({
        accountId: accountCredentials.accountId,
        credentialType: accountCredentials.credentialType,
        value: accountCredentials.value,
      })
      .from(accountCredentials)
      .where(eq(accountCredentials.id, credentialId))
      .for('update');
    if (!current) throw notFound('Credential');
    const value = normalizeCredentialValue(current.credentialType, rawValue);
    const issue = credentialValueIssue(current.credentialType, value);
    if (issue) throw badRequest(issue, { value: issue });
    const [c] = await tx
      .update(accountCredentials)
      .set({ value })
      .where(eq(accountCredentials.id, credentialId))
      .returning({
        id: accountCredentials.id,
        credentialType: accountCredentials.credentialType,
        paramType: accountCredentials.paramType,
        value: accountCredentials.value,
      });
    await recordAudit(
      tx,
      audit,
      {
        action: 'account.credential_changed',
        targetType: 'account',
        targetId: current.accountId,
        before: { credentialId, value: auditValue(current.credentialType, current.value) },
        after: { credentialId, value: auditValue(current.credentialType, value) },
      },
      ctx.now(),
    );
    return credentialOut(actor, c!);
  });
}

export async function removeCredential(ctx: AppContext, audit: AuditActor, credentialId: number) {
  await ctx.db.transaction(async (tx) => {
    const [removed] = await tx.delete(accountCredentials).where(eq(accountCredentials.id, credentialId)).returning({
      accountId: accountCredentials.accountId,
      credentialType: accountCredentials.credentialType,
      value: accountCredentials.value,
    });
    if (!removed) throw notFound('Credential');
    await recordAudit(
      tx,
      audit,
      {
        action: 'account.credential_removed',
        targetType: 'account',
        targetId: removed.accountId,
        before: {
          credentialId,
          credentialType: removed.credentialType,
          value: auditValue(removed.credentialType, removed.value),
        },
      },
      ctx.now(),
    );
  });
}

/** Balance from the ledger's balance rows: the live book, or the test book for a sandbox provider's account. */
async function balanceOf(db: DbOrTx, accountId: number): Promise<ExactInt> {
  const book = sql`(SELECT CASE WHEN p.is_sandbox THEN 'test' ELSE 'live' END FROM provider_accounts a
                    JOIN providers p ON p.id = a.provider_id WHERE a.id = ${accountId})`;
  const res = await db.execute<{ balance: string }>(
    sql`SELECT ${providerAccountBalanceSql(accountId, book)}::text AS balance`,
  );
  return toExactInt(res.rows[0]?.balance ?? 0);
}

export async function getLimit(ctx: AppContext, accountId: number, db: DbOrTx = ctx.db): Promise<AccountLimit> {
  await accountRow(db, accountId);
  const [l] = await db.select().from(accountLimits).where(eq(accountLimits.accountId, accountId));
  return {
    peopleAccountId: accountId,
    limit: toExactInt(l?.limit ?? 0n),
    balance: await balanceOf(db, accountId),
    priority: l?.priority ?? 0,
    checkUniqueAmount: l?.checkUniqueAmount ?? false,
  };
}

export async function setLimit(
  ctx: AppContext,
  audit: AuditActor,
  accountId: number,
  body: AccountLimitBody,
): Promise<AccountLimit> {
  if (body.peopleAccountId !== accountId) {
    throw badRequest('peopleAccountId must match the account in the path', {
      peopleAccountId: 'Must match the account in the path',
    });
  }
  return ctx.db.transaction(async (tx) => {
    await accountRow(tx, accountId);
    // the routing engine locks these rows while choosing an account, so a change waits for it
    const [before] = await tx.select().from(accountLimits).where(eq(accountLimits.accountId, accountId)).for('update');
    await recordAudit(
      tx,
      audit,
      {
        action: 'account.limit_changed',
        targetType: 'account',
        targetId: accountId,
        before: before
          ? { limit: String(before.limit), priority: before.priority, checkUniqueAmount: before.checkUniqueAmount }
          : null,
        // limits are exact integers of any size: the audit keeps their digits
        after: { limit: String(body.limit), priority: body.priority, checkUniqueAmount: body.checkUniqueAmount },
      },
      ctx.now(),
    );
    await tx
      .insert(accountLimits)
      .values({
        accountId,
        limit: BigInt(body.limit),
        priority: body.priority,
        checkUniqueAmount: body.checkUniqueAmount,
      })
      .onConflictDoUpdate({
        target: accountLimits.accountId,
        set: { limit: BigInt(body.limit), priority: body.priority, checkUniqueAmount: body.checkUniqueAmount },
      });
    // a raised limit takes the account out of "over limit"; a lowered one may put it there
    const [acc] = await tx
      .select({ isSandbox: providers.isSandbox })
      .from(providerAccounts)
      .innerJoin(providers, eq(providers.id, providerAccounts.providerId))
      .where(eq(providerAccounts.id, accountId));
    await flagOverLimit(tx, accountId, acc?.isSandbox ?? false, ctx.now());
    return getLimit(ctx, accountId, tx);
  });
}
