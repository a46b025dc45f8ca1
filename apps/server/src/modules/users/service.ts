import { randomBytes } from 'node:crypto';
import { and, asc, count, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import {
  effectivePermissions,
  userScope,
  type Role,
  type RoleCreateBody,
  type RoleScope,
  type RoleUpdateBody,
  type TeamUser,
  type UserCreateBody,
  type UserListQuery,
} from '@paydesk/contracts';
import type { Tx } from '../../db/create-db';
import { merchants, roles, users } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors';
import { hashPassword } from '../../lib/password';
import { endSessions, type Caller, type SessionUser } from '../../plugins/auth';
import { removeSecondFactor } from '../auth/service';
import { recordAudit, staffActor } from '../audit/service';

/**
 * The team: staff users and their roles (docs/architecture.md, "Who is who"). Rules, whoever calls:
 * - a merchant's staff see and edit only their merchant's users, and give only merchant roles;
 * - nobody gives (or edits a role to hold) a permission it does not hold itself, nor edits a user
 *   whose role holds more than it does;
 * - at least one enabled platform user keeps users.manage (the last platform admin cannot be locked out);
 * - disabling or resetting a password revokes the user's sessions; a role change applies on the next
 *   request because permissions are read on every request.
 */

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

const lastSignIn = (id: typeof users.id) =>
  sql<Date | null>`(SELECT max(s.created_at) FROM sessions s WHERE s.user_id = ${id})`.mapWith((v) =>
    v ? new Date(v as string) : null,
  );

const userColumns = {
  id: users.id,
  username: users.username,
  firstName: users.firstName,
  lastName: users.lastName,
  merchantId: users.merchantId,
  merchantName: merchants.name,
  roleId: roles.id,
  roleName: roles.name,
  disabledAt: users.disabledAt,
  mustChangePassword: users.mustChangePassword,
  totpEnabledAt: users.totpEnabledAt,
  lastSignInAt: lastSignIn(users.id),
  createdAt: users.createdAt,
};

type UserRow = {
  id: string;
  username: string;
  firstName: string;
  lastName: string;
  merchantId: string | null;
  merchantName: string | null;
  roleId: number;
  roleName: string;
  disabledAt: Date | null;
  mustChangePassword: boolean;
  totpEnabledAt: Date | null;
  lastSignInAt: Date | null;
  createdAt: Date;
};

const toTeamUser = (r: UserRow): TeamUser => ({
  id: r.id,
  username: r.username,
  firstName: r.firstName,
  lastName: r.lastName,
  merchantId: r.merchantId,
  merchantName: r.merchantName,
  scope: userScope(r.merchantId),
  role: { id: r.roleId, name: r.roleName },
  disabled: r.disabledAt !== null,
  mustChangePassword: r.mustChangePassword,
  twoFactorEnabled: r.totpEnabledAt !== null,
  lastSignInAt: r.lastSignInAt ? r.lastSignInAt.toISOString() : null,
  createdAt: r.createdAt.toISOString(),
});

function selectUsers(db: AppContext['db'] | Tx) {
  return db
    .select(userColumns)
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .leftJoin(merchants, eq(merchants.id, users.merchantId));
}

/** Which users a viewer may see at all: its own merchant's, or every one for platform staff. */
const visibleTo = (viewer: SessionUser): SQL | undefined =>
  viewer.scope === 'merchant' ? eq(users.merchantId, viewer.merchantId!) : undefined;

export async function listUsers(ctx: AppContext, viewer: SessionUser, q: UserListQuery): Promise<TeamUser[]> {
  const byMerchant =
    viewer.scope === 'merchant' || !q.merchant
      ? undefined
      : q.merchant === 'platform'
        ? isNull(users.merchantId)
        : eq(users.merchantId, q.merchant);
  const search = q.search ? `%${escapeLike(q.search)}%` : undefined;
  const rows = await selectUsers(ctx.db)
    .where(
      and(
        visibleTo(viewer),
        byMerchant,
        search
          ? or(ilike(users.username, search), ilike(users.firstName, search), ilike(users.lastName, search))
          : undefined,
      ),
    )
    .orderBy(asc(merchants.name), asc(users.username))
    .limit(1000);
  return rows.map(toTeamUser);
}

async function getTeamUser(db: AppContext['db'] | Tx, id: string): Promise<TeamUser> {
  const [row] = await selectUsers(db).where(eq(users.id, id));
  if (!row) throw notFound('User');
  return toTeamUser(row);
}

/* ---- roles ---- */

type RoleRow = typeof roles.$inferSelect;

const holdsAll = (holder: readonly string[], perms: readonly string[]) => perms.every((p) => holder.includes(p));

function toRole(r: RoleRow, userCount: number, viewer: SessionUser): Role {
  const scope = r.scope as RoleScope;
  return {
    id: r.id,
    code: r.code,
    name: r.name,
    scope,
    description: r.description,
    permissions: effectivePermissions(r.permissions, scope),
    preset: r.code !== null,
    userCount,
    assignable: (viewer.scope === 'platform' || scope === 'merchant') && holdsAll(viewer.permissions, r.permissions),
  };
}

export async function listRoles(ctx: AppContext, viewer: SessionUser): Promise<Role[]> {
  const rows = await ctx.db
    .select({ role: roles, n: count(users.id) })
    .from(roles)
    .leftJoin(
      users,
      and(
        eq(users.roleId, roles.id),
        viewer.scope === 'merchant' ? eq(users.merchantId, viewer.merchantId!) : undefined,
      ),
    )
    .where(viewer.scope === 'merchant' ? eq(roles.scope, 'merchant') : undefined)
    .groupBy(roles.id)
    .orderBy(asc(roles.scope), asc(roles.code), asc(roles.name));
  return rows.map((r) => toRole(r.role, r.n, viewer));
}

async function roleById(tx: Tx, id: number): Promise<RoleRow> {
  const [r] = await tx.select().from(roles).where(eq(roles.id, id));
  if (!r) throw badRequest('Role not found', { roleId: 'Choose an existing role' });
  return r;
}

function assertMayGrant(actor: SessionUser, perms: readonly string[]) {
  if (!holdsAll(actor.permissions, perms)) {
    throw forbidden('You cannot give a role with permissions you do not hold');
  }
}

/** Serialises every change that could remove the last platform admin (two admins demoting each other). */
const lockAdmins = (tx: Tx) => tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('paydesk.platform-admins'))`);

/** Run inside the change's transaction, after it: at least one enabled platform user must keep users.manage. */
async function assertPlatformAdminRemains(tx: Tx, what: string) {
  const [row] = await tx
    .select({ n: count() })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(
      and(
        isNull(users.merchantId),
        isNull(users.disabledAt),
        sql`${roles.permissions} @> ARRAY['users.manage']::text[]`,
      ),
    );
  if ((row?.n ?? 0) === 0) {
    throw new AppError('CONFLICT', `${what}: it would leave the platform without an admin who can manage users`);
  }
}

async function assertRoleNameFree(tx: Tx, name: string, exceptId?: number) {
  const [clash] = await tx
    .select({ id: roles.id })
    .from(roles)
    .where(eq(sql`lower(${roles.name})`, name.toLowerCase()));
  if (clash && clash.id !== exceptId) {
    throw new AppError('DUPLICATE', `A role named '${name}' already exists`, { name: 'This name is taken' });
  }
}

export async function createRole(ctx: AppContext, actor: Caller, body: RoleCreateBody): Promise<Role> {
  assertMayGrant(actor.user, body.permissions);
  return ctx.db.transaction(async (tx) => {
    await assertRoleNameFree(tx, body.name);
    const [r] = await tx
      .insert(roles)
      .values({ name: body.name, scope: body.scope, description: body.description, permissions: body.permissions })
      .returning();
    await recordAudit(
      tx,
      staffActor(actor.user, actor.ip),
      {
        action: 'role.created',
        targetType: 'role',
        targetId: r!.id,
        after: { name: r!.name, scope: r!.scope, permissions: r!.permissions },
      },
      ctx.now(),
    );
    return toRole(r!, 0, actor.user);
  });
}

export async function updateRole(ctx: AppContext, actor: Caller, id: number, body: RoleUpdateBody): Promise<Role> {
  return ctx.db.transaction(async (tx) => {
    await lockAdmins(tx);
    const [before] = await tx.select().from(roles).where(eq(roles.id, id)).for('update');
    if (!before) throw notFound('Role');
    if (before.code) throw new AppError('CONFLICT', `${before.name} is a preset role; create a custom role instead`);
    // both what it held and what it will hold: a lesser admin cannot strip or widen a bigger role
    assertMayGrant(actor.user, [...before.permissions, ...body.permissions]);
    if (
      before.scope === 'merchant' &&
      effectivePermissions(body.permissions, 'merchant').length !== body.permissions.length
    ) {
      throw badRequest('A merchant role cannot hold platform permissions', {
        permissions: 'A merchant role cannot hold platform permissions',
      });
    }
    await assertRoleNameFree(tx, body.name, id);
    const [r] = await tx
      .update(roles)
      .set({ name: body.name, description: body.description, permissions: body.permissions, updatedAt: ctx.now() })
      .where(eq(roles.id, id))
      .returning();
    await assertPlatformAdminRemains(tx, 'This role cannot lose users.manage');
    await recordAudit(
      tx,
      staffActor(actor.user, actor.ip),
      {
        action: 'role.updated',
        targetType: 'role',
        targetId: id,
        before: { name: before.name, description: before.description, permissions: before.permissions },
        after: { name: r!.name, description: r!.description, permissions: r!.permissions },
      },
      ctx.now(),
    );
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(users).where(eq(users.roleId, id));
    return toRole(r!, n, actor.user);
  });
}

/* ---- users ---- */

/** 16 characters from a CSPRNG (96 bits), readable enough to dictate. */
const temporaryPassword = () => randomBytes(12).toString('base64url');

async function assertUsernameFree(tx: Tx, username: string) {
  const [clash] = await tx.select({ id: users.id }).from(users).where(eq(users.username, username));
  if (clash)
    throw new AppError('DUPLICATE', `The username '${username}' is taken`, { username: 'This username is taken' });
}

function assertRoleFits(role: RoleRow, scope: RoleScope) {
  if (role.scope !== scope) {
    throw badRequest(
      scope === 'merchant'
        ? `${role.name} is a platform role; a merchant user cannot hold it`
        : `${role.name} is a merchant role; give platform staff a platform role`,
      { roleId: `Choose a ${scope} role` },
    );
  }
}

export async function createUser(
  ctx: AppContext,
  actor: Caller,
  body: UserCreateBody,
): Promise<{ user: TeamUser; temporaryPassword: string }> {
  const me = actor.user;
  let merchantId: string | null;
  if (me.scope === 'merchant') {
    if (body.merchantId !== undefined && body.merchantId !== me.merchantId) {
      throw forbidden('You can add users to your own merchant only');
    }
    merchantId = me.merchantId;
  } else {
    merchantId = body.merchantId ?? null;
  }
  const password = temporaryPassword();
  const passwordHash = await hashPassword(password);
  return ctx.db.transaction(async (tx) => {
    if (merchantId) {
      const [m] = await tx.select({ id: merchants.id }).from(merchants).where(eq(merchants.id, merchantId));
      if (!m) throw badRequest('Merchant not found', { merchantId: 'Choose an existing merchant' });
    }
    const role = await roleById(tx, body.roleId);
    assertRoleFits(role, userScope(merchantId));
    assertMayGrant(me, role.permissions);
    await assertUsernameFree(tx, body.username);
    const [u] = await tx
      .insert(users)
      .values({
        username: body.username,
        passwordHash,
        firstName: body.firstName,
        lastName: body.lastName,
        merchantId,
        roleId: role.id,
        mustChangePassword: true,
        createdAt: ctx.now(),
      })
      .returning({ id: users.id });
    await recordAudit(
      tx,
      staffActor(actor.user, actor.ip),
      {
        action: 'user.created',
        merchantId,
        targetType: 'user',
        targetId: u!.id,
        after: { username: body.username, firstName: body.firstName, lastName: body.lastName, role: role.name },
      },
      ctx.now(),
    );
    return { user: await getTeamUser(tx, u!.id), temporaryPassword: password };
  });
}

/** Locks a user the actor may edit: visible to it, not itself, and holding nothing the actor does not hold. */
async function lockEditable(tx: Tx, actor: SessionUser, id: string, action: string) {
  const [target] = await tx
    .select({ user: users, role: roles })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(and(eq(users.id, id), visibleTo(actor)))
    .for('update', { of: users });
  if (!target) throw notFound('User');
  if (target.user.id === actor.id) throw forbidden(`You cannot ${action} yourself`);
  if (!holdsAll(actor.permissions, target.role.permissions)) {
    throw forbidden(`You cannot ${action} a user whose role holds permissions you do not hold`);
  }
  return target;
}

export async function changeUserRole(ctx: AppContext, actor: Caller, id: string, roleId: number): Promise<TeamUser> {
  return ctx.db.transaction(async (tx) => {
    await lockAdmins(tx);
    const target = await lockEditable(tx, actor.user, id, 'change the role of');
    const role = await roleById(tx, roleId);
    assertRoleFits(role, userScope(target.user.merchantId));
    assertMayGrant(actor.user, role.permissions);
    if (role.id === target.role.id)
      throw new AppError('CONFLICT', `${target.user.username} already has the role ${role.name}`);
    await tx.update(users).set({ roleId: role.id }).where(eq(users.id, id));
    await assertPlatformAdminRemains(tx, 'This role change is refused');
    await recordAudit(
      tx,
      staffActor(actor.user, actor.ip),
      {
        action: 'user.role_changed',
        merchantId: target.user.merchantId,
        targetType: 'user',
        targetId: id,
        before: { username: target.user.username, role: target.role.name },
        after: { username: target.user.username, role: role.name },
      },
      ctx.now(),
    );
    return getTeamUser(tx, id);
  });
}

export async function setUserDisabled(
  ctx: AppContext,
  actor: Caller,
  id: string,
  disabled: boolean,
): Promise<TeamUser> {
  return ctx.db.transaction(async (tx) => {
    await lockAdmins(tx);
    const target = await lockEditable(tx, actor.user, id, disabled ? 'disable' : 'enable');
    const was = target.user.disabledAt !== null;
    if (was === disabled) {
      throw new AppError('CONFLICT', `${target.user.username} is already ${disabled ? 'disabled' : 'enabled'}`);
    }
    const now = ctx.now();
    await tx
      .update(users)
      .set(disabled ? { disabledAt: now } : { disabledAt: null, failedLogins: 0, lockedUntil: null })
      .where(eq(users.id, id));
    if (disabled) {
      await endSessions(tx, id, now);
      await assertPlatformAdminRemains(tx, 'This user cannot be disabled');
    }
    await recordAudit(
      tx,
      staffActor(actor.user, actor.ip),
      {
        action: disabled ? 'user.disabled' : 'user.enabled',
        merchantId: target.user.merchantId,
        targetType: 'user',
        targetId: id,
        before: { username: target.user.username, disabled: was },
        after: { username: target.user.username, disabled },
      },
      now,
    );
    return getTeamUser(tx, id);
  });
}

export async function resetUserPassword(
  ctx: AppContext,
  actor: Caller,
  id: string,
): Promise<{ user: TeamUser; temporaryPassword: string }> {
  const password = temporaryPassword();
  const passwordHash = await hashPassword(password);
  return ctx.db.transaction(async (tx) => {
    const target = await lockEditable(tx, actor.user, id, 'reset the password of');
    const now = ctx.now();
    await tx
      .update(users)
      .set({ passwordHash, mustChangePassword: true, failedLogins: 0, lockedUntil: null })
      .where(eq(users.id, id));
    await endSessions(tx, id, now);
    await recordAudit(
      tx,
      staffActor(actor.user, actor.ip),
      {
        action: 'user.password_reset',
        merchantId: target.user.merchantId,
        targetType: 'user',
        targetId: id,
        after: { username: target.user.username, mustChangePassword: true },
      },
      now,
    );
    return { user: await getTeamUser(tx, id), temporaryPassword: password };
  });
}

/**
 * A platform admin resets a user's second factor (a lost phone and no recovery codes): the secret and the
 * recovery codes go, the user's sessions end; where a second factor is required the user sets up a new one at
 * the next sign-in.
 */
export async function resetUserTwoFactor(ctx: AppContext, actor: Caller, id: string): Promise<TeamUser> {
  return ctx.db.transaction(async (tx) => {
    const target = await lockEditable(tx, actor.user, id, 'reset two-factor sign-in of');
    if (!target.user.totpEnabledAt && !target.user.totpPendingSecret) {
      throw new AppError('INVALID_STATE', `${target.user.username} has no two-factor sign-in to reset`);
    }
    const now = ctx.now();
    await removeSecondFactor(tx, id);
    await endSessions(tx, id, now);
    await recordAudit(
      tx,
      staffActor(actor.user, actor.ip),
      {
        action: 'user.two_factor_reset',
        merchantId: target.user.merchantId,
        targetType: 'user',
        targetId: id,
        before: { username: target.user.username, twoFactorEnabled: target.user.totpEnabledAt !== null },
        after: { twoFactorEnabled: false, sessionsEnded: true },
      },
      now,
    );
    return getTeamUser(tx, id);
  });
}
