import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/create-db';
import { reconcileLedger } from '../ledger/reconcile';

/**
 * The money invariants (docs/architecture.md, "The engine") read from the database, shared by the model test and the
 * scale-out test: throws with the offending rows (and the log of actions that led there) on the
 * first one broken.
 */
export async function checkMoneyInvariants(db: DbOrTx, log: readonly string[] = []) {
  const q = async <T extends Record<string, unknown>>(s: ReturnType<typeof sql>) => (await db.execute<T>(s)).rows;
  const fail = (msg: string, rows: unknown) => {
    throw new Error(`${msg}: ${JSON.stringify(rows)}\nafter:\n${log.join('\n')}`);
  };
  const r = await reconcileLedger(db);
  if (r.unbalanced.length) fail('a book does not sum to zero', r.unbalanced);
  if (r.drift.length) fail('a balance row differs from its entries', r.drift);
  const negative = await q(sql`SELECT key, balance FROM ledger_balances
    WHERE account = 'merchant' AND book = 'live' AND balance > 0`);
  if (negative.length) fail('a live available balance is below zero', negative);
  const duplicates = await q(sql`SELECT i.account_id, i.amount, count(*) FROM invoices i
    JOIN account_limits l ON l.account_id = i.account_id AND l.check_unique_amount
    WHERE i.flow_type = 'DEPOSIT' AND i.status IN ('IN_PROGRESS', 'PAYED')
    GROUP BY i.account_id, i.amount HAVING count(*) > 1`);
  if (duplicates.length) fail('two active deposits share (account, amount) on a unique-amount account', duplicates);
  const overAssigned = await q(sql`SELECT l.account_id FROM account_limits l
    JOIN provider_accounts a ON a.id = l.account_id JOIN providers p ON p.id = a.provider_id
    WHERE l.over_limit_since IS NULL AND
      coalesce((SELECT sum(b.balance) FROM ledger_balances b WHERE b.provider_account_id = l.account_id
                AND b.account = 'provider_account' AND b.book = CASE WHEN p.is_sandbox THEN 'test' ELSE 'live' END), 0)
      + coalesce((SELECT sum(i.amount) FROM invoices i WHERE i.account_id = l.account_id AND i.flow_type = 'DEPOSIT'
                  AND i.status IN ('IN_PROGRESS', 'PAYED')), 0) > l."limit"
      AND EXISTS (SELECT 1 FROM invoices i WHERE i.account_id = l.account_id AND i.flow_type = 'DEPOSIT'
                  AND i.status IN ('IN_PROGRESS', 'PAYED'))`);
  if (overAssigned.length) fail('requisites were assigned beyond a limit', overAssigned);
  const orphanLegs =
    await q(sql`SELECT id FROM ledger_entries WHERE account = 'provider_account' AND provider_account_id IS NULL
    AND created_at > now() - interval '1 day' LIMIT 5`);
  if (orphanLegs.length) fail('a provider leg posted to no account', orphanLegs);
  // nothing issued twice to a provider: one pending transaction per invoice at most, attempts unique,
  // at most one paid payout
  const twicePending = await q(sql`SELECT invoice_id, count(*) FROM provider_transactions WHERE status = 'PENDING'
    GROUP BY invoice_id HAVING count(*) > 1`);
  if (twicePending.length) fail('two provider transactions pending at once for one invoice', twicePending);
  const sameAttempt = await q(sql`SELECT invoice_id, type, attempt, count(*) FROM provider_transactions
    GROUP BY invoice_id, type, attempt HAVING count(*) > 1`);
  if (sameAttempt.length) fail('one attempt issued twice', sameAttempt);
  const paidTwice = await q(sql`SELECT invoice_id, count(*) FROM provider_transactions
    WHERE type = 'PAYOUT' AND status = 'DONE' GROUP BY invoice_id HAVING count(*) > 1`);
  if (paidTwice.length) fail('a withdrawal paid out twice', paidTwice);
  // the provider's answers are its own: a transaction is open or answered DONE / DECLINED, never closed by the engine
  const notTheProvidersWord = await q(sql`SELECT id, status FROM provider_transactions
    WHERE status NOT IN ('PENDING', 'DONE', 'DECLINED') LIMIT 5`);
  if (notTheProvidersWord.length)
    fail('a provider transaction has a status the provider never gave', notTheProvidersWord);
  // money paid from suspense: each such deposit is DONE and took exactly one matched item of its amount, and every
  // matched item held in suspense paid such a deposit
  const suspensePaid = await q(sql`
    SELECT i.id, i.status, i.amount::text, count(ip.id) AS items, coalesce(sum(ip.amount), 0)::text AS paid
    FROM invoices i LEFT JOIN incoming_payments ip ON ip.matched_invoice_id = i.id AND ip.in_suspense AND ip.status = 'MATCHED'
    WHERE i.funded_from_suspense
    GROUP BY i.id HAVING i.status <> 'DONE' OR count(ip.id) <> 1 OR coalesce(sum(ip.amount), 0) <> i.amount
    UNION ALL
    SELECT i.id, i.status, i.amount::text, 1, ip.amount::text FROM incoming_payments ip JOIN invoices i ON i.id = ip.matched_invoice_id
    WHERE ip.in_suspense AND ip.status = 'MATCHED' AND NOT i.funded_from_suspense`);
  if (suspensePaid.length) fail('a deposit paid from suspense and its incoming money disagree', suspensePaid);
  const unresolvedLinked = await q(sql`SELECT id FROM incoming_payments
    WHERE (status = 'UNMATCHED') <> (matched_invoice_id IS NULL) AND status <> 'RETURNED' LIMIT 5`);
  if (unresolvedLinked.length) fail('an incoming payment is linked and unmatched at once', unresolvedLinked);
  // a paused account gives its requisites to nobody: no routing decision made after its pause gave it (the account
  // routing gave, from the decision it recorded; staff may still name a paused account as the one money arrived on)
  const givenWhilePaused = await q(sql`SELECT ev.invoice_id AS id, g.account_id FROM event_log ev
    CROSS JOIN LATERAL (SELECT (r->>'accountId')::int AS account_id FROM jsonb_array_elements(ev.data->'routing') r
      WHERE r->>'outcome' = 'given') g
    JOIN account_limits l ON l.account_id = g.account_id AND l.paused_at IS NOT NULL AND ev.event_time > l.paused_at
    WHERE ev.data ? 'routing' LIMIT 5`);
  if (givenWhilePaused.length) fail("routing gave a paused account's requisites", givenWhilePaused);
  const testInLive = await q(sql`SELECT e.id FROM ledger_entries e JOIN invoices i ON i.id = e.invoice_id
    WHERE i.is_test AND e.book = 'live' LIMIT 5`);
  if (testInLive.length) fail('test activity changed a live figure', testInLive);
  // the finance tiles read deposits and withdrawals from the day totals (ledger/service.ts merchantSums): they must
  // be what the DONE invoices' merchant legs say, per merchant, currency, book and terminal
  const tiles = await q(sql`
    WITH fast AS (
      SELECT merchant_id, currency_id, book, terminal_id, SUM(deposits) AS dep, SUM(withdrawals - holds) AS wd
      FROM ledger_day_totals GROUP BY 1, 2, 3, 4),
    slow AS (
      SELECT e.merchant_id, e.currency_id, e.book, e.terminal_id,
        COALESCE(-SUM(e.amount) FILTER (WHERE i.flow_type = 'DEPOSIT' AND i.status = 'DONE'), 0) AS dep,
        COALESCE(SUM(e.amount) FILTER (WHERE i.flow_type = 'WITHDRAWAL' AND i.status = 'DONE'), 0) AS wd
      FROM ledger_entries e JOIN invoices i ON i.id = e.invoice_id WHERE e.account = 'merchant' GROUP BY 1, 2, 3, 4)
    SELECT coalesce(f.merchant_id, s.merchant_id) AS merchant, coalesce(f.book, s.book) AS book,
      f.dep::text AS fast_dep, s.dep::text AS slow_dep, f.wd::text AS fast_wd, s.wd::text AS slow_wd
    FROM fast f FULL OUTER JOIN slow s ON s.merchant_id = f.merchant_id AND s.currency_id = f.currency_id
      AND s.book = f.book AND s.terminal_id IS NOT DISTINCT FROM f.terminal_id
    WHERE coalesce(f.dep, 0) <> coalesce(s.dep, 0) OR coalesce(f.wd, 0) <> coalesce(s.wd, 0)`);
  if (tiles.length) fail('a deposit or withdrawal total differs from its DONE invoices', tiles);
}
