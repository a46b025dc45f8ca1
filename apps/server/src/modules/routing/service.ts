import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/create-db';
import { holdsRequisitesSql } from '../engine/lifecycle';
import { bookOf, providerAccountBalanceSql } from '../ledger/service';

export type RoutedAccount = {
  accountId: number;
  value: string;
  credentialType: string;
  owner: string | null;
  bankName: string | null;
  countryCode: string;
};

type Candidate = {
  account_id: number;
  limit: string;
  priority: number;
  check_unique_amount: boolean;
  balance: string;
  reserved: string;
  amount_taken: boolean;
};

/** Pure rule: the first (highest priority, then lowest id) candidate with room that is not amount-blocked. */
export function pickAccount(
  candidates: {
    accountId: number;
    /** limit, balance and reservations are exact (bigint): they grow without bound */
    limit: bigint;
    priority: number;
    checkUniqueAmount: boolean;
    balance: bigint;
    reserved: bigint;
    amountTaken: boolean;
  }[],
  amount: number,
) {
  const sorted = [...candidates].sort((a, b) => b.priority - a.priority || a.accountId - b.accountId);
  return (
    sorted.find(
      (c) => c.limit - (c.balance + c.reserved) >= BigInt(amount) && !(c.checkUniqueAmount && c.amountTaken),
    ) ?? null
  );
}

/**
 * Chooses the provider account whose requisites a deposit customer gets. Runs inside the
 * transaction that assigns the account: the candidates' account_limits rows are locked
 * (FOR UPDATE, stable order) first, so the balance, reservations and amount uniqueness read
 * afterwards cannot change until this transaction commits. Test invoices route only to sandbox
 * providers, production ones only to real providers.
 */
export async function routeDeposit(
  tx: Tx,
  args: { invoiceId: string; paymentMethodId: number; currencyId: number; amount: number; isTest: boolean },
): Promise<RoutedAccount | null> {
  const locked = await tx.execute<{ account_id: number }>(sql`
    SELECT l.account_id FROM account_limits l
    JOIN provider_accounts a ON a.id = l.account_id
    JOIN providers p ON p.id = a.provider_id
    JOIN payment_methods m ON m.id = a.payment_method_id
    WHERE a.enabled AND a.payment_method_id = ${args.paymentMethodId} AND m.currency_id = ${args.currencyId}
      AND p.is_sandbox = ${args.isTest}
    ORDER BY l.account_id
    FOR UPDATE OF l`);
  if (!locked.rows.length) return null;
  const ids = locked.rows.map((r) => Number(r.account_id));
  const res = await tx.execute<Candidate>(sql`
    SELECT l.account_id, l."limit"::text AS "limit", l.priority, l.check_unique_amount,
      ${providerAccountBalanceSql(sql`l.account_id`, bookOf(args.isTest))}::text AS balance,
      COALESCE((SELECT SUM(i.amount) FROM invoices i
                WHERE i.account_id = l.account_id AND ${holdsRequisitesSql('i')} AND i.id <> ${args.invoiceId}), 0)::text AS reserved,
      EXISTS (SELECT 1 FROM invoices i
              WHERE i.account_id = l.account_id AND ${holdsRequisitesSql('i')} AND i.amount = ${args.amount}
                AND i.id <> ${args.invoiceId}) AS amount_taken
    FROM account_limits l
    WHERE l.account_id IN (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`);
  const chosen = pickAccount(
    res.rows.map((r) => ({
      accountId: Number(r.account_id),
      limit: BigInt(r.limit),
      priority: Number(r.priority),
      checkUniqueAmount: Boolean(r.check_unique_amount),
      balance: BigInt(r.balance),
      reserved: BigInt(r.reserved),
      amountTaken: Boolean(r.amount_taken),
    })),
    args.amount,
  );
  if (!chosen) return null;
  return accountRequisites(tx, chosen.accountId);
}

export async function accountRequisites(tx: Tx, accountId: number): Promise<RoutedAccount | null> {
  const res = await tx.execute<{
    value: string | null;
    credential_type: string | null;
    owner_name: string | null;
    bank_name: string | null;
    country_code: string;
  }>(sql`
    SELECT c.value, c.credential_type, a.owner_name, a.bank_name, m.country_code
    FROM provider_accounts a JOIN payment_methods m ON m.id = a.payment_method_id
    LEFT JOIN LATERAL (SELECT value, credential_type FROM account_credentials
                       WHERE account_id = a.id ORDER BY id LIMIT 1) c ON true
    WHERE a.id = ${accountId}`);
  const r = res.rows[0];
  if (!r) return null;
  return {
    accountId,
    value: r.value ?? '',
    credentialType: r.credential_type ?? 'CARD',
    owner: r.owner_name,
    bankName: r.bank_name,
    countryCode: r.country_code,
  };
}

/** The account a payout is sent from: highest priority enabled account of the method (sandbox for test invoices). */
export async function routePayout(tx: Tx, args: { paymentMethodId: number; isTest: boolean }): Promise<number | null> {
  const res = await tx.execute<{ id: number }>(sql`
    SELECT a.id FROM provider_accounts a JOIN providers p ON p.id = a.provider_id
    LEFT JOIN account_limits l ON l.account_id = a.id
    WHERE a.enabled AND a.payment_method_id = ${args.paymentMethodId} AND p.is_sandbox = ${args.isTest}
    ORDER BY COALESCE(l.priority, 0) DESC, a.id LIMIT 1`);
  return res.rows[0] ? Number(res.rows[0].id) : null;
}

/**
 * After money arrived: an account whose balance now exceeds its limit is flagged over limit (routing
 * already gives it no requisites); raising the limit clears the flag. Returns whether it is over.
 */
export async function flagOverLimit(tx: Tx, accountId: number, isTest: boolean, at: Date) {
  const res = await tx.execute<{ over: boolean }>(sql`
    UPDATE account_limits SET over_limit_since = CASE
        WHEN ${providerAccountBalanceSql(accountId, bookOf(isTest))} > "limit" THEN coalesce(over_limit_since, ${at.toISOString()}::timestamptz)
        ELSE NULL END
    WHERE account_id = ${accountId}
    RETURNING over_limit_since IS NOT NULL AS over`);
  return res.rows[0]?.over ?? false;
}
