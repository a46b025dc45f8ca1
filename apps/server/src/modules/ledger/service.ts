import { randomUUID } from 'node:crypto';
import { eq, sql, type SQL } from 'drizzle-orm';
import { toExactInt } from '@paydesk/contracts';
import { ownedTerminal } from '../../lib/tenant';
import type { DbOrTx, Tx } from '../../db/create-db';
import { ledgerBalances, ledgerEntries, type incomingPayments, type invoices } from '../../db/schema';
import {
  effectDelta,
  invoiceEffect,
  returnLegs,
  settlementLegs,
  unmatchedArrivalLegs,
  type LedgerAccount,
  type Leg,
} from './postings';

type InvoiceRow = typeof invoices.$inferSelect;

/** Live money, or the test book that test terminals post to (test money never counts as live). */
export type Book = 'live' | 'test';
export const bookOf = (isTest: boolean): Book => (isTest ? 'test' : 'live');

/**
 * The balance row a leg belongs to: provider accounts by account id (they serve every merchant), suspense once for the
 * platform (money nobody is known to own yet), every other ledger account by merchant. reconcile.ts builds the same
 * key in SQL.
 */
function balanceKey(
  book: Book,
  account: LedgerAccount,
  owner: { merchantId: string | null; providerAccountId: number | null },
  currencyId: number,
) {
  const id =
    account === 'provider_account' ? owner.providerAccountId : account === 'suspense' ? 'platform' : owner.merchantId;
  return `${book}:${account}:${id ?? 'none'}:${currencyId}`;
}

/** Who a leg's balance row belongs to (see balanceKey). */
function ownerOf(account: LedgerAccount, merchantId: string | null, providerAccountId: number | null) {
  if (account === 'provider_account') return { merchantId: null, providerAccountId };
  if (account === 'suspense') return { merchantId: null, providerAccountId: null };
  return { merchantId, providerAccountId: null };
}

async function insertLegs(
  tx: Tx,
  legs: Leg[],
  common: {
    merchantId: string | null;
    terminalId: string | null;
    currencyId: number;
    providerAccountId?: number | null;
    invoiceId?: string | null;
    settlementId?: number | null;
    incomingId?: string | null;
    kind: string;
    book: Book;
    at: Date;
  },
) {
  if (!legs.length) return null;
  const txId = randomUUID();
  await tx.insert(ledgerEntries).values(
    legs.map((l) => ({
      txId,
      account: l.account,
      merchantId: common.merchantId,
      terminalId: common.terminalId,
      providerAccountId: common.providerAccountId ?? null,
      invoiceId: common.invoiceId ?? null,
      settlementId: common.settlementId ?? null,
      incomingId: common.incomingId ?? null,
      currencyId: common.currencyId,
      amount: l.amount,
      kind: common.kind,
      book: common.book,
      createdAt: common.at,
    })),
  );
  // the balance rows move in the same transaction; sorted by key so that concurrent postings lock them in one order
  const rows = legs
    .map((l) => {
      const owner = ownerOf(l.account, common.merchantId, common.providerAccountId ?? null);
      return {
        key: balanceKey(common.book, l.account, owner, common.currencyId),
        book: common.book,
        account: l.account,
        ...owner,
        currencyId: common.currencyId,
        balance: BigInt(l.amount),
        updatedAt: common.at,
      };
    })
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  await tx
    .insert(ledgerBalances)
    .values(rows)
    .onConflictDoUpdate({
      target: ledgerBalances.key,
      set: { balance: sql`${ledgerBalances.balance} + excluded.balance`, updatedAt: sql`excluded.updated_at` },
    });
  return txId;
}

/**
 * Posts the difference between an invoice's ledger effect before and after a change, so that
 * applying and reversing (operator corrections) are the same operation. Returns the posting id or null.
 */
export function postInvoiceDelta(tx: Tx, before: InvoiceRow, after: InvoiceRow, kind: string, at: Date) {
  const legs = effectDelta(invoiceEffect(before), invoiceEffect(after));
  return insertLegs(tx, legs, {
    merchantId: after.merchantId,
    terminalId: after.terminalId,
    currencyId: after.currencyId,
    providerAccountId: after.accountId ?? before.accountId,
    invoiceId: after.id,
    kind,
    book: bookOf(after.isTest),
    at,
  });
}

/** The incoming payment whose money a posting moves (unmatchedArrivalLegs, returnLegs): its row, as stored. */
type IncomingMoney = Pick<typeof incomingPayments.$inferSelect, 'id' | 'accountId' | 'currencyId' | 'amount' | 'book'>;

/** Money that matched no invoice: on the provider account and in suspense from the moment it arrives. */
export function postUnmatchedArrival(tx: Tx, item: IncomingMoney, at: Date) {
  return postIncoming(tx, unmatchedArrivalLegs(item.amount), 'incoming_unmatched', item, at);
}

/** Unmatched money returned to the payer: out of suspense and off the provider account. */
export function postIncomingReturn(tx: Tx, item: IncomingMoney, at: Date) {
  return postIncoming(tx, returnLegs(item.amount), 'incoming_returned', item, at);
}

function postIncoming(tx: Tx, legs: Leg[], kind: string, item: IncomingMoney, at: Date) {
  return insertLegs(tx, legs, {
    merchantId: null,
    terminalId: null,
    currencyId: item.currencyId,
    providerAccountId: item.accountId,
    incomingId: item.id,
    kind,
    book: item.book as Book,
    at,
  });
}

/** Suspense per book and currency: what arrived and is not resolved yet (positive: the platform holds it). */
export async function suspenseBalances(db: DbOrTx) {
  const res = await db.execute<{ book: Book; currency: string; amount: string }>(sql`
    SELECT b.book, c.code AS currency, (-b.balance)::text AS amount
    FROM ledger_balances b JOIN currencies c ON c.id = b.currency_id
    WHERE b.account = 'suspense' ORDER BY c.code, b.book`);
  return res.rows.map((r) => ({ book: r.book, currency: r.currency, amount: toExactInt(r.amount) }));
}

/** A settlement debits the merchant's live balance by baseAmount (minor units of the terminal's currency). */
export function postSettlement(
  tx: Tx,
  s: { settlementId: number; merchantId: string; terminalId: string; currencyId: number; baseAmount: number; at: Date },
) {
  return insertLegs(tx, settlementLegs(s.baseAmount), {
    merchantId: s.merchantId,
    terminalId: s.terminalId,
    currencyId: s.currencyId,
    settlementId: s.settlementId,
    kind: 'settlement',
    book: 'live',
    at: s.at,
  });
}

export type SumKind = 'balance' | 'deposit' | 'withdrawal';

/**
 * Sums for a merchant (optionally one terminal) in one book, one row per currency of the merchant's
 * terminals (the terminal's currency first when one is named). balance = −(merchant balance row),
 * or −Σ merchant legs of that terminal; deposit = credited by DONE deposits; withdrawal = paid out by
 * DONE withdrawals.
 *
 * Read from the ledger's balance rows and day totals (migration 0014), never from its entries: a few rows whatever
 * the merchant's history (0.9 s per figure for a merchant of 1,000,000 invoices when the entries were summed). They
 * hold exactly because an invoice's legs always sum to its current effect (postings.ts invoiceEffect): a deposit's
 * merchant legs are its credit when DONE and nothing otherwise; a withdrawal's are its amount and fee while held or
 * paid out, and the held part is the merchant_hold legs' (`holds`); the reconciliation checks every day total
 * against the entries.
 */
/**
 * Where the ledger's open months begin (a timestamptz): the end of the last closed month (closed-months.ts), or
 * -infinity while none is closed. Before it, the closed months' kept sums stand for the entries.
 */
export const LEDGER_OPEN_FROM_SQL = sql`(SELECT coalesce(max(to_at), '-infinity') FROM history_partitions
  WHERE parent = 'ledger_entries' AND closed_at IS NOT NULL)`;

export async function merchantSums(db: DbOrTx, merchantId: string, kind: SumKind, book: Book, terminalId?: string) {
  if (terminalId) await ownedTerminal(db, merchantId, terminalId);
  const tFilter = terminalId ? sql`AND t.id = ${terminalId}` : sql``;
  // closed ledger months a row each (closed-months.ts), then the days of the open ones: what is read grows with the
  // months of the history, not its days
  const of = sql`d.merchant_id = ${merchantId} AND d.book = ${book} AND d.currency_id = c.id
      ${terminalId ? sql`AND d.terminal_id = ${terminalId}` : sql``}`;
  const days = (figure: SQL) => sql`(SELECT COALESCE(SUM(x), 0) FROM (
      SELECT ${figure} AS x FROM ledger_month_totals d WHERE ${of}
      UNION ALL
      SELECT ${figure} FROM ledger_day_totals d WHERE ${of} AND d.day >= (${LEDGER_OPEN_FROM_SQL} AT TIME ZONE 'UTC')::date
    ) t)`;
  const sumExpr =
    kind === 'balance' && !terminalId
      ? sql`(SELECT COALESCE(-SUM(b.balance), 0) FROM ledger_balances b
             WHERE b.merchant_id = ${merchantId} AND b.account = 'merchant' AND b.book = ${book} AND b.currency_id = c.id)`
      : kind === 'balance'
        ? days(sql`d.net`)
        : kind === 'deposit'
          ? days(sql`d.deposits`)
          : days(sql`d.withdrawals - d.holds`);
  const res = await db.execute<{ currency: string; sum: string }>(sql`
    SELECT c.code AS currency, (${sumExpr})::text AS sum
    FROM currencies c
    WHERE c.id IN (SELECT t.currency_id FROM terminals t WHERE t.merchant_id = ${merchantId} ${tFilter})
    ORDER BY (SELECT MIN(t.created_at) FROM terminals t WHERE t.merchant_id = ${merchantId} AND t.currency_id = c.id ${tFilter}), c.code`);
  return res.rows.map((r) => ({ currency: r.currency, sum: toExactInt(r.sum) }));
}

/** Σ of every book's and currency's ledger entries: all zero when the books balance. */
export async function ledgerTotals(db: DbOrTx) {
  const res = await db.execute<{ book: Book; currency_id: number; total: string }>(
    sql`SELECT book, currency_id, SUM(amount)::text AS total FROM ledger_entries GROUP BY book, currency_id`,
  );
  return res.rows.map((r) => ({ book: r.book, currencyId: Number(r.currency_id), total: toExactInt(r.total) }));
}

/** Namespace of the per merchant+currency advisory lock (second key: hashtext of merchant:currency). */
const FUNDS_LOCK_NS = 7_240_501;

/**
 * Serialises everything that takes money out of a merchant's balance in one currency (settlements,
 * payout holds) for the rest of the transaction, so two of them never both pass the balance check.
 */
export async function lockMerchantFunds(tx: Tx, merchantId: string, currencyId: number) {
  await tx.execute(
    sql`SELECT pg_advisory_xact_lock(${FUNDS_LOCK_NS}::int, hashtext(${`${merchantId}:${currencyId}`}))`,
  );
}

/** The merchant's available balance in a book and currency: one balance row, whatever the history (minor units). */
export async function merchantAvailable(
  db: DbOrTx,
  merchantId: string,
  currencyId: number,
  book: Book,
): Promise<bigint> {
  const [row] = await db
    .select({ balance: ledgerBalances.balance })
    .from(ledgerBalances)
    .where(eq(ledgerBalances.key, balanceKey(book, 'merchant', { merchantId, providerAccountId: null }, currencyId)));
  return -(row?.balance ?? 0n);
}

/**
 * A provider account's balance in a book: money that arrived on it, less payouts, from its balance
 * rows. Its limit is measured against the live book (sandbox accounts: the test book).
 * `accountId` is a value or a column of the surrounding query.
 */
export const providerAccountBalanceSql = (accountId: number | SQL, book: Book | SQL) =>
  sql`COALESCE((SELECT SUM(b.balance) FROM ledger_balances b
    WHERE b.provider_account_id = ${accountId} AND b.account = 'provider_account' AND b.book = ${book}), 0)`;
