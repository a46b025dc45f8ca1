import { sql } from 'drizzle-orm';
import type { RoutingStep } from '@paydesk/contracts';
import type { Tx } from '../../db/create-db';
import type { DataVault } from '../../lib/data-vault';
import { bookOf, providerAccountBalanceSql } from '../ledger/service';

// the accounts' health figures, for the desk's paused-accounts file (exceptions/queues.ts)
export { accountHealthSql } from './account-health';

export type RoutedAccount = {
  accountId: number;
  value: string;
  credentialType: string;
  owner: string | null;
  bankName: string | null;
  countryCode: string;
};

/** Why routing passed over an account for a deposit, as the invoice's routing record says it. */
type RoutingSkipReason = Exclude<RoutingStep['outcome'], 'given'>;
export type { RoutingStep };

/**
 * The accounts that may give a deposit's requisites, best first (priority, then lowest id): enabled,
 * of the payment method and currency, sandbox for test invoices and real providers for live ones,
 * not flagged over limit, not paused (account-health.ts). No figures and no locks here: which of them has room
 * (limit, reservations, unique amount) is decided by the engine's guard, the one rule for every path
 * (engine/guards.ts), under the one account's limit-row lock, when the requisites are assigned; an account whose
 * lock another customer holds is passed over first (lockFirstFreeAccount). `skipped`: the
 * method's other accounts and why they were not offered, for the invoice's routing record.
 */
export async function depositCandidates(
  tx: Tx,
  args: { paymentMethodId: number; currencyId: number; isTest: boolean },
): Promise<{ eligible: number[]; skipped: RoutingStep[] }> {
  const res = await tx.execute<{ id: number; skip: RoutingSkipReason | null }>(sql`
    SELECT a.id, CASE WHEN NOT a.enabled THEN 'disabled' WHEN l.paused_at IS NOT NULL THEN 'paused'
                      WHEN l.over_limit_since IS NOT NULL THEN 'over limit' END AS skip
    FROM provider_accounts a
    JOIN providers p ON p.id = a.provider_id
    JOIN payment_methods m ON m.id = a.payment_method_id
    JOIN account_limits l ON l.account_id = a.id
    WHERE a.payment_method_id = ${args.paymentMethodId} AND m.currency_id = ${args.currencyId}
      AND p.is_sandbox = ${args.isTest}
    ORDER BY l.priority DESC, a.id`);
  return {
    eligible: res.rows.filter((r) => r.skip === null).map((r) => Number(r.id)),
    skipped: res.rows.filter((r) => r.skip !== null).map((r) => ({ accountId: Number(r.id), outcome: r.skip! })),
  };
}

/**
 * Locks the limit row of the first of `accountIds` (in the order given: depositCandidates' best first) that no other
 * transaction holds (FOR UPDATE SKIP LOCKED), and returns its id; null when every one is held: other customers are
 * being given their requisites right now. Routing so offers the next account instead of queueing behind a busy one.
 * The engine's guard then takes the same lock (already held) and decides whether the deposit fits.
 */
export async function lockFirstFreeAccount(tx: Tx, accountIds: number[]): Promise<number | null> {
  const ids = `{${accountIds.join(',')}}`;
  const res = await tx.execute<{ account_id: number }>(sql`
    SELECT account_id FROM account_limits WHERE account_id = ANY(${ids}::int[])
    ORDER BY array_position(${ids}::int[], account_id) FOR UPDATE SKIP LOCKED LIMIT 1`);
  return res.rows[0] ? Number(res.rows[0].account_id) : null;
}

/** An account's first requisite, decrypted: what a deposit's customer is shown to pay to. */
export async function accountRequisites(vault: DataVault, tx: Tx, accountId: number): Promise<RoutedAccount | null> {
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
    value: r.value === null ? '' : await vault.open(tx, 'account.credential', r.value),
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
