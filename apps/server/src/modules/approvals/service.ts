import { sql, type SQL } from 'drizzle-orm';
import {
  APPROVAL_ACTIONS,
  hasPermission,
  type ApprovalAction,
  type ApprovalItem,
  type ApprovalListQuery,
  type ApprovalPolicy,
  type ApprovalPolicyBody,
  type Permission,
} from '@paydesk/contracts';
import type { DbOrTx } from '../../db/create-db';
import type { AppContext } from '../../lib/context';
import { AppError, forbidden, invalidState, notFound } from '../../lib/errors';
import type { Caller, SessionUser } from '../../plugins/auth';
import { recordAudit, staffActor } from '../audit/service';
import { applyApproved } from './appliers';

/*
 * Two-person control's queue (docs/approvals.md): the policies, the requests the covered services stored
 * (engine/approvals.ts holdForApproval), and their approval or rejection. Approving carries the action out through the
 * same service as the maker's call, in the approval's transaction: every rule is checked again against the state now.
 */

/** Who may set policies: platform admins; a merchant owner only its own merchant's key policy. */
function assertMaySetPolicy(user: SessionUser, action: ApprovalAction) {
  if (!hasPermission(user.permissions, 'users.manage'))
    throw forbidden('Only people who manage the team may change approval policies');
  if (user.merchantId && action !== 'merchant.key.edit')
    throw forbidden("A merchant's staff may only require approval of their own API key replacement");
  if (user.merchantId && !hasPermission(user.permissions, 'merchant.key.edit'))
    throw forbidden('Only people who may replace the API key may require approval of it');
}

/** The policies the caller may see: every action's platform policy, and a merchant's staff their own key policy. */
export async function listPolicies(ctx: AppContext, user: SessionUser): Promise<ApprovalPolicy[]> {
  if (!hasPermission(user.permissions, 'users.manage'))
    throw forbidden('Only people who manage the team see approval policies');
  const res = await ctx.db.execute<{
    action: ApprovalAction;
    merchant_id: string | null;
    enabled: boolean;
    thresholds: Record<string, number>;
    updated_at: string | Date;
    username: string | null;
  }>(sql`SELECT p.action, p.merchant_id, p.enabled, p.thresholds, p.updated_at, u.username
    FROM approval_policies p LEFT JOIN users u ON u.id = p.updated_by
    WHERE p.merchant_id IS NULL ${user.merchantId ? sql`OR p.merchant_id = ${user.merchantId}::uuid` : sql``}`);
  const scopes: { action: ApprovalAction; merchantId: string | null }[] = user.merchantId
    ? [{ action: 'merchant.key.edit', merchantId: user.merchantId }]
    : APPROVAL_ACTIONS.map((action) => ({ action, merchantId: null }));
  return scopes.map(({ action, merchantId }) => {
    const row = res.rows.find((r) => r.action === action && r.merchant_id === merchantId);
    return {
      action,
      merchantId,
      enabled: row?.enabled ?? false,
      thresholds: row?.thresholds ?? {},
      updatedAt: row ? new Date(row.updated_at).toISOString() : null,
      updatedBy: row?.username ?? null,
    };
  });
}

export async function setPolicy(
  ctx: AppContext,
  caller: Caller,
  action: ApprovalAction,
  body: ApprovalPolicyBody,
): Promise<ApprovalPolicy> {
  const user = caller.user;
  assertMaySetPolicy(user, action);
  const merchantId = user.merchantId;
  const currencies = Object.keys(body.thresholds);
  if (currencies.length) {
    const known = await ctx.db.execute<{ code: string }>(
      sql`SELECT code FROM currencies WHERE code IN (${sql.join(
        currencies.map((c) => sql`${c}`),
        sql`, `,
      )})`,
    );
    const unknown = currencies.filter((c) => !known.rows.some((k) => k.code === c));
    if (unknown.length)
      throw new AppError('VALIDATION_ERROR', `Unknown currency: ${unknown.join(', ')}`, {
        thresholds: `Unknown currency: ${unknown.join(', ')}`,
      });
  }
  await ctx.db.transaction(async (tx) => {
    const before = await tx.execute<{ enabled: boolean; thresholds: Record<string, number> }>(sql`
      SELECT enabled, thresholds FROM approval_policies WHERE action = ${action}
        AND merchant_id IS NOT DISTINCT FROM ${merchantId}::uuid FOR UPDATE`);
    const now = ctx.now();
    await tx.execute(sql`
      INSERT INTO approval_policies (action, merchant_id, enabled, thresholds, updated_at, updated_by)
      VALUES (${action}, ${merchantId}, ${body.enabled}, ${JSON.stringify(body.thresholds)}::jsonb,
        ${now.toISOString()}::timestamptz, ${user.id})
      ON CONFLICT (action, coalesce(merchant_id, '00000000-0000-0000-0000-000000000000'::uuid))
      DO UPDATE SET enabled = excluded.enabled, thresholds = excluded.thresholds, updated_at = excluded.updated_at,
        updated_by = excluded.updated_by`);
    await recordAudit(
      tx,
      staffActor(user, caller.ip),
      {
        action: 'approval.policy_changed',
        merchantId,
        targetType: 'approval_policy',
        targetId: action,
        before: before.rows[0] ?? { enabled: false, thresholds: {} },
        after: { enabled: body.enabled, thresholds: body.thresholds },
      },
      now,
    );
  });
  return (await listPolicies(ctx, user)).find((p) => p.action === action)!;
}

type RequestRow = {
  id: string;
  action: ApprovalAction;
  merchant_id: string | null;
  merchant_name: string | null;
  target_type: string;
  target_id: string;
  summary: string;
  payload: Record<string, unknown>;
  before: unknown;
  after: unknown;
  reason: string;
  amount: string | null;
  currency: string | null;
  status: ApprovalItem['status'];
  maker_id: string;
  maker: string;
  created_at: string | Date;
  expires_at: string | Date;
  decided_at: string | Date | null;
  decided_by: string | null;
  decision_reason: string | null;
  refusal: string | null;
  refused_at: string | Date | null;
};

const REQUEST_SELECT = sql`
  SELECT r.*, m.name AS merchant_name, mk.username AS maker, dk.username AS decided_by
  FROM approval_requests r
  LEFT JOIN merchants m ON m.id = r.merchant_id
  JOIN users mk ON mk.id = r.maker_id
  LEFT JOIN users dk ON dk.id = r.decided_by`;

const iso = (v: string | Date) => new Date(v).toISOString();
const isoOrNull = (v: string | Date | null) => (v === null ? null : iso(v));

/** The caller holds the action's permission where it applies (a merchant's staff: their own merchant's requests). */
function mayAct(user: SessionUser, action: ApprovalAction, merchantId: string | null) {
  if (!hasPermission(user.permissions, action as Permission)) return false;
  return user.merchantId === null || user.merchantId === merchantId;
}

function toItem(r: RequestRow, user: SessionUser, now: Date): ApprovalItem {
  const pending = r.status === 'PENDING' && new Date(r.expires_at) > now;
  return {
    id: r.id,
    action: r.action,
    merchantId: r.merchant_id,
    merchantName: r.merchant_name,
    targetType: r.target_type,
    targetId: r.target_id,
    summary: r.summary,
    before: r.before,
    after: r.after,
    reason: r.reason,
    amount: r.amount === null ? null : Number(r.amount),
    currency: r.currency,
    status: r.status === 'PENDING' && !pending ? 'EXPIRED' : r.status,
    maker: r.maker,
    createdAt: iso(r.created_at),
    expiresAt: iso(r.expires_at),
    decidedAt: isoOrNull(r.decided_at),
    decidedBy: r.decided_by,
    decisionReason: r.decision_reason,
    refusal: r.refusal,
    refusedAt: isoOrNull(r.refused_at),
    canDecide: pending && r.maker_id !== user.id && mayAct(user, r.action, r.merchant_id),
  };
}

/** Pending requests past their expiry become EXPIRED (a request may no longer be approved from then on). */
async function expireDue(db: DbOrTx, now: Date) {
  await db.execute(sql`UPDATE approval_requests SET status = 'EXPIRED', decided_at = expires_at
    WHERE status = 'PENDING' AND expires_at <= ${now.toISOString()}::timestamptz`);
}

/** The requests a person may see: of the actions they may carry out (in their scope), and their own. */
function visibleTo(user: SessionUser): SQL {
  const actions = APPROVAL_ACTIONS.filter((a) => hasPermission(user.permissions, a as Permission));
  const theirs = actions.length
    ? sql`(r.action IN (${sql.join(
        actions.map((a) => sql`${a}`),
        sql`, `,
      )})
        ${user.merchantId ? sql`AND r.merchant_id = ${user.merchantId}::uuid` : sql``})`
    : sql`false`;
  return sql`(${theirs} OR r.maker_id = ${user.id})`;
}

export async function listApprovals(ctx: AppContext, user: SessionUser, q: ApprovalListQuery) {
  const now = ctx.now();
  await expireDue(ctx.db, now);
  const where: SQL[] = [visibleTo(user)];
  if (q.status) where.push(sql`r.status = ${q.status}`);
  if (q.action) where.push(sql`r.action = ${q.action}`);
  if (q.maker) where.push(sql`r.maker_id = (SELECT id FROM users WHERE username = ${q.maker})`);
  if (q.targetId) where.push(sql`r.target_id = ${q.targetId}`);
  if (q.after) {
    const [at, id] = q.after.split('_') as [string, string];
    where.push(sql`(r.created_at, r.id) < (${at}::timestamptz, ${id}::uuid)`);
  }
  // the page first, newest first on its own (approval_requests_status_created_idx / _created_idx: NULLS LAST as they
  // are sorted, though no value is null), then its names
  const res = await ctx.db.execute<RequestRow>(sql`
    SELECT r.*, m.name AS merchant_name, mk.username AS maker, dk.username AS decided_by
    FROM (SELECT * FROM approval_requests r WHERE ${sql.join(where, sql` AND `)}
          ORDER BY r.created_at DESC NULLS LAST, r.id DESC NULLS LAST LIMIT ${q.limit + 1}) r
    LEFT JOIN merchants m ON m.id = r.merchant_id
    JOIN users mk ON mk.id = r.maker_id
    LEFT JOIN users dk ON dk.id = r.decided_by
    ORDER BY r.created_at DESC NULLS LAST, r.id DESC NULLS LAST`);
  const rows = res.rows.slice(0, q.limit);
  const last = rows.at(-1);
  return {
    data: rows.map((r) => toItem(r, user, now)),
    next: res.rows.length > q.limit && last ? `${iso(last.created_at)}_${last.id}` : null,
  };
}

/** Pending requests the person may decide: the navigation's count. */
export async function countPending(ctx: AppContext, user: SessionUser) {
  const now = ctx.now();
  const actions = APPROVAL_ACTIONS.filter((a) => hasPermission(user.permissions, a as Permission));
  if (actions.length === 0) return { pending: 0 };
  const res = await ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM approval_requests r
    WHERE r.status = 'PENDING' AND r.expires_at > ${now.toISOString()}::timestamptz AND r.maker_id <> ${user.id}
      AND r.action IN (${sql.join(
        actions.map((a) => sql`${a}`),
        sql`, `,
      )})
      ${user.merchantId ? sql`AND r.merchant_id = ${user.merchantId}::uuid` : sql``}`);
  return { pending: Number(res.rows[0]?.n ?? 0) };
}

async function requestRow(db: DbOrTx, id: string, lock = false) {
  const res = await db.execute<RequestRow>(
    sql`${REQUEST_SELECT} WHERE r.id = ${id}${lock ? sql` FOR UPDATE OF r` : sql``}`,
  );
  return res.rows[0];
}

export async function getApproval(ctx: AppContext, user: SessionUser, id: string): Promise<ApprovalItem> {
  const row = await requestRow(ctx.db, id);
  if (!row || (!mayAct(user, row.action, row.merchant_id) && row.maker_id !== user.id)) throw notFound('Request');
  return toItem(row, user, ctx.now());
}

/** The checks both decisions share, on the locked request. */
function assertDecidable(row: RequestRow | undefined, user: SessionUser, now: Date): RequestRow {
  if (!row || (!mayAct(user, row.action, row.merchant_id) && row.maker_id !== user.id)) throw notFound('Request');
  if (row.status !== 'PENDING') throw invalidState(`This request is already ${row.status}`);
  if (new Date(row.expires_at) <= now)
    throw invalidState('This request expired: it may no longer be approved; ask again if it is still needed');
  if (row.maker_id === user.id) throw forbidden('You asked for this change: another person must approve or reject it');
  if (!mayAct(user, row.action, row.merchant_id))
    throw forbidden(`Only people who may carry out ${row.action} may decide this request`);
  return row;
}

/**
 * Approves a request: carries its action out now, through the action's own service and every rule of it, in this
 * transaction. A rule that refuses it (the invoice moved…) refuses the approval (409 with the rule's message), which
 * the request keeps (`refusal`); it stays PENDING for a rejection or another try.
 */
export async function approve(ctx: AppContext, caller: Caller, id: string, reason?: string): Promise<ApprovalItem> {
  const now = ctx.now();
  const refused = await ctx.db.transaction(async (tx) => {
    const row = assertDecidable(await requestRow(tx, id, true), caller.user, now);
    try {
      await tx.transaction((sp) => applyApproved({ ...ctx, db: sp }, caller, row));
    } catch (err) {
      if (!(err instanceof AppError) || err.statusCode >= 500) throw err;
      await tx.execute(sql`UPDATE approval_requests SET refusal = ${err.message},
        refused_at = ${now.toISOString()}::timestamptz WHERE id = ${id}`);
      return err.message;
    }
    await tx.execute(sql`UPDATE approval_requests SET status = 'APPROVED', decided_at = ${now.toISOString()}::timestamptz,
      decided_by = ${caller.user.id}, decision_reason = ${reason ?? null}, refusal = NULL WHERE id = ${id}`);
    await recordAudit(
      tx,
      staffActor(caller.user, caller.ip),
      {
        action: 'approval.approved',
        merchantId: row.merchant_id,
        targetType: 'approval',
        targetId: id,
        before: { status: 'PENDING', maker: row.maker },
        after: { status: 'APPROVED', action: row.action, target: `${row.target_type} ${row.target_id}` },
        reason: reason ?? null,
      },
      now,
    );
    return null;
  });
  if (refused !== null) throw invalidState(`Not approved: ${refused}`);
  return getApproval(ctx, caller.user, id);
}

export async function reject(ctx: AppContext, caller: Caller, id: string, reason: string): Promise<ApprovalItem> {
  const now = ctx.now();
  await ctx.db.transaction(async (tx) => {
    const row = assertDecidable(await requestRow(tx, id, true), caller.user, now);
    await tx.execute(sql`UPDATE approval_requests SET status = 'REJECTED', decided_at = ${now.toISOString()}::timestamptz,
      decided_by = ${caller.user.id}, decision_reason = ${reason} WHERE id = ${id}`);
    await recordAudit(
      tx,
      staffActor(caller.user, caller.ip),
      {
        action: 'approval.rejected',
        merchantId: row.merchant_id,
        targetType: 'approval',
        targetId: id,
        before: { status: 'PENDING', maker: row.maker },
        after: { status: 'REJECTED', action: row.action, target: `${row.target_type} ${row.target_id}` },
        reason,
      },
      now,
    );
  });
  return getApproval(ctx, caller.user, id);
}
