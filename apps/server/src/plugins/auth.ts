import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SignJWT, jwtVerify } from 'jose';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import {
  effectivePermissions,
  isPlatformPermission,
  userScope,
  refusalMessage,
  type Access,
  type Permission,
  type RoleScope,
} from '@paydesk/contracts';
import { merchants, roles, sessions, settings, users } from '../db/schema';
import { AppError } from '../lib/errors';
import type { AppContext } from '../lib/context';
import type { DbOrTx } from '../db/create-db';
import { crossSiteRefusal, isStateChanging } from './csrf';

export type SessionUser = {
  id: string;
  sessionId: string;
  username: string;
  firstName: string;
  lastName: string;
  merchantId: string | null;
  /** platform staff (no merchant) or merchant staff */
  scope: RoleScope;
  roleId: number;
  roleName: string;
  /** The role's permissions that this user's scope may hold (effectivePermissions): the only list any check reads. */
  permissions: Permission[];
  mustChangePassword: boolean;
  twoFactorEnabled: boolean;
  /** required by the platform (platform staff, REQUIRE_2FA_PLATFORM) or by the user's merchant */
  twoFactorRequired: boolean;
  /** required but not set up: only the setup (and me, sign-out, change password) works until it is */
  mustSetUpTwoFactor: boolean;
};

/**
 * Every route under a staff prefix declares its access rule, checked before the handler:
 * 'public' (login), 'session' (any signed-in user) or the permissions it needs (all of them),
 * optionally only for platform staff.
 */
export type RouteAuth = Exclude<Access, 'merchant' | 'provider'>;

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth;
    /** Reachable while the user still has a one-time password (me, change password). */
    allowTemporaryPassword?: boolean;
    /** Reachable while a required second factor is not set up yet (me, the setup itself). */
    allowBeforeTwoFactor?: boolean;
  }
  interface FastifyRequest {
    user?: SessionUser;
  }
}

const STAFF_PREFIXES = ['/api/v1/', '/api/data/', '/api/router/'];
export const COOKIE_NAME = 'jwt';
const SECRET_KEY = 'internal.jwt_secret';

/**
 * The one enforcement point of route permissions (docs/architecture.md, "Who is who"): may this user pass a guard
 * naming these permissions?
 * A merchant user never passes a guard that names a platform permission, whatever its role says.
 */
export function guardRefusal(user: SessionUser, auth: Exclude<RouteAuth, 'public' | 'session'>): string | null {
  if (user.scope !== 'platform' && (auth.platformOnly || auth.all.some(isPlatformPermission))) {
    return 'Only platform staff may do this.';
  }
  const missing = auth.all.filter((p) => !user.permissions.includes(p));
  return missing.length ? refusalMessage(missing) : null;
}

async function loadJwtSecret(ctx: AppContext): Promise<Uint8Array> {
  if (ctx.config.jwtSecret) return new TextEncoder().encode(ctx.config.jwtSecret);
  // One secret for every process on this database, made once.
  await ctx.db
    .insert(settings)
    .values({ key: SECRET_KEY, value: randomBytes(48).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await ctx.db.select().from(settings).where(eq(settings.key, SECRET_KEY));
  return new TextEncoder().encode(row!.value);
}

/**
 * Ends a user's sessions (all of them, or all but the one that asked): a password change or reset, a second factor
 * turned on, off or reset, a user disabled. The session check reads `revoked_at` on every request.
 */
export function endSessions(db: DbOrTx, userId: string, at: Date, keep?: string) {
  return db
    .update(sessions)
    .set({ revokedAt: at })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), keep ? ne(sessions.id, keep) : undefined));
}

export async function issueSessionToken(ctx: AppContext, secret: Uint8Array, userId: string) {
  const expiresAt = new Date(ctx.now().getTime() + ctx.config.sessionTtlHours * 3600_000);
  const [s] = await ctx.db.insert(sessions).values({ userId, expiresAt }).returning({ id: sessions.id });
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(userId)
    .setJti(s!.id)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(secret);
  return { token, expiresAt };
}

export async function userFromToken(ctx: AppContext, secret: Uint8Array, token: string): Promise<SessionUser | null> {
  let jti: string | undefined;
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
    jti = payload.jti;
  } catch {
    return null;
  }
  if (!jti || !/^[0-9a-f-]{36}$/i.test(jti)) return null;
  const [row] = await ctx.db
    .select({
      id: users.id,
      username: users.username,
      firstName: users.firstName,
      lastName: users.lastName,
      merchantId: users.merchantId,
      roleId: roles.id,
      roleName: roles.name,
      rolePermissions: roles.permissions,
      mustChangePassword: users.mustChangePassword,
      totpEnabledAt: users.totpEnabledAt,
      merchantRequiresTwoFactor: merchants.requireTwoFactor,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(roles, eq(roles.id, users.roleId))
    .leftJoin(merchants, eq(merchants.id, users.merchantId))
    .where(
      and(
        eq(sessions.id, jti),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`now()`),
        isNull(users.disabledAt),
      ),
    );
  if (!row) return null;
  // permissions are read fresh on every request: a role change applies to the very next one
  const { rolePermissions, totpEnabledAt, merchantRequiresTwoFactor, ...rest } = row;
  const scope = userScope(row.merchantId);
  const twoFactorRequired = twoFactorRequiredFor(ctx, scope, merchantRequiresTwoFactor ?? false);
  return {
    ...rest,
    scope,
    permissions: effectivePermissions(rolePermissions, scope),
    sessionId: jti,
    twoFactorEnabled: totpEnabledAt !== null,
    twoFactorRequired,
    mustSetUpTwoFactor: twoFactorRequired && totpEnabledAt === null,
  };
}

/** PCI DSS 8.4.2: platform staff see card numbers, so production requires their second factor. */
function twoFactorRequiredFor(ctx: AppContext, scope: RoleScope, merchantRequires: boolean): boolean {
  return scope === 'platform' ? ctx.config.require2faPlatform : merchantRequires;
}

export async function registerAuth(app: FastifyInstance, ctx: AppContext) {
  const secret = await loadJwtSecret(ctx);
  app.decorate('jwtSecret', secret);

  /**
   * A signed-in staff route's first check: the session, then the route's guard (route.config.auth), both read once
   * when the route is registered.
   */
  const authenticateFor = (config: {
    auth: Exclude<RouteAuth, 'public'>;
    allowTemporaryPassword?: boolean;
    allowBeforeTwoFactor?: boolean;
  }) => {
    const { auth, allowTemporaryPassword = false, allowBeforeTwoFactor = false } = config;
    return async (req: FastifyRequest, _reply: FastifyReply) => {
      const token = req.cookies[COOKIE_NAME];
      const user = token ? await userFromToken(ctx, secret, token) : null;
      if (!user) throw new AppError('UNAUTHORIZED', 'Sign in to continue');
      // a change made with the session cookie must prove that this site's own pages sent it (plugins/csrf.ts)
      if (isStateChanging(req.method)) {
        const refusal = crossSiteRefusal(req, ctx.config, true);
        if (refusal) throw new AppError('CSRF_REJECTED', refusal);
      }
      req.user = user;
      if (user.mustChangePassword && !allowTemporaryPassword) {
        throw new AppError('PASSWORD_CHANGE_REQUIRED', 'Choose a new password before you continue');
      }
      if (user.mustSetUpTwoFactor && !allowBeforeTwoFactor) {
        throw new AppError('TWO_FACTOR_SETUP_REQUIRED', 'Set up two-factor sign-in before you continue');
      }
      if (typeof auth === 'object') {
        const refusal = guardRefusal(user, auth);
        if (refusal) throw new AppError('FORBIDDEN', refusal);
      }
    };
  };

  /**
   * The public staff routes that change state (sign-in, the second step, sign-out): a browser's word that another
   * site's page sent it is refused (login CSRF: signing the victim in to the attacker's account). Without a session
   * cookie a client that says nothing (a script signing in) is let through; with one, the request acts on that
   * session (sign-out ends it) and needs the same proof as any other change made with it.
   */
  const refuseCrossSite = async (req: FastifyRequest) => {
    const refusal = crossSiteRefusal(req, ctx.config, req.cookies[COOKIE_NAME] !== undefined);
    if (refusal) throw new AppError('CSRF_REJECTED', refusal);
  };

  const table: StaffRoute[] = [];
  app.decorate('staffRoutes', table);
  app.addHook('onRoute', (route) => {
    const url = route.url;
    const auth = route.config?.auth;
    const staff = STAFF_PREFIXES.some((p) => url.startsWith(p));
    // on the routes that need a session only: the merchant API, the payment form and the rest pay nothing for it
    if (auth && auth !== 'public') {
      const authenticate = authenticateFor({ ...route.config, auth });
      route.onRequest = [authenticate, ...[route.onRequest ?? []].flat()];
    } else if (auth === 'public' && staff && [route.method].flat().some(isStateChanging)) {
      route.onRequest = [refuseCrossSite, ...[route.onRequest ?? []].flat()];
    }
    if (!staff) return;
    if (!auth) throw new Error(`Route ${route.method} ${url} must declare config.auth`);
    for (const method of [route.method].flat()) if (method !== 'HEAD') table.push({ method, url, auth });
  });
}

/** Every staff route with its declared access rule: what the permission matrix test walks. */
type StaffRoute = { method: string; url: string; auth: RouteAuth };

declare module 'fastify' {
  interface FastifyInstance {
    jwtSecret: Uint8Array;
    staffRoutes: readonly StaffRoute[];
  }
}

/** A signed-in person acting through the back-office, and from where: what services that check and audit take. */
export type Caller = { user: SessionUser; ip: string };

/** Who acts and from where, as services that audit take it. */
export const currentCaller = (req: FastifyRequest): Caller => ({ user: currentUser(req), ip: req.ip });

/** The signed-in user; only valid on routes whose auth is not 'public'. */
export function currentUser(req: FastifyRequest): SessionUser {
  if (!req.user) throw new AppError('UNAUTHORIZED', 'Sign in to continue');
  return req.user;
}
