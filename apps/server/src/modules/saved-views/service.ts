import { and, asc, eq, or, sql } from 'drizzle-orm';
import {
  SAVED_VIEWS_PER_USER,
  savedViewState,
  type SavedView,
  type SavedViewCreateBody,
  type SavedViewState,
  type SavedViewUpdateBody,
  type AuditAction,
} from '@paydesk/contracts';
import type { DbOrTx } from '../../db/create-db';
import { savedViews, terminals, users } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { Caller, SessionUser } from '../../plugins/auth';
import { recordAudit, staffActor } from '../audit/service';

type Row = typeof savedViews.$inferSelect & { ownerFirstName: string; ownerLastName: string };

/** Its owner may delete a view; a team manager may also delete a shared one (someone who left, a stale view). */
const mayDelete = (row: Pick<Row, 'ownerUserId' | 'shared'>, user: SessionUser) =>
  row.ownerUserId === user.id || (row.shared && user.permissions.includes('users.manage'));

function toView(row: Row, user: SessionUser): SavedView {
  return {
    id: row.id,
    name: row.name,
    shared: row.shared,
    // rows were validated on write; parsing again fills defaults a later version may add
    state: savedViewState.parse(row.state),
    owner: { id: row.ownerUserId, name: `${row.ownerFirstName} ${row.ownerLastName}`.trim() },
    mine: row.ownerUserId === user.id,
    canDelete: mayDelete(row, user),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A view just written by its owner, the caller (no need to read it back for the owner's name). */
const ownView = (row: typeof savedViews.$inferSelect, owner: SessionUser) =>
  toView({ ...row, ownerFirstName: owner.firstName, ownerLastName: owner.lastName }, owner);

const selectRows = (db: DbOrTx) =>
  db
    .select({
      id: savedViews.id,
      merchantId: savedViews.merchantId,
      ownerUserId: savedViews.ownerUserId,
      name: savedViews.name,
      shared: savedViews.shared,
      state: savedViews.state,
      createdAt: savedViews.createdAt,
      updatedAt: savedViews.updatedAt,
      ownerFirstName: users.firstName,
      ownerLastName: users.lastName,
    })
    .from(savedViews)
    .innerJoin(users, eq(users.id, savedViews.ownerUserId));

/** The caller's own views on this merchant, then those their team shares, each by name. */
export async function listViews(ctx: AppContext, merchantId: string, user: SessionUser): Promise<SavedView[]> {
  const rows = await selectRows(ctx.db)
    .where(
      and(eq(savedViews.merchantId, merchantId), or(eq(savedViews.ownerUserId, user.id), eq(savedViews.shared, true))),
    )
    .orderBy(sql`${savedViews.ownerUserId} <> ${user.id}`, asc(sql`lower(${savedViews.name})`), asc(savedViews.id));
  return rows.map((r) => toView(r, user));
}

/** A view the caller can see on this merchant, or 404 (another merchant's or someone's private view). */
async function visibleView(db: DbOrTx, merchantId: string, user: SessionUser, id: string): Promise<Row> {
  const [row] = await selectRows(db).where(
    and(
      eq(savedViews.id, id),
      eq(savedViews.merchantId, merchantId),
      or(eq(savedViews.ownerUserId, user.id), eq(savedViews.shared, true)),
    ),
  );
  if (!row) throw new AppError('NOT_FOUND', 'This view does not exist');
  return row;
}

/** A terminal named by a view must be one of the merchant's. */
async function checkTerminal(db: DbOrTx, merchantId: string, state: SavedViewState) {
  if (!state.terminalId) return;
  const [t] = await db
    .select({ id: terminals.id })
    .from(terminals)
    .where(and(eq(terminals.id, state.terminalId), eq(terminals.merchantId, merchantId)));
  if (!t) {
    throw new AppError('VALIDATION_ERROR', 'The view names a terminal of another merchant', {
      'state.terminalId': 'Unknown terminal',
    });
  }
}

/**
 * Every write of one owner's views first locks the owner's row, so the per-user cap and the
 * unique name cannot be raced past by parallel requests.
 */
async function lockOwner(db: DbOrTx, userId: string) {
  await db.execute(sql`SELECT 1 FROM users WHERE id = ${userId} FOR UPDATE`);
}

async function checkNameFree(db: DbOrTx, merchantId: string, userId: string, name: string, exceptId?: string) {
  const [clash] = await db
    .select({ id: savedViews.id })
    .from(savedViews)
    .where(
      and(
        eq(savedViews.merchantId, merchantId),
        eq(savedViews.ownerUserId, userId),
        sql`lower(${savedViews.name}) = lower(${name})`,
        exceptId ? sql`${savedViews.id} <> ${exceptId}` : undefined,
      ),
    );
  if (clash) throw new AppError('DUPLICATE', `You already have a view named '${name}'`, { name: 'Already used' });
}

/** Sharing is visible to a whole team: a shared view's life is in the audit trail. */
async function auditShared(
  tx: DbOrTx,
  caller: Caller,
  action: Extract<AuditAction, `saved_view.${string}`>,
  merchantId: string,
  id: string,
  before: { name: string; shared: boolean } | null,
  after: { name: string; shared: boolean } | null,
  at: Date,
) {
  if (!before?.shared && !after?.shared) return;
  await recordAudit(
    tx,
    staffActor(caller.user, caller.ip),
    { action, merchantId, targetType: 'saved_view', targetId: id, before, after },
    at,
  );
}

export async function createView(
  ctx: AppContext,
  merchantId: string,
  caller: Caller,
  body: SavedViewCreateBody,
): Promise<SavedView> {
  return ctx.db.transaction(async (tx) => {
    await lockOwner(tx, caller.user.id);
    await checkTerminal(tx, merchantId, body.state);
    await checkNameFree(tx, merchantId, caller.user.id, body.name);
    const [kept] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(savedViews)
      .where(and(eq(savedViews.merchantId, merchantId), eq(savedViews.ownerUserId, caller.user.id)));
    if ((kept?.n ?? 0) >= SAVED_VIEWS_PER_USER) {
      throw new AppError('CONFLICT', `You can keep at most ${SAVED_VIEWS_PER_USER} views; delete one first`);
    }
    const now = ctx.now();
    const [created] = await tx
      .insert(savedViews)
      .values({
        merchantId,
        ownerUserId: caller.user.id,
        name: body.name,
        shared: body.shared,
        state: body.state,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await auditShared(tx, caller, 'saved_view.created', merchantId, created!.id, null, body, now);
    return ownView(created!, caller.user);
  });
}

export async function updateView(
  ctx: AppContext,
  merchantId: string,
  caller: Caller,
  id: string,
  body: SavedViewUpdateBody,
): Promise<SavedView> {
  return ctx.db.transaction(async (tx) => {
    await lockOwner(tx, caller.user.id);
    const row = await visibleView(tx, merchantId, caller.user, id);
    if (row.ownerUserId !== caller.user.id) {
      throw new AppError('FORBIDDEN', 'Only the person who saved this view can change it');
    }
    if (body.state) await checkTerminal(tx, merchantId, body.state);
    if (body.name !== undefined) await checkNameFree(tx, merchantId, caller.user.id, body.name, id);
    const now = ctx.now();
    const next = { name: body.name ?? row.name, shared: body.shared ?? row.shared };
    const [updated] = await tx
      .update(savedViews)
      .set({ ...next, ...(body.state ? { state: body.state } : {}), updatedAt: now })
      .where(and(eq(savedViews.id, id), eq(savedViews.merchantId, merchantId)))
      .returning();
    await auditShared(tx, caller, 'saved_view.changed', merchantId, id, row, next, now);
    return ownView(updated!, caller.user);
  });
}

export async function deleteView(ctx: AppContext, merchantId: string, caller: Caller, id: string) {
  await ctx.db.transaction(async (tx) => {
    const row = await visibleView(tx, merchantId, caller.user, id);
    if (!mayDelete(row, caller.user)) {
      throw new AppError('FORBIDDEN', 'Only the person who saved this view or a team manager can delete it');
    }
    await tx.delete(savedViews).where(and(eq(savedViews.id, id), eq(savedViews.merchantId, merchantId)));
    await auditShared(tx, caller, 'saved_view.deleted', merchantId, id, row, null, ctx.now());
  });
}
