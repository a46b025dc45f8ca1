import { sql, type SQL } from 'drizzle-orm';
import { accountPauseRule, type AccountHealth, type AccountPauseRule } from '@paydesk/contracts';
import type { DbOrTx, Tx } from '../../db/create-db';
import type { AppContext } from '../../lib/context';
import { invalidState, notFound } from '../../lib/errors';
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from '../audit/service';

/*
 * Provider account health (docs/operations.md, "paused accounts"). A card that stops receiving keeps being handed out
 * by routing until someone notices; the health check notices: an account none of whose last `pauseAfter` deposits
 * given its requisites was paid — each given at least `windowMinutes` ago, so that every one had its time — is paused: routing gives its requisites to nobody (routing/service.ts depositCandidates) until staff
 * resume it. Pausing and resuming are audited; the alert is the desk's "Paused accounts" queue. The rule is a
 * platform setting staff change on the desk (`pauseRule`); ACCOUNT_PAUSE_AFTER / ACCOUNT_PAUSE_WINDOW_MIN are only
 * its default until they do.
 */

/** The settings row that holds the pause rule, as JSON. */
const PAUSE_RULE_KEY = 'routing.pause_rule';

/** The pause rule in force: staff's setting, or the installation's default; with when and by whom it was set. */
export async function pauseRule(
  db: DbOrTx,
  defaults: { accountPauseAfter: number; accountPauseWindowMin: number },
): Promise<AccountPauseRule & { updatedAt: string | null; updatedBy: string | null }> {
  const res = await db.execute<{ value: string; updated_at: string | Date; username: string | null }>(sql`
    SELECT s.value, s.updated_at, u.username FROM settings s LEFT JOIN users u ON u.id = s.updated_by
    WHERE s.key = ${PAUSE_RULE_KEY}`);
  const row = res.rows[0];
  const stored = row ? accountPauseRule.safeParse(JSON.parse(row.value)) : undefined;
  if (!row || !stored?.success)
    return {
      pauseAfter: defaults.accountPauseAfter,
      windowMinutes: defaults.accountPauseWindowMin,
      updatedAt: null,
      updatedBy: null,
    };
  return { ...stored.data, updatedAt: new Date(row.updated_at).toISOString(), updatedBy: row.username };
}

/** Staff change the pause rule, with a reason; audited with the rule before and after, in the same transaction. */
export function setPauseRule(
  ctx: AppContext,
  args: { rule: AccountPauseRule; reason: string; actor: AuditActor & { userId: string } },
) {
  return ctx.db.transaction(async (tx) => {
    // the row lock serialises two staff changing it at once, so each audit record's "before" is what it replaced
    await tx.execute(sql`SELECT 1 FROM settings WHERE key = ${PAUSE_RULE_KEY} FOR UPDATE`);
    const before = await pauseRule(tx, ctx.config);
    const rule = { pauseAfter: args.rule.pauseAfter, windowMinutes: args.rule.windowMinutes };
    const now = ctx.now();
    await tx.execute(sql`
      INSERT INTO settings (key, value, updated_at, updated_by)
      VALUES (${PAUSE_RULE_KEY}, ${JSON.stringify(rule)}, ${now.toISOString()}::timestamptz, ${args.actor.userId})
      ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at,
        updated_by = excluded.updated_by`);
    await recordAudit(
      tx,
      args.actor,
      {
        action: 'settings.changed',
        targetType: 'setting',
        targetId: PAUSE_RULE_KEY,
        before: { pauseAfter: before.pauseAfter, windowMinutes: before.windowMinutes },
        after: rule,
        reason: args.reason,
      },
      now,
    );
  });
}

/** How far back the health figures look. */
const HEALTH_WINDOW = '24 hours';

/**
 * Per provider account, one row: `account_id`, `provider`, `method`, `is_sandbox`, `enabled`, `given` and `paid`
 * (deposits given its requisites over the last day, and how many of them are DONE), `last_money_at` (when a provider
 * last reported money on it), `paused_at`, `paused_reason` and `paused_by` (the username of staff who paused it; null
 * when the health check did). The health list and the desk's paused-accounts CSV read the same figures from it.
 */
export function accountHealthSql(now: Date, accountId?: number): SQL {
  return sql`
    SELECT a.id AS account_id, p.name AS provider, m.name AS method, p.is_sandbox, a.enabled,
      coalesce(g.given, 0)::int AS given, coalesce(g.paid, 0)::int AS paid,
      (SELECT max(ip.created_at) FROM incoming_payments ip WHERE ip.account_id = a.id) AS last_money_at,
      l.paused_at, l.paused_reason, u.username AS paused_by
    FROM provider_accounts a
    JOIN providers p ON p.id = a.provider_id JOIN payment_methods m ON m.id = a.payment_method_id
    JOIN account_limits l ON l.account_id = a.id
    LEFT JOIN users u ON u.id = l.paused_by
    LEFT JOIN LATERAL (
      SELECT count(*) AS given, count(*) FILTER (WHERE i.status = 'DONE') AS paid
      FROM invoices i WHERE i.account_id = a.id AND i.flow_type = 'DEPOSIT'
        AND i.created_at >= ${now.toISOString()}::timestamptz - ${HEALTH_WINDOW}::interval) g ON true
    ${accountId === undefined ? sql`` : sql`WHERE a.id = ${accountId}`}`;
}

/** Per account: requisites given vs paid over the last day, when money last arrived, and whether it is paused. */
export async function accountHealth(db: DbOrTx, now: Date, accountId?: number): Promise<AccountHealth[]> {
  const res = await db.execute<{
    account_id: number;
    provider: string;
    method: string;
    is_sandbox: boolean;
    enabled: boolean;
    given: number;
    paid: number;
    last_money_at: string | Date | null;
    paused_at: string | Date | null;
    paused_reason: string | null;
    paused_by: string | null;
  }>(sql`SELECT h.* FROM (${accountHealthSql(now, accountId)}) h ORDER BY h.account_id`);
  return res.rows.map((r) => ({
    accountId: Number(r.account_id),
    provider: r.provider,
    paymentMethod: r.method,
    isSandbox: r.is_sandbox,
    enabled: r.enabled,
    given: Number(r.given),
    paid: Number(r.paid),
    successRate: Number(r.given) ? Math.round((Number(r.paid) * 1000) / Number(r.given)) / 10 : null,
    lastMoneyAt: r.last_money_at === null ? null : new Date(r.last_money_at).toISOString(),
    pausedAt: r.paused_at === null ? null : new Date(r.paused_at).toISOString(),
    pausedReason: r.paused_reason,
    pausedBy: r.paused_at === null ? null : (r.paused_by ?? 'health check'),
  }));
}

/**
 * One pass of the health check: pauses every enabled, unpaused account whose last `pauseAfter` deposits given its
 * requisites (each older than the window) include none paid. Each pause is audited in the same transaction. Returns
 * the accounts paused.
 */
export async function pauseUnpaidAccounts(ctx: AppContext): Promise<number[]> {
  const { pauseAfter: n, windowMinutes: windowMin } = await pauseRule(ctx.db, ctx.config);
  if (n <= 0) return [];
  const now = ctx.now();
  const reason = `none of the last ${n} deposits given its requisites was paid within ${windowMin} minutes`;
  return ctx.db.transaction(async (tx) => {
    const res = await tx.execute<{ account_id: number }>(sql`
      UPDATE account_limits l SET paused_at = ${now.toISOString()}::timestamptz, paused_reason = ${reason},
        paused_by = NULL
      FROM provider_accounts a
      WHERE a.id = l.account_id AND a.enabled AND l.paused_at IS NULL
        AND (SELECT count(*) FILTER (WHERE last.status <> 'DONE') = ${n} AND count(*) = ${n}
             FROM (SELECT i.status FROM invoices i
                   WHERE i.account_id = l.account_id AND i.flow_type = 'DEPOSIT'
                     AND i.created_at < ${now.toISOString()}::timestamptz - make_interval(mins => ${windowMin})
                     AND i.created_at >= ${now.toISOString()}::timestamptz - ${HEALTH_WINDOW}::interval
                     AND (l.resumed_at IS NULL OR i.created_at > l.resumed_at)
                   ORDER BY i.created_at DESC LIMIT ${n}) last)
      RETURNING l.account_id`);
    const paused = res.rows.map((r) => Number(r.account_id));
    for (const accountId of paused) {
      await recordAudit(
        tx,
        SYSTEM_ACTOR,
        {
          action: 'account.paused',
          targetType: 'account',
          targetId: accountId,
          after: { paused: true },
          reason,
        },
        now,
      );
    }
    return paused;
  });
}

async function lockLimit(tx: Tx, accountId: number) {
  const res = await tx.execute<{ paused_at: string | Date | null; paused_reason: string | null }>(
    sql`SELECT paused_at, paused_reason FROM account_limits WHERE account_id = ${accountId} FOR UPDATE`,
  );
  if (!res.rows[0]) throw notFound('Account');
  return res.rows[0];
}

/** Staff take an account out of routing by hand, with a reason. */
export function pauseAccount(
  ctx: AppContext,
  args: { accountId: number; reason: string; actor: AuditActor & { userId: string } },
) {
  return ctx.db.transaction(async (tx) => {
    const row = await lockLimit(tx, args.accountId);
    if (row.paused_at !== null) throw invalidState(`Account ${args.accountId} is already paused`);
    const now = ctx.now();
    await tx.execute(sql`UPDATE account_limits SET paused_at = ${now.toISOString()}::timestamptz,
      paused_reason = ${args.reason}, paused_by = ${args.actor.userId} WHERE account_id = ${args.accountId}`);
    await recordAudit(
      tx,
      args.actor,
      {
        action: 'account.paused',
        targetType: 'account',
        targetId: args.accountId,
        after: { paused: true },
        reason: args.reason,
      },
      now,
    );
  });
}

/** Staff give a paused account back to routing, with a reason (what was fixed). */
export function resumeAccount(
  ctx: AppContext,
  args: { accountId: number; reason: string; actor: AuditActor & { userId: string } },
) {
  return ctx.db.transaction(async (tx) => {
    const row = await lockLimit(tx, args.accountId);
    if (row.paused_at === null) throw invalidState(`Account ${args.accountId} is not paused`);
    const now = ctx.now();
    await tx.execute(sql`UPDATE account_limits SET paused_at = NULL, paused_reason = NULL, paused_by = NULL,
      resumed_at = ${now.toISOString()}::timestamptz WHERE account_id = ${args.accountId}`);
    await recordAudit(
      tx,
      args.actor,
      {
        action: 'account.resumed',
        targetType: 'account',
        targetId: args.accountId,
        before: { paused: true, reason: row.paused_reason },
        after: { paused: false },
        reason: args.reason,
      },
      now,
    );
  });
}
