import type { Readable } from 'node:stream';
import { and, count, desc, eq, gte, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import {
  parseDdMmYyyy,
  utcDayRange,
  type AuditAction,
  type AuditActorKind,
  type AuditEntry,
  type AuditFilter,
  type AuditListQuery,
} from '@paydesk/contracts';
import type { DbOrTx } from '../../db/create-db';
import { auditLog, merchants } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { copyOut } from '../../lib/copy-out';
import { AppError } from '../../lib/errors';
import { copyCsv, isoTime, safeText } from '../../lib/csv-sql';
import type { SessionUser } from '../../plugins/auth';

/** Who did it, as the audit trail records it. */
export type AuditActor = { userId: string | null; username: string | null; kind: AuditActorKind; ip: string | null };

export const staffActor = (user: Pick<SessionUser, 'id' | 'username' | 'scope'>, ip: string | null): AuditActor => ({
  userId: user.id,
  username: user.username,
  kind: user.scope,
  ip,
});

export const SYSTEM_ACTOR: AuditActor = { userId: null, username: null, kind: 'system', ip: null };

export type AuditRecord = {
  action: AuditAction;
  merchantId?: string | null;
  targetType?: string;
  targetId?: string | number;
  before?: unknown;
  after?: unknown;
  reason?: string | null;
};

/**
 * Appends one audit record. Call it with the transaction that makes the change, so that the
 * record exists exactly when the change does. The table refuses UPDATE, DELETE and TRUNCATE.
 */
export async function recordAudit(db: DbOrTx, actor: AuditActor, r: AuditRecord, at: Date) {
  await db.insert(auditLog).values({
    at,
    actorUserId: actor.userId,
    actorUsername: actor.username,
    actorKind: actor.kind,
    merchantId: r.merchantId ?? null,
    action: r.action,
    targetType: r.targetType ?? null,
    targetId: r.targetId === undefined ? null : String(r.targetId),
    before: r.before ?? null,
    after: r.after ?? null,
    reason: r.reason ?? null,
    ip: actor.ip,
  });
}

/** How many full card or phone numbers one person may have shown per hour (credentials.revealed records). */
export const REVEALS_PER_HOUR = 30;

/**
 * A person was shown a full requisite: refused past REVEALS_PER_HOUR in the last hour (429, nothing written), else
 * the audit record of who saw which, written in the caller's transaction — the value is shown only if it commits.
 * The per-user advisory lock makes two reveals at once count one after the other.
 */
export async function recordReveal(
  tx: DbOrTx,
  actor: AuditActor & { userId: string },
  target: { type: 'invoice' | 'account_credential'; id: string | number; merchantId?: string | null },
  at: Date,
) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('paydesk.reveal'), hashtext(${actor.userId}))`);
  const [row] = await tx
    .select({ n: count() })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.actorUserId, actor.userId),
        eq(auditLog.action, 'credentials.revealed'),
        gte(auditLog.at, new Date(at.getTime() - 3600_000)),
      ),
    );
  if ((row?.n ?? 0) >= REVEALS_PER_HOUR) {
    throw new AppError(
      'TOO_MANY_REQUESTS',
      `At most ${REVEALS_PER_HOUR} full numbers an hour may be shown to one person; try again later`,
    );
  }
  await recordAudit(
    tx,
    actor,
    {
      action: 'credentials.revealed',
      merchantId: target.merchantId ?? null,
      targetType: target.type,
      targetId: target.id,
    },
    at,
  );
}

/** Platform staff see every record (optionally one merchant's, or the platform's own); merchant staff their merchant's. */
function scopeCondition(viewer: SessionUser, merchant: AuditFilter['merchant']): SQL | undefined {
  if (viewer.scope === 'merchant') return eq(auditLog.merchantId, viewer.merchantId!);
  if (merchant === 'platform') return isNull(auditLog.merchantId);
  return merchant ? eq(auditLog.merchantId, merchant) : undefined;
}

/** What merchant staff see instead of a platform employee's name (and all they can filter by). */
const PLATFORM_STAFF_NAME = 'platform staff';

/** Merchant staff filter platform actors only as "platform staff": a guessed employee name matches nothing. */
function actorCondition(viewer: SessionUser, actor: string | undefined): SQL | undefined {
  if (!actor) return undefined;
  const name = actor.toLowerCase();
  if (viewer.scope !== 'merchant') return eq(sql`lower(${auditLog.actorUsername})`, name);
  if (name === PLATFORM_STAFF_NAME) return eq(auditLog.actorKind, 'platform');
  return and(eq(sql`lower(${auditLog.actorUsername})`, name), ne(auditLog.actorKind, 'platform'));
}

function where(viewer: SessionUser, f: AuditFilter): SQL | undefined {
  return and(
    scopeCondition(viewer, f.merchant),
    f.action ? eq(auditLog.action, f.action) : undefined,
    actorCondition(viewer, f.actor),
    f.dateFrom ? gte(auditLog.at, utcDayRange(parseDdMmYyyy(f.dateFrom)!).start) : undefined,
    f.dateTo ? lt(auditLog.at, utcDayRange(parseDdMmYyyy(f.dateTo)!).end) : undefined,
  );
}

type Row = typeof auditLog.$inferSelect & { merchantName: string | null };

/** Merchant staff are not told which platform employee acted, nor from where. */
function toEntry(r: Row, viewer: SessionUser): AuditEntry {
  const hidePlatformActor = viewer.scope === 'merchant' && r.actorKind === 'platform';
  return {
    id: r.id,
    at: r.at.toISOString(),
    actor: {
      userId: hidePlatformActor ? null : r.actorUserId,
      username: hidePlatformActor ? PLATFORM_STAFF_NAME : r.actorUsername,
      kind: r.actorKind as AuditActorKind,
    },
    merchantId: r.merchantId,
    merchantName: r.merchantName,
    action: r.action as AuditAction,
    targetType: r.targetType,
    targetId: r.targetId,
    before: r.before,
    after: r.after,
    reason: r.reason,
    ip: hidePlatformActor ? null : r.ip,
  };
}

export async function listAudit(ctx: AppContext, viewer: SessionUser, q: AuditListQuery) {
  const w = where(viewer, q);
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({
        id: auditLog.id,
        at: auditLog.at,
        actorUserId: auditLog.actorUserId,
        actorUsername: auditLog.actorUsername,
        actorKind: auditLog.actorKind,
        merchantId: auditLog.merchantId,
        merchantName: merchants.name,
        action: auditLog.action,
        targetType: auditLog.targetType,
        targetId: auditLog.targetId,
        before: auditLog.before,
        after: auditLog.after,
        reason: auditLog.reason,
        ip: auditLog.ip,
      })
      .from(auditLog)
      .leftJoin(merchants, eq(merchants.id, auditLog.merchantId))
      .where(w)
      .orderBy(desc(auditLog.at), desc(auditLog.id))
      .limit(q.size)
      .offset(q.page * q.size),
    ctx.db.select({ n: count() }).from(auditLog).where(w),
  ]);
  return { data: rows.map((r) => toEntry(r, viewer)), total: total?.n ?? 0 };
}

/**
 * Audit.csv, streamed with COPY like the invoice export. COPY takes no bind parameters, so the filter travels as one
 * JSON literal that the statement reads (standard strings: the long reads' connections, lib/copy-out.ts, have them).
 */
export function exportAuditCsv(ctx: AppContext, viewer: SessionUser, f: AuditFilter): Promise<Readable> {
  const filter = auditFilter({
    merchant: viewer.scope === 'merchant' ? viewer.merchantId : (f.merchant ?? null),
    action: f.action ?? null,
    actor: f.actor?.toLowerCase() ?? null,
    from: f.dateFrom ? utcDayRange(parseDdMmYyyy(f.dateFrom)!).start.toISOString() : null,
    to: f.dateTo ? utcDayRange(parseDdMmYyyy(f.dateTo)!).end.toISOString() : null,
    hidePlatformActor: viewer.scope === 'merchant',
  });
  // On the embedded database, keyset batches newest first (lib/copy-out.ts copyInBatches), each its own snapshot:
  // entries written after the export began sort before its first batch and are not in the file.
  return copyOut<AuditKey>(ctx, async () => copyCsv(auditSelect(filter, null, undefined)), {
    async end(client, after, n) {
      const r = await client.query<AuditKey>(`${filter}
          SELECT at::text AS at, id::text AS id FROM (
            SELECT a.at, a.id FROM audit_log a CROSS JOIN f WHERE ${AUDIT_WHERE} ${after ? `AND ${afterKey(after)}` : ''}
            ORDER BY a.at DESC, a.id DESC LIMIT ${Math.trunc(n)}
          ) a ORDER BY a.at ASC, a.id ASC LIMIT 1`);
      return r.rows[0] ?? null;
    },
    copy: (after, until, header) => copyCsv(auditSelect(filter, after, until), header),
  });
}

/** An entry's place in the file's order (newest first), as text that casts back exactly. */
type AuditKey = { at: string; id: string };
const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;
/** Entries after `k` in the order at DESC, id DESC; the `at` bound gives the index scan its start. */
const afterKey = (k: AuditKey) =>
  `a.at <= ${literal(k.at)}::timestamptz AND (a.at < ${literal(k.at)}::timestamptz OR (a.at = ${literal(k.at)}::timestamptz AND a.id < ${literal(k.id)}::bigint))`;
const untilKey = (k: AuditKey) =>
  `a.at >= ${literal(k.at)}::timestamptz AND (a.at > ${literal(k.at)}::timestamptz OR (a.at = ${literal(k.at)}::timestamptz AND a.id >= ${literal(k.id)}::bigint))`;

/** The filter the statements read: `f.j`, the JSON of `filter` as a literal. */
const auditFilter = (filter: Record<string, string | boolean | null>) =>
  `WITH f AS (SELECT ${literal(JSON.stringify(filter))}::jsonb AS j)`;

/**
 * The SELECT of Audit.csv: every entry the filter picks (after === null, until === undefined), or those after `after`
 * up to and including `until` (null: none).
 */
function auditSelect(filter: string, after: AuditKey | null, until: AuditKey | null | undefined) {
  const range = [after ? afterKey(after) : '', until === undefined ? '' : until ? untilKey(until) : 'false']
    .filter(Boolean)
    .map((c) => `AND ${c}`)
    .join(' ');
  return `${filter}
  SELECT
    a.id AS "ID",
    ${isoTime('a.at')} AS "Time",
    a.action AS "Action",
    a.actor_kind AS "Actor Kind",
    CASE WHEN (f.j->>'hidePlatformActor')::boolean AND a.actor_kind = 'platform' THEN 'platform staff'
         ELSE ${safeText('a.actor_username')} END AS "Actor",
    a.merchant_id AS "Merchant ID",
    ${safeText('m.name')} AS "Merchant",
    a.target_type AS "Target Type",
    ${safeText('a.target_id')} AS "Target ID",
    ${safeText('a.before::text')} AS "Before",
    ${safeText('a.after::text')} AS "After",
    ${safeText('a.reason')} AS "Reason",
    CASE WHEN (f.j->>'hidePlatformActor')::boolean AND a.actor_kind = 'platform' THEN NULL ELSE a.ip END AS "IP"
  FROM audit_log a CROSS JOIN f
  LEFT JOIN merchants m ON m.id = a.merchant_id
  WHERE ${AUDIT_WHERE} ${range}
  ORDER BY a.at DESC, a.id DESC`;
}

const AUDIT_WHERE = `(f.j->>'merchant' IS NULL
         OR (f.j->>'merchant' = 'platform' AND a.merchant_id IS NULL)
         OR a.merchant_id::text = f.j->>'merchant')
    AND (f.j->>'action' IS NULL OR a.action = f.j->>'action')
    AND (f.j->>'actor' IS NULL
         OR (NOT (f.j->>'hidePlatformActor')::boolean AND lower(a.actor_username) = f.j->>'actor')
         OR ((f.j->>'hidePlatformActor')::boolean AND (
              (f.j->>'actor' = 'platform staff' AND a.actor_kind = 'platform')
              OR (a.actor_kind <> 'platform' AND lower(a.actor_username) = f.j->>'actor'))))
    AND (f.j->>'from' IS NULL OR a.at >= (f.j->>'from')::timestamptz)
    AND (f.j->>'to' IS NULL OR a.at < (f.j->>'to')::timestamptz)`;
