import { and, asc, eq, ne, sql } from 'drizzle-orm';
import {
  toExactInt,
  type ExactInt,
  credentialValueIssue,
  normalizeCredentialValue,
  type AccountCreateBody,
  type AccountCredential,
  type AccountDetails,
  type AccountLimit,
  type AccountLimitBody,
  type AccountListItem,
  type CredentialCreateBody,
  maskRequisite,
  type ApprovalHeld,
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
import { badRequest, invalidState, notFound } from '../../lib/errors';
import { recordAudit, recordReveal, type AuditActor } from '../audit/service';
import { holdForApproval, type ApprovalGrant, type HoldSpec } from '../engine/service';
import { flagOverLimit } from '../routing/service';

/**
 * Provider accounts belong to providers and serve every merchant, so they are not tenant-scoped:
 * access is the people.account / people.account.edit permissions alone.
 */

/** A credential as every answer shows it: masked (the full value only by revealCredential, audited). */
const credentialOut = (c: {
  id: number;
  credentialType: string;
  paramType: string;
  valueMasked: string | null;
}): AccountCredential => ({
  id: c.id,
  credentialType: c.credentialType,
  paramType: c.paramType,
  value: c.valueMasked ?? '••••',
});

const credentialColumns = {
  id: accountCredentials.id,
  credentialType: accountCredentials.credentialType,
  paramType: accountCredentials.paramType,
  valueMasked: accountCredentials.valueMasked,
};

/**
 * The columns a credential value is stored in: encrypted, with its lookup hash and masked form. One card or phone is
 * the requisite of one account only: a value another credential already holds is refused (409), found by its hash.
 */
async function sealCredential(ctx: AppContext, tx: DbOrTx, type: string, value: string, except?: number) {
  const sealed = ctx.vault.seal('account.credential', type, value);
  const [dup] = await tx
    .select({ accountId: accountCredentials.accountId })
    .from(accountCredentials)
    .where(
      except === undefined
        ? eq(accountCredentials.valueHash, sealed.hash)
        : and(eq(accountCredentials.valueHash, sealed.hash), ne(accountCredentials.id, except)),
    )
    .limit(1);
  if (dup)
    throw invalidState(
      `This ${type === 'CARD' ? 'card' : 'number'} is already a requisite of account ${dup.accountId}`,
    );
  return { value: sealed.value, valueHash: sealed.hash, valueMasked: sealed.masked };
}

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

export async function getAccount(ctx: AppContext, id: number): Promise<AccountDetails> {
  const { currencyCode, dimension, ...row } = await accountRow(ctx.db, id);
  const creds = await ctx.db
    .select(credentialColumns)
    .from(accountCredentials)
    .where(eq(accountCredentials.accountId, id))
    .orderBy(asc(accountCredentials.id));
  return {
    ...row,
    currency: { code: currencyCode, dimension },
    credentials: creds.map(credentialOut),
  };
}

/**
 * A provider account edit a two-person policy on people.account.edit covers: held as a request (null: carry on).
 * Credential changes are held whenever the policy is on; limit raises by their new limit against the threshold.
 */
async function holdAccountEdit(
  ctx: AppContext,
  audit: AuditActor,
  spec: Omit<HoldSpec, 'action' | 'merchantId' | 'reason'> & { reason?: string },
  grant?: ApprovalGrant,
) {
  if (!audit.userId) return null;
  return holdForApproval(
    ctx,
    { ...audit, userId: audit.userId },
    { ...spec, action: 'people.account.edit', merchantId: null, reason: spec.reason ?? spec.summary },
    grant,
  );
}

/**
 * The full value of a provider account's credential, for people.account holders with invoice.credentials.read: the
 * audit record of who saw it is written first, in the same transaction (audit/service.ts recordReveal).
 */
export async function revealCredential(ctx: AppContext, audit: AuditActor & { userId: string }, credentialId: number) {
  return ctx.db.transaction(async (tx) => {
    const [c] = await tx
      .select({ ...credentialColumns, value: accountCredentials.value, accountId: accountCredentials.accountId })
      .from(accountCredentials)
      .where(eq(accountCredentials.id, credentialId));
    if (!c) throw notFound('Credential');
    await recordReveal(tx, audit, { type: 'account_credential', id: credentialId }, ctx.now());
    return {
      credentialId,
      accountId: c.accountId,
      credentialType: c.credentialType,
      value: await ctx.vault.open(tx, 'account.credential', c.value),
    };
  });
}

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
  audit: AuditActor,
  body: CredentialCreateBody,
  grant?: ApprovalGrant,
): Promise<AccountCredential | { held: ApprovalHeld }> {
  await accountRow(ctx.db, body.peopleAccountId);
  const value = normalizeCredentialValue(body.credentialType, body.value);
  const held = await holdAccountEdit(
    ctx,
    audit,
    {
      targetType: 'account',
      targetId: body.peopleAccountId,
      summary: `Add ${body.credentialType} ${maskRequisite(body.credentialType, value)} to account ${body.peopleAccountId}`,
      // the request keeps the number encrypted, as every stored requisite (lib/data-vault.ts)
      payload: {
        kind: 'add',
        body: { ...body, value: ctx.vault.seal('account.credential', body.credentialType, value).value },
      },
      before: null,
      after: { value: maskRequisite(body.credentialType, value) },
    },
    grant,
  );
  if (held) return { held };
  return ctx.db.transaction(async (tx) => {
    const [c] = await tx
      .insert(accountCredentials)
      .values({
        accountId: body.peopleAccountId,
        credentialType: body.credentialType,
        paramType: body.paramType,
        ...(await sealCredential(ctx, tx, body.credentialType, value)),
      })
      .returning(credentialColumns);
    await recordAudit(
      tx,
      audit,
      {
        action: 'account.credential_added',
        targetType: 'account',
        targetId: body.peopleAccountId,
        after: { credentialId: c!.id, credentialType: c!.credentialType, value: c!.valueMasked },
      },
      ctx.now(),
    );
    return credentialOut(c!);
  });
}

export async function updateCredential(
  ctx: AppContext,
  audit: AuditActor,
  credentialId: number,
  rawValue: string,
  grant?: ApprovalGrant,
): Promise<AccountCredential | { held: ApprovalHeld }> {
  const [cur] = await ctx.db
    .select({
      accountId: accountCredentials.accountId,
      type: accountCredentials.credentialType,
      masked: accountCredentials.valueMasked,
    })
    .from(accountCredentials)
    .where(eq(accountCredentials.id, credentialId));
  if (cur) {
    const value = normalizeCredentialValue(cur.type, rawValue);
    const issue = credentialValueIssue(cur.type, value);
    if (issue) throw badRequest(issue, { value: issue });
    const held = await holdAccountEdit(
      ctx,
      audit,
      {
        targetType: 'account',
        targetId: cur.accountId,
        summary: `Replace ${cur.masked ?? 'a credential'} of account ${cur.accountId} by ${maskRequisite(cur.type, value)}`,
        payload: { kind: 'update', credentialId, value: ctx.vault.seal('account.credential', cur.type, value).value },
        before: { value: cur.masked },
        after: { value: maskRequisite(cur.type, value) },
      },
      grant,
    );
    if (held) return { held };
  }
  return ctx.db.transaction(async (tx) => {
    const [current] = await tx
      .select({
        accountId: accountCredentials.accountId,
        credentialType: accountCredentials.credentialType,
        valueMasked: accountCredentials.valueMasked,
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
      .set(await sealCredential(ctx, tx, current.credentialType, value, credentialId))
      .where(eq(accountCredentials.id, credentialId))
      .returning(credentialColumns);
    await recordAudit(
      tx,
      audit,
      {
        action: 'account.credential_changed',
        targetType: 'account',
        targetId: current.accountId,
        before: { credentialId, value: current.valueMasked },
        after: { credentialId, value: c!.valueMasked },
      },
      ctx.now(),
    );
    return credentialOut(c!);
  });
}

export async function removeCredential(
  ctx: AppContext,
  audit: AuditActor,
  credentialId: number,
  grant?: ApprovalGrant,
): Promise<{ held: ApprovalHeld } | null> {
  const [cur] = await ctx.db
    .select({ accountId: accountCredentials.accountId, masked: accountCredentials.valueMasked })
    .from(accountCredentials)
    .where(eq(accountCredentials.id, credentialId));
  if (cur) {
    const held = await holdAccountEdit(
      ctx,
      audit,
      {
        targetType: 'account',
        targetId: cur.accountId,
        summary: `Remove ${cur.masked ?? 'a credential'} from account ${cur.accountId}`,
        payload: { kind: 'remove', credentialId },
        before: { value: cur.masked },
        after: null,
      },
      grant,
    );
    if (held) return { held };
  }
  await ctx.db.transaction(async (tx) => {
    const [removed] = await tx.delete(accountCredentials).where(eq(accountCredentials.id, credentialId)).returning({
      accountId: accountCredentials.accountId,
      credentialType: accountCredentials.credentialType,
      valueMasked: accountCredentials.valueMasked,
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
          value: removed.valueMasked,
        },
      },
      ctx.now(),
    );
  });
  return null;
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
  grant?: ApprovalGrant,
): Promise<AccountLimit | { held: ApprovalHeld }> {
  if (body.peopleAccountId !== accountId) {
    throw badRequest('peopleAccountId must match the account in the path', {
      peopleAccountId: 'Must match the account in the path',
    });
  }
  const { currencyCode: currency } = await accountRow(ctx.db, accountId);
  const [current] = await ctx.db
    .select({ limit: accountLimits.limit })
    .from(accountLimits)
    .where(eq(accountLimits.accountId, accountId));
  const old = current?.limit ?? 0n;
  // a raise is held by a policy on people.account.edit (its new limit against the threshold); a cut never is
  if (BigInt(body.limit) > old) {
    const held = await holdAccountEdit(
      ctx,
      audit,
      {
        targetType: 'account',
        targetId: accountId,
        summary: `Raise the limit of account ${accountId} from ${old} to ${body.limit} (minor units of ${currency})`,
        payload: { kind: 'limit', accountId, body },
        before: { limit: String(old) },
        after: { limit: String(body.limit), priority: body.priority, checkUniqueAmount: body.checkUniqueAmount },
        amount: Number(body.limit) <= Number.MAX_SAFE_INTEGER ? Number(body.limit) : Number.MAX_SAFE_INTEGER,
        currency,
      },
      grant,
    );
    if (held) return { held };
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
