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
export async function depositCandidates(tx: Tx, args: CandidateArgs): Promise<DepositCandidates> {
  const res = await tx.execute<{ candidates: CandidateRow[] | null }>(
    sql`SELECT ${depositCandidatesJson(args)} AS candidates`,
  );
  return candidatesOf(res.rows[0]?.candidates ?? null);
}

type CandidateArgs = { paymentMethodId: number; currencyId: number; isTest: boolean };
export type DepositCandidates = { eligible: number[]; skipped: RoutingStep[] };
type CandidateRow = { id: number; skip: RoutingSkipReason | null };

/**
 * depositCandidates' query as one value, a JSON array of `{id, skip}` best first: for a statement that reads the
 * candidates beside something else (the payment form reads them with the terminal's methods, one round trip);
 * `candidatesOf` reads it back.
 */
export function depositCandidatesJson(args: CandidateArgs) {
  return sql`(
    SELECT json_agg(json_build_object('id', a.id, 'skip',
             CASE WHEN NOT a.enabled THEN 'disabled' WHEN l.paused_at IS NOT NULL THEN 'paused'
                  WHEN l.over_limit_since IS NOT NULL THEN 'over limit' END) ORDER BY l.priority DESC, a.id)
    FROM provider_accounts a
    JOIN providers p ON p.id = a.provider_id
    JOIN payment_methods m ON m.id = a.payment_method_id
    JOIN account_limits l ON l.account_id = a.id
    WHERE a.payment_method_id = ${args.paymentMethodId} AND m.currency_id = ${args.currencyId}
      AND p.is_sandbox = ${args.isTest})`;
}

export function candidatesOf(rows: CandidateRow[] | null): DepositCandidates {
  const all = rows ?? [];
  return {
    eligible: all.filter((r) => r.skip === null).map((r) => Number(r.id)),
    skipped: all.filter((r) => r.skip !== null).map((r) => ({ accountId: Number(r.id), outcome: r.skip! })),
  };
}

/**
 * Locks the limit row of the first of `accountIds` (in the order given: depositCandidates' best first) that no other
 * transaction holds (FOR UPDATE SKIP LOCKED), and returns that account's requisites, read in the same statement; null
 * when every one is held: other customers are being given their requisites right now. Routing so offers the next
 * account instead of queueing behind a busy one. The engine's guard then takes the same lock (already held) and
 * decides whether the deposit fits.
 */
export async function lockFirstFreeAccount(
  vault: DataVault,
  tx: Tx,
  accountIds: number[],
): Promise<RoutedAccount | null> {
  const ids = `{${accountIds.join(',')}}`;
  const res = await tx.execute<RequisiteRow & { account_id: number }>(sql`
    SELECT l.account_id, ${requisiteColumns}
    FROM account_limits l JOIN provider_accounts a ON a.id = l.account_id ${requisiteJoins}
    WHERE l.account_id = ANY(${ids}::int[])
    ORDER BY array_position(${ids}::int[], l.account_id) LIMIT 1 FOR UPDATE OF l SKIP LOCKED`);
  const r = res.rows[0];
  return r ? routedAccount(vault, tx, Number(r.account_id), r) : null;
}

type RequisiteRow = {
  value: string | null;
  credential_type: string | null;
  owner_name: string | null;
  bank_name: string | null;
  country_code: string;
};
// an account's first requisite and what the customer is shown beside it, on `provider_accounts a`
const requisiteColumns = sql.raw('c.value, c.credential_type, a.owner_name, a.bank_name, m.country_code');
const requisiteJoins = sql.raw(`JOIN payment_methods m ON m.id = a.payment_method_id
    LEFT JOIN LATERAL (SELECT value, credential_type FROM account_credentials
                       WHERE account_id = a.id ORDER BY id LIMIT 1) c ON true`);

/** An account's first requisite, decrypted: what a deposit's customer is shown to pay to. */
export async function accountRequisites(vault: DataVault, tx: Tx, accountId: number): Promise<RoutedAccount | null> {
  const res = await tx.execute<RequisiteRow>(sql`
    SELECT ${requisiteColumns} FROM provider_accounts a ${requisiteJoins} WHERE a.id = ${accountId}`);
  const r = res.rows[0];
  return r ? routedAccount(vault, tx, accountId, r) : null;
}

async function routedAccount(vault: DataVault, tx: Tx, accountId: number, r: RequisiteRow): Promise<RoutedAccount> {
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
