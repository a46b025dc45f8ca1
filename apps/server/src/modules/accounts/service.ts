import { asc, eq, sql } from 'drizzle-orm';
import {
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
};

export function listAccounts(ctx: AppContext): Promise<AccountListItem[]> {
  return ctx.db
    .select(listColumns)
    .from(providerAccounts)
    .innerJoin(providers, eq(providers.id, providerAccounts.providerId))
    .innerJoin(paymentMethods, eq(paymentMethods.id, providerAccounts.paymentMethodId))
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

export async function setAccountEnabled(ctx: AppContext, id: number, enabled: boolean): Promise<AccountListItem> {
  const updated = await ctx.db
    .update(providerAccounts)
    .set({ enabled })
    .where(eq(providerAccounts.id, id))
    .returning({ id: providerAccounts.id });
  if (!updated.length) throw notFound('Account');
  const { id: _id, providerName, bankName, paymentMethodName } = await accountRow(ctx.db, id);
  return { id, providerName, bankName, paymentMethodName, enabled };
}

/** A new account with a default limit row (limit 0: it takes no deposits until a limit is set). */
export async function createAccount(ctx: AppContext, body: AccountCreateBody): Promise<AccountListItem> {
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
    await tx.insert(accountLimits).values({ accountId: a!.id, limit: 0, priority: 0, checkUniqueAmount: false });
    return a!.id;
  });
  const { providerName, bankName, paymentMethodName, enabled } = await accountRow(ctx.db, id);
  return { id, providerName, bankName, paymentMethodName, enabled };
}

export async function addCredential(
  ctx: AppContext,
  actor: Actor,
  body: CredentialCreateBody,
): Promise<AccountCredential> {
  await accountRow(ctx.db, body.peopleAccountId);
  const value = normalizeCredentialValue(body.credentialType, body.value);
  const [c] = await ctx.db
    .insert(accountCredentials)
    .values({ accountId: body.peopleAccountId, credentialType: body.credentialType, paramType: body.paramType, value })
    .returning({
      id: accountCredentials.id,
      credentialType: accountCredentials.credentialType,
      paramType: accountCredentials.paramType,
      value: accountCredentials.value,
    });
  return credentialOut(actor, c!);
}

export async function updateCredential(
  ctx: AppContext,
  actor: Actor,
  credentialId: number,
  rawValue: string,
): Promise<AccountCredential> {
  const [current] = await ctx.db
    .select({ credentialType: accountCredentials.credentialType })
    .from(accountCredentials)
    .where(eq(accountCredentials.id, credentialId));
  if (!current) throw notFound('Credential');
  const value = normalizeCredentialValue(current.credentialType, rawValue);
  const issue = credentialValueIssue(current.credentialType, value);
  if (issue) throw badRequest(issue, { value: issue });
  const [c] = await ctx.db
    .update(accountCredentials)
    .set({ value })
    .where(eq(accountCredentials.id, credentialId))
    .returning({
      id: accountCredentials.id,
      credentialType: accountCredentials.credentialType,
      paramType: accountCredentials.paramType,
      value: accountCredentials.value,
    });
  if (!c) throw notFound('Credential');
  return credentialOut(actor, c);
}

export async function removeCredential(ctx: AppContext, credentialId: number) {
  const removed = await ctx.db
    .delete(accountCredentials)
    .where(eq(accountCredentials.id, credentialId))
    .returning({ id: accountCredentials.id });
  if (!removed.length) throw notFound('Credential');
}

/** Balance is read from the ledger. */
async function balanceOf(db: DbOrTx, accountId: number): Promise<number> {
  const res = await db.execute<{ balance: string | number }>(
    sql`SELECT ${providerAccountBalanceSql(accountId)} AS balance`,
  );
  return Number(res.rows[0]?.balance ?? 0);
}

export async function getLimit(ctx: AppContext, accountId: number, db: DbOrTx = ctx.db): Promise<AccountLimit> {
  await accountRow(db, accountId);
  const [l] = await db.select().from(accountLimits).where(eq(accountLimits.accountId, accountId));
  return {
    peopleAccountId: accountId,
    limit: l?.limit ?? 0,
    balance: await balanceOf(db, accountId),
    priority: l?.priority ?? 0,
    checkUniqueAmount: l?.checkUniqueAmount ?? false,
  };
}

export async function setLimit(ctx: AppContext, accountId: number, body: AccountLimitBody): Promise<AccountLimit> {
  if (body.peopleAccountId !== accountId) {
    throw badRequest('peopleAccountId must match the account in the path', {
      peopleAccountId: 'Must match the account in the path',
    });
  }
  return ctx.db.transaction(async (tx) => {
    await accountRow(tx, accountId);
    // the routing engine locks these rows while choosing an account, so a change waits for it
    await tx
      .insert(accountLimits)
      .values({ accountId, limit: body.limit, priority: body.priority, checkUniqueAmount: body.checkUniqueAmount })
      .onConflictDoUpdate({
        target: accountLimits.accountId,
        set: { limit: body.limit, priority: body.priority, checkUniqueAmount: body.checkUniqueAmount },
      });
    return getLimit(ctx, accountId, tx);
  });
}
