import { sql } from 'drizzle-orm';
import { APPROVAL_EXPIRY_HOURS, type ApprovalAction, type ApprovalHeld } from '@paydesk/contracts';
import type { DbOrTx } from '../../db/create-db';
import type { AppContext } from '../../lib/context';
import { invalidState } from '../../lib/errors';
import { recordAudit, type AuditActor } from '../audit/service';

/*
 * Two-person control (docs/approvals.md): an action an enabled policy covers is not carried out; it becomes a request
 * another person who holds the same permission approves (modules/approvals). The services of the covered actions ask
 * `holdForApproval` before acting; the approval carries the action out by calling the same service again with the
 * request's grant, so every rule of the action is checked once more against the state at that moment.
 */

/** Carrying out an approved request: the covered service acts instead of asking for approval again. */
export type ApprovalGrant = { requestId: string };

/** What a held action is, for its request. */
export type HoldSpec = {
  action: ApprovalAction;
  merchantId: string | null;
  targetType: string;
  targetId: string | number;
  summary: string;
  /** the request's body and parameters, given back to the service on approval */
  payload: Record<string, unknown>;
  before: unknown;
  after: unknown;
  reason: string;
  /** the amount a threshold is compared with (minor units of `currency`); none: every such action is held */
  amount?: number | null;
  currency?: string | null;
  /** held whatever the policies say: the maker asked for a second person (a statement's correction) */
  always?: boolean;
};

/** The policy that covers an action here, if any holds it back: the platform's, or the merchant's own. */
async function policyHolds(
  db: DbOrTx,
  action: ApprovalAction,
  merchantId: string | null,
  amount: number | null | undefined,
  currency: string | null | undefined,
): Promise<boolean> {
  const res = await db.execute<{ thresholds: Record<string, number> }>(sql`
    SELECT thresholds FROM approval_policies
    WHERE action = ${action} AND enabled
      AND (merchant_id IS NULL ${merchantId ? sql`OR merchant_id = ${merchantId}::uuid` : sql``})`);
  return res.rows.some((p) => {
    if (amount === null || amount === undefined || !currency) return true;
    const threshold = p.thresholds[currency];
    return threshold === undefined || amount >= threshold;
  });
}

/**
 * Null when no enabled policy covers the action (or it is the approval carrying it out): the caller acts. Otherwise
 * the request is stored, audited (approval.requested), and returned: the caller answers 202 and changes nothing.
 */
export async function holdForApproval(
  ctx: AppContext,
  maker: AuditActor & { userId: string },
  spec: HoldSpec,
  grant?: ApprovalGrant,
): Promise<ApprovalHeld | null> {
  if (grant) return null;
  if (!spec.always && !(await policyHolds(ctx.db, spec.action, spec.merchantId, spec.amount, spec.currency))) {
    return null;
  }
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + APPROVAL_EXPIRY_HOURS * 3600_000);
  return ctx.db.transaction(async (tx) => {
    // one request at a time per action and target: a second is refused while the first waits (its expiry ends it)
    await tx.execute(sql`UPDATE approval_requests SET status = 'EXPIRED', decided_at = expires_at
      WHERE status = 'PENDING' AND expires_at <= ${now.toISOString()}::timestamptz AND action = ${spec.action}
        AND target_type = ${spec.targetType} AND target_id = ${String(spec.targetId)}`);
    const waiting = await tx.execute<{ maker: string }>(sql`SELECT u.username AS maker FROM approval_requests r
      JOIN users u ON u.id = r.maker_id WHERE r.status = 'PENDING' AND r.action = ${spec.action}
        AND r.target_type = ${spec.targetType} AND r.target_id = ${String(spec.targetId)}`);
    if (waiting.rows[0])
      throw invalidState(`A request for this is already waiting for approval (asked by ${waiting.rows[0].maker})`);
    const res = await tx.execute<{ id: string }>(sql`
      INSERT INTO approval_requests (action, merchant_id, target_type, target_id, summary, payload, before, after,
        reason, amount, currency, maker_id, created_at, expires_at)
      VALUES (${spec.action}, ${spec.merchantId}, ${spec.targetType}, ${String(spec.targetId)}, ${spec.summary},
        ${JSON.stringify(spec.payload)}::jsonb, ${JSON.stringify(spec.before ?? null)}::jsonb,
        ${JSON.stringify(spec.after ?? null)}::jsonb, ${spec.reason}, ${spec.amount ?? null}, ${spec.currency ?? null},
        ${maker.userId}, ${now.toISOString()}::timestamptz, ${expiresAt.toISOString()}::timestamptz)
      RETURNING id`);
    const id = res.rows[0]!.id;
    await recordAudit(
      tx,
      maker,
      {
        action: 'approval.requested',
        merchantId: spec.merchantId,
        targetType: 'approval',
        targetId: id,
        before: spec.before ?? null,
        after: { action: spec.action, target: `${spec.targetType} ${spec.targetId}`, asked: spec.after ?? null },
        reason: spec.reason,
      },
      now,
    );
    return {
      approvalRequestId: id,
      status: 'PENDING' as const,
      expiresAt: expiresAt.toISOString(),
      message: spec.always
        ? `${spec.summary}: asked for, waiting for another person's approval`
        : `${spec.summary}: held for another person's approval (policy on ${spec.action})`,
    };
  });
}
