import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import {
  REQUISITE_STATUSES,
  formatMoney,
  holdsRequisites,
  isFinal,
  statusExistsInFlow,
  type FlowType,
} from '@paydesk/contracts';
import type { Tx } from '../../db/create-db';
import { accountLimits, currencies, invoices, providerTransactions } from '../../db/schema';
import { holdsRequisitesSql } from './lifecycle';
import { AppError } from '../../lib/errors';
import { bookOf, lockMerchantFunds, merchantAvailable, providerAccountBalanceSql, type Book } from '../ledger/service';
import { effectDelta, invoiceEffect } from '../ledger/postings';

type InvoiceState = typeof invoices.$inferSelect;

/** A deposit holding requisites of an account (and room under its limit). */
const holdsAccount = (inv: Pick<InvoiceState, 'flowType' | 'status' | 'accountId'>) =>
  holdsRequisites(inv) && inv.accountId !== null;

/** An account's requisites cannot be given for this amount (its limit, or unique amounts): routing tries the next. */
export class RequisitesRefusal extends AppError {
  constructor(message: string) {
    super('CONFLICT', message);
  }
}

/**
 * The invariants of DESIGN §3, checked for EVERY change of an invoice's status, amount or account,
 * whoever makes it (customer, provider, sandbox, worker, operator, ticket approval, retry), inside
 * the change's transaction and before anything is written. A change that would break one is
 * refused with a message that names the rule:
 * - a status exists in the invoice's flow (PAYED is a deposit status);
 * - a deposit waits for money or is DONE only on a provider account, a withdrawal is paid only from one
 *   (no ledger leg without an account);
 * - a merchant's available balance (in the invoice's book) never goes below zero;
 * - two active deposits never share (account, amount) on a unique-amount account;
 * - requisites are never assigned beyond an account's limit;
 * - a withdrawal whose payout is with the provider is not declined or canceled beside it.
 * Money that really arrives may take an account past its limit: that is flagged, never refused.
 */
export async function enforceInvariants(tx: Tx, before: InvoiceState, after: InvoiceState) {
  const flow = after.flowType as FlowType;
  if (!statusExistsInFlow(flow, after.status)) {
    throw new AppError('INVALID_STATE', `${after.status} is not a status of a ${flow.toLowerCase()}`, {
      statusId: `Choose a ${flow.toLowerCase()} status`,
    });
  }
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
  if (holdsAccount(after)) await assertRequisitesFree(tx, before, after);
  if (after.status !== before.status) await assertPayoutNotPending(tx, after);
}

/**
 * Retry never doubles a payout (DESIGN §3): a withdrawal whose payout is still with the provider ends
 * only by the provider's answer (or DONE when staff know it was paid). Declining or canceling it here
 * would let a retry send a second payout beside the first.
 */
async function assertPayoutNotPending(tx: Tx, after: InvoiceState) {
  // ending it other than DONE (declined, canceled) is what a retry would send a second payout beside
  if (after.flowType !== 'WITHDRAWAL' || !isFinal(after.status) || after.status === 'DONE') return;
  const [pending] = await tx
    .select({ attempt: providerTransactions.attempt })
    .from(providerTransactions)
    .where(
      and(
        eq(providerTransactions.invoiceId, after.id),
        eq(providerTransactions.type, 'PAYOUT'),
        eq(providerTransactions.status, 'PENDING'),
      ),
    )
    .limit(1);
  if (pending) {
    throw new AppError(
      'INVALID_STATE',
      `Refused: payout attempt ${pending.attempt} is still with the provider; a withdrawal is ${after.status} only after the provider declined it (set DONE if it was paid)`,
    );
  }
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
 * The one funds rule (DESIGN §3): a merchant's available balance in a book never goes below zero,
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

/** Unique amounts and limits, under the account's limit row lock (the lock routing takes too). */
async function assertRequisitesFree(tx: Tx, before: InvoiceState, after: InvoiceState) {
  const accountId = after.accountId!;
  const [limit] = await tx.select().from(accountLimits).where(eq(accountLimits.accountId, accountId)).for('update');
  const money = await moneyFormatter(tx, after.currencyId);
  const others = and(
    eq(invoices.accountId, accountId),
    eq(invoices.flowType, 'DEPOSIT'),
    inArray(invoices.status, REQUISITE_STATUSES),
    ne(invoices.id, after.id),
  );
  if (limit?.checkUniqueAmount) {
    const [clash] = await tx
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(others, eq(invoices.amount, after.amount)))
      .limit(1);
    if (clash) {
      throw new RequisitesRefusal(
        `Refused: another active deposit on account ${accountId} has the amount ${money(after.amount)}; incoming money could no longer be matched to one invoice`,
      );
    }
  }
  // a reservation that was already held on this account for at least this amount takes no new room
  const alreadyHeld = holdsAccount(before) && before.accountId === accountId ? before.amount : 0;
  if (after.amount <= alreadyHeld) return;
  const res = await tx.execute<{ balance: string; reserved: string }>(sql`
    SELECT ${providerAccountBalanceSql(accountId, bookOf(after.isTest))}::text AS balance,
      COALESCE((SELECT SUM(i.amount) FROM invoices i WHERE i.account_id = ${accountId} AND ${holdsRequisitesSql('i')}
                AND i.id <> ${after.id}), 0)::text AS reserved`);
  // exact: a limit and a balance grow without bound
  const room = (limit?.limit ?? 0n) - BigInt(res.rows[0]!.balance) - BigInt(res.rows[0]!.reserved);
  if (BigInt(after.amount) > room) {
    throw new RequisitesRefusal(
      `Refused: account ${accountId} has room for ${money(room > 0n ? room : 0n)} under its limit; ${money(after.amount)} would take it over`,
    );
  }
}

async function moneyFormatter(tx: Tx, currencyId: number) {
  const [c] = await tx
    .select({ code: currencies.code, dimension: currencies.dimension })
    .from(currencies)
    .where(eq(currencies.id, currencyId));
  return (minor: number | bigint) => formatMoney(minor, c?.dimension ?? 2, 'en', c?.code ?? '');
}
