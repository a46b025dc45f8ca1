import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import {
  REQUISITE_STATUSES,
  formatMoney,
  holdsRequisites,
  pendingProviderForbids,
  statusExistsInFlow,
  type FlowType,
} from '@paydesk/contracts';
import type { Tx } from '../../db/create-db';
import { rowSql } from '../../db/row-sql';
import { accountLimits, currencies, invoices, providerTransactions } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { bookOf, lockMerchantFunds, merchantAvailable, providerAccountBalanceSql, type Book } from '../ledger/service';
import { effectDelta, invoiceEffect } from '../ledger/postings';

type InvoiceState = typeof invoices.$inferSelect;

/** A deposit holding requisites of an account (and room under its limit). */
const holdsAccount = (inv: Pick<InvoiceState, 'flowType' | 'status' | 'accountId'>) =>
  holdsRequisites(inv) && inv.accountId !== null;

/** Why an account's requisites could not be given: no room under its limit, or the amount is held by another deposit. */
export type RequisitesRefusalReason = 'no room under its limit' | 'amount taken';

/** An account's requisites cannot be given for this amount (its limit, or unique amounts): routing tries the next. */
export class RequisitesRefusal extends AppError {
  constructor(
    message: string,
    readonly reason: RequisitesRefusalReason,
  ) {
    super('CONFLICT', message);
  }
}

/**
 * The money invariants (docs/engine.md), checked for EVERY change of an invoice's status, amount or account,
 * whoever makes it (customer, provider, sandbox, worker, operator, ticket approval, retry), inside
 * the change's transaction and before anything is written. A change that would break one is
 * refused with a message that names the rule:
 * - a status exists in the invoice's flow (PAYED is a deposit status);
 * - a deposit waits for money or is DONE only on a provider account, a withdrawal is paid only from one
 *   (no ledger leg without an account);
 * - a merchant's available balance (in the invoice's book) never goes below zero;
 * - two active deposits never share (account, amount) on a unique-amount account;
 * - requisites are never assigned beyond an account's limit;
 * - nothing is issued twice to a provider: an invoice with a pending provider transaction is not moved back.
 * Money that really arrives may take an account past its limit: that is flagged, never refused.
 */
export async function enforceInvariants(tx: Tx, before: InvoiceState, after: InvoiceState) {
  const flow = after.flowType as FlowType;
  if (!statusExistsInFlow(flow, after.status)) {
    throw new AppError('INVALID_STATE', `${after.status} is not a status of a ${flow.toLowerCase()}`, {
      statusId: `Choose a ${flow.toLowerCase()} status`,
    });
  }
  const limits = await lockAccounts(tx, before, after);
  await assertFunds(tx, before, after);
  // a deposit waits for money (IN_PROGRESS, PAYED) only on requisites the customer was given
  if (holdsRequisites(after) && after.accountId === null) {
    throw new AppError(
      'INVALID_STATE',
      `A deposit is ${after.status} only once requisites of a provider account were given: name that account`,
      { peopleAccountId: 'Choose the account whose requisites the customer pays to' },
    );
  }
  // no ledger leg without an account: money moves on a provider account or not at all
  if (after.accountId === null && invoiceEffect(after).some((l) => l.account === 'provider_account')) {
    throw flow === 'DEPOSIT'
      ? new AppError(
          'INVALID_STATE',
          'A deposit becomes DONE only against the provider account the money arrived on: name that account',
          { peopleAccountId: 'Choose the account the money arrived on' },
        )
      : new AppError(
          'INVALID_STATE',
          'A withdrawal becomes DONE only once its payout was sent from a provider account; this one never was',
        );
  }
  if (holdsAccount(after)) await assertRequisitesFree(tx, before, after, limits.get(after.accountId!));
  await assertProviderNotPending(tx, before, after);
  await assertPayoutAmountFixed(tx, before, after);
}

/** The provider transaction of the invoice still waiting for the provider's answer, if any. */
async function pendingAttempt(tx: Tx, invoiceId: string) {
  const [pending] = await tx
    .select({ attempt: providerTransactions.attempt })
    .from(providerTransactions)
    .where(and(eq(providerTransactions.invoiceId, invoiceId), eq(providerTransactions.status, 'PENDING')))
    .limit(1);
  return pending;
}

/**
 * A payout sent to a provider was sent for an amount: while it is with the provider the withdrawal's amount cannot
 * change under it (the books would then pay out what the provider was never asked to).
 */
async function assertPayoutAmountFixed(tx: Tx, before: InvoiceState, after: InvoiceState) {
  if (after.flowType !== 'WITHDRAWAL' || after.amount === before.amount) return;
  const pending = await pendingAttempt(tx, after.id);
  if (pending) {
    const money = await moneyFormatter(tx, after.currencyId);
    throw new AppError(
      'INVALID_STATE',
      `Refused: payout attempt ${pending.attempt} is with the provider for ${money(before.amount)}; the amount can change only after the provider answered`,
    );
  }
}

/**
 * Nothing is issued twice to a provider (the retry rule; contracts' pendingProviderForbids): while a provider
 * transaction of the invoice is pending, the invoice leaves the statuses that wait for the provider only by its
 * answer, or — staff correcting — to a final status: DONE for a withdrawal (it was paid), any final one for a
 * deposit (its confirmation, if the money comes, is kept as unmatched money for staff). Moving it back
 * (to NEW, or a withdrawal to DECLINED/CANCELED) would let the customer, a retry or an operator send a
 * second payout or confirmation beside the first.
 */
async function assertProviderNotPending(tx: Tx, before: InvoiceState, after: InvoiceState) {
  // the rule the back-office disables those statuses with (contracts: statusChangeRefusal)
  if (!pendingProviderForbids(before, after.status)) return;
  const pending = await pendingAttempt(tx, after.id);
  if (pending) {
    // worded by the invoice's flow, not by the row's type: a withdrawal's pending transaction is its payout
    throw new AppError(
      'INVALID_STATE',
      after.flowType === 'WITHDRAWAL'
        ? `Refused: payout attempt ${pending.attempt} is still with the provider; the withdrawal becomes ${after.status} only after the provider declined it (set DONE if it was paid)`
        : `Refused: the provider is still confirming this deposit; it becomes ${after.status} only after the provider answered (or set it final)`,
    );
  }
}

/** The limit row as SQL (db/row-sql.ts): every change of a deposit with requisites locks it. */
const limitRow = rowSql(accountLimits);

/**
 * Lock order, the same in every transaction so that none waits on another in a cycle: the invoice
 * row (the caller), then the limit rows of the accounts the change touches (ascending id), then the
 * merchant's funds lock, then the balance rows (ascending key, ledger/service.ts).
 */
async function lockAccounts(tx: Tx, before: InvoiceState, after: InvoiceState) {
  const ids = [...new Set([before.accountId, after.accountId].filter((id): id is number => id !== null))].sort(
    (a, b) => a - b,
  );
  if (!ids.length) return new Map<number, typeof accountLimits.$inferSelect>();
  const { rows } = await tx.execute<Record<string, unknown>>(
    sql`SELECT ${limitRow.columns} FROM account_limits WHERE account_id IN (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )}) ORDER BY account_id FOR UPDATE`,
  );
  return new Map(rows.map((raw) => limitRow.from(raw)).map((r) => [r.accountId, r]));
}

/** The merchant's balance in the invoice's book must cover whatever this change takes from it. */
async function assertFunds(tx: Tx, before: InvoiceState, after: InvoiceState) {
  const taken = effectDelta(invoiceEffect(before), invoiceEffect(after))
    .filter((l) => l.account === 'merchant')
    .reduce((sum, l) => sum + l.amount, 0);
  if (taken <= 0) return;
  await assertFundsCover(tx, {
    merchantId: after.merchantId,
    currencyId: after.currencyId,
    book: bookOf(after.isTest),
    taken,
  });
}

/**
 * The one funds rule: a merchant's available balance in a book never goes below zero,
 * whatever takes from it (a payout hold, an amount change, a retry, a settlement). Takes the
 * merchant's funds lock, so concurrent takers are serialized; returns the balance it saw.
 */
export async function assertFundsCover(
  tx: Tx,
  args: {
    merchantId: string;
    currencyId: number;
    book: Book;
    taken: number;
    /** the refusal a caller words its own way (e.g. naming its form field) */
    refusal?: (available: bigint, money: (minor: number | bigint) => string) => AppError;
  },
): Promise<bigint> {
  await lockMerchantFunds(tx, args.merchantId, args.currencyId);
  const available = await merchantAvailable(tx, args.merchantId, args.currencyId, args.book);
  if (available - BigInt(args.taken) < 0n) {
    const money = await moneyFormatter(tx, args.currencyId);
    throw (
      args.refusal?.(available, money) ??
      new AppError(
        'INSUFFICIENT_BALANCE',
        `Refused: the merchant's ${args.book} balance (${money(available)}) does not cover ${money(args.taken)}; it would go below zero`,
      )
    );
  }
  return available;
}

/**
 * Unique amounts and limits, under the account's limit row lock (taken by lockAccounts). The room deposits already
 * take is the limit row's `reserved` (kept with every invoice write: migration 0025), which counts this invoice too
 * when it held the account before the change.
 */
async function assertRequisitesFree(
  tx: Tx,
  before: InvoiceState,
  after: InvoiceState,
  limit: typeof accountLimits.$inferSelect | undefined,
) {
  const accountId = after.accountId!;
  if (limit?.checkUniqueAmount) {
    const [clash] = await tx
      .select({ id: invoices.id })
      .from(invoices)
      .where(
        and(
          eq(invoices.accountId, accountId),
          eq(invoices.flowType, 'DEPOSIT'),
          inArray(invoices.status, REQUISITE_STATUSES),
          ne(invoices.id, after.id),
          eq(invoices.amount, after.amount),
        ),
      )
      .limit(1);
    if (clash) {
      const money = await moneyFormatter(tx, after.currencyId);
      throw new RequisitesRefusal(
        `Refused: another active deposit on account ${accountId} has the amount ${money(after.amount)}; incoming money could no longer be matched to one invoice`,
        'amount taken',
      );
    }
  }
  // a reservation that was already held on this account for at least this amount takes no new room
  const alreadyHeld = holdsAccount(before) && before.accountId === accountId ? before.amount : 0;
  if (after.amount <= alreadyHeld) return;
  const res = await tx.execute<{ balance: string }>(
    sql`SELECT ${providerAccountBalanceSql(accountId, bookOf(after.isTest))}::text AS balance`,
  );
  // exact: a limit and a balance grow without bound
  const reservedByOthers = (limit?.reserved ?? 0n) - BigInt(alreadyHeld);
  const room = (limit?.limit ?? 0n) - BigInt(res.rows[0]!.balance) - reservedByOthers;
  if (BigInt(after.amount) > room) {
    const money = await moneyFormatter(tx, after.currencyId);
    throw new RequisitesRefusal(
      `Refused: account ${accountId} has room for ${money(room > 0n ? room : 0n)} under its limit; ${money(after.amount)} would take it over`,
      'no room under its limit',
    );
  }
}

/** Formats minor units of a currency in major units with its code, e.g. 118,000.00 UZS (for texts people read). */
export async function moneyFormatter(tx: Tx, currencyId: number) {
  const [c] = await tx
    .select({ code: currencies.code, dimension: currencies.dimension })
    .from(currencies)
    .where(eq(currencies.id, currencyId));
  return (minor: number | bigint) => formatMoney(minor, c?.dimension ?? 2, 'en', c?.code ?? '');
}
