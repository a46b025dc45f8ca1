import { and, eq, ne, sql } from 'drizzle-orm';
import { formatMoney, statusExistsInFlow, type FlowType } from '@paydesk/contracts';
import type { Tx } from '../../db/create-db';
import { accountLimits, currencies, invoices } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { bookOf, lockMerchantFunds, merchantAvailable, providerAccountBalanceSql } from '../ledger/service';
import { effectDelta, invoiceEffect } from '../ledger/postings';

type InvoiceState = typeof invoices.$inferSelect;

/** Deposit statuses that hold an account's requisites (and reserve room under its limit). */
const HOLDS_REQUISITES = ['IN_PROGRESS', 'PAYED'];
const holdsRequisites = (inv: Pick<InvoiceState, 'flowType' | 'status' | 'accountId'>) =>
  inv.flowType === 'DEPOSIT' && inv.accountId !== null && HOLDS_REQUISITES.includes(inv.status);

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
 * - requisites are never assigned beyond an account's limit.
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
  if (flow === 'DEPOSIT' && HOLDS_REQUISITES.includes(after.status) && after.accountId === null) {
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
  if (holdsRequisites(after)) await assertRequisitesFree(tx, before, after);
}

/** The merchant's balance in the invoice's book must cover whatever this change takes from it. */
async function assertFunds(tx: Tx, before: InvoiceState, after: InvoiceState) {
  const taken = effectDelta(invoiceEffect(before), invoiceEffect(after))
    .filter((l) => l.account === 'merchant')
    .reduce((sum, l) => sum + l.amount, 0);
  if (taken <= 0) return;
  await lockMerchantFunds(tx, after.merchantId, after.currencyId);
  const available = await merchantAvailable(tx, after.merchantId, after.currencyId, bookOf(after.isTest));
  if (available - taken < 0) {
    const money = await moneyFormatter(tx, after.currencyId);
    throw new AppError(
      'INSUFFICIENT_BALANCE',
      `Refused: the merchant's ${after.isTest ? 'test' : 'live'} balance (${money(available)}) does not cover ${money(taken)}; it would go below zero`,
    );
  }
}

/** Unique amounts and limits, under the account's limit row lock (the lock routing takes too). */
async function assertRequisitesFree(tx: Tx, before: InvoiceState, after: InvoiceState) {
  const accountId = after.accountId!;
  const [limit] = await tx.select().from(accountLimits).where(eq(accountLimits.accountId, accountId)).for('update');
  const money = await moneyFormatter(tx, after.currencyId);
  const others = and(
    eq(invoices.accountId, accountId),
    eq(invoices.flowType, 'DEPOSIT'),
    sql`${invoices.status} IN ('IN_PROGRESS', 'PAYED')`,
    ne(invoices.id, after.id),
  );
  if (limit?.checkUniqueAmount) {
    const [clash] = await tx
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(others, eq(invoices.amount, after.amount)))
      .limit(1);
    if (clash) {
      throw new AppError(
        'CONFLICT',
        `Refused: another active deposit on account ${accountId} has the amount ${money(after.amount)}; incoming money could no longer be matched to one invoice`,
      );
    }
  }
  // a reservation that was already held on this account for at least this amount takes no new room
  const alreadyHeld = holdsRequisites(before) && before.accountId === accountId ? before.amount : 0;
  if (after.amount <= alreadyHeld) return;
  const res = await tx.execute<{ balance: string; reserved: string }>(sql`
    SELECT ${providerAccountBalanceSql(accountId, bookOf(after.isTest))} AS balance,
      COALESCE((SELECT SUM(amount) FROM invoices WHERE account_id = ${accountId} AND flow_type = 'DEPOSIT'
                AND status IN ('IN_PROGRESS', 'PAYED') AND id <> ${after.id}), 0) AS reserved`);
  const balance = Number(res.rows[0]!.balance);
  const reserved = Number(res.rows[0]!.reserved);
  const room = (limit?.limit ?? 0) - balance - reserved;
  if (after.amount > room) {
    throw new AppError(
      'CONFLICT',
      `Refused: account ${accountId} has room for ${money(Math.max(room, 0))} under its limit; ${money(after.amount)} would take it over`,
    );
  }
}

async function moneyFormatter(tx: Tx, currencyId: number) {
  const [c] = await tx
    .select({ code: currencies.code, dimension: currencies.dimension })
    .from(currencies)
    .where(eq(currencies.id, currencyId));
  return (minor: number) => formatMoney(minor, c?.dimension ?? 2, 'en', c?.code ?? '');
}
