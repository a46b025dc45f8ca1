import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/create-db';
import { ledgerEntries, type invoices } from '../../db/schema';
import { effectDelta, invoiceEffect, settlementLegs, type Leg } from './postings';

type InvoiceRow = typeof invoices.$inferSelect;

async function insertLegs(
  tx: Tx,
  legs: Leg[],
  common: {
    merchantId: string;
    terminalId: string;
    currencyId: number;
    providerAccountId?: number | null;
    invoiceId?: string | null;
    settlementId?: number | null;
    kind: string;
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
      currencyId: common.currencyId,
      amount: l.amount,
      kind: common.kind,
      createdAt: common.at,
    })),
  );
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
    at,
  });
}

/** A settlement debits the merchant's balance by baseAmount (minor units of the terminal's currency). */
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
    at: s.at,
  });
}

export type SumKind = 'balance' | 'deposit' | 'withdrawal';

/**
 * Sums read from the ledger for a merchant (optionally one terminal), one row per currency of the
 * merchant's terminals (the terminal's currency first when one is named).
 * balance = −Σ merchant legs; deposit = credited by DONE deposits; withdrawal = paid out by DONE withdrawals.
 */
export async function merchantSums(db: DbOrTx, merchantId: string, kind: SumKind, terminalId?: string) {
  const terminalFilter = terminalId ? sql`AND e.terminal_id = ${terminalId}` : sql``;
  const tFilter = terminalId ? sql`AND t.id = ${terminalId}` : sql``;
  const sumExpr =
    kind === 'balance'
      ? sql`(SELECT COALESCE(-SUM(e.amount), 0) FROM ledger_entries e
             WHERE e.merchant_id = ${merchantId} AND e.account = 'merchant' AND e.currency_id = c.id ${terminalFilter})`
      : sql`(SELECT COALESCE(${kind === 'deposit' ? sql`-SUM(e.amount)` : sql`SUM(e.amount)`}, 0)
             FROM ledger_entries e JOIN invoices i ON i.id = e.invoice_id
             WHERE e.merchant_id = ${merchantId} AND e.account = 'merchant' AND e.currency_id = c.id
               AND i.flow_type = ${kind === 'deposit' ? 'DEPOSIT' : 'WITHDRAWAL'} AND i.status = 'DONE' ${terminalFilter})`;
  const res = await db.execute<{ currency: string; sum: string | number }>(sql`
    SELECT c.code AS currency, ${sumExpr} AS sum
    FROM currencies c
    WHERE c.id IN (SELECT t.currency_id FROM terminals t WHERE t.merchant_id = ${merchantId} ${tFilter})
    ORDER BY (SELECT MIN(t.created_at) FROM terminals t WHERE t.merchant_id = ${merchantId} AND t.currency_id = c.id ${tFilter}), c.code`);
  return res.rows.map((r) => ({ currency: r.currency, sum: Number(r.sum) }));
}

/** Σ of every currency's ledger entries: all zero when the books balance. */
export async function ledgerTotals(db: DbOrTx) {
  const res = await db.execute<{ currency_id: number; total: string | number }>(
    sql`SELECT currency_id, SUM(amount) AS total FROM ledger_entries GROUP BY currency_id`,
  );
  return res.rows.map((r) => ({ currencyId: Number(r.currency_id), total: Number(r.total) }));
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

/** The merchant's available balance in a currency: −Σ of its merchant-account entries (minor units). */
export async function merchantAvailable(db: DbOrTx, merchantId: string, currencyId: number): Promise<number> {
  const res = await db.execute<{ balance: string | number }>(sql`
    SELECT COALESCE(-SUM(amount), 0) AS balance FROM ledger_entries
    WHERE merchant_id = ${merchantId} AND account = 'merchant' AND currency_id = ${currencyId}`);
  return Number(res.rows[0]?.balance ?? 0);
}

/**
 * A provider account's balance: the sum of its provider_account entries (money that arrived on it, less payouts).
 * Its limit is measured against this. `accountId` is a value or a column of the surrounding query.
 */
export const providerAccountBalanceSql = (accountId: number | SQL) =>
  sql`COALESCE((SELECT SUM(e.amount) FROM ledger_entries e
    WHERE e.provider_account_id = ${accountId} AND e.account = 'provider_account'), 0)`;
