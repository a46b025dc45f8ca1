import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MERCHANT_PERMISSIONS, PRESET_ROLES, type Permission, type PresetRoleCode } from '@paydesk/contracts';
import { roles, users } from '../db/schema';
import { createTestApp, loginAs, type TestApp } from '../../test/harness';
import { guardRefusal, type RouteAuth, type SessionUser } from './auth';

/**
 * The permission matrix (docs/architecture.md, "Who is who"), generated from the route table: every staff route ×
 * every preset role (and no session) gets exactly the answer the rules below imply. A route added without
 * an entry below fails the first test, so every new route's rule is reviewed here.
 */
type Rule = 'public' | 'session' | Permission[] | { platformOnly: true; all: Permission[] };

const RULES: Record<string, Rule> = {
  'POST /api/v1/login': 'public',
  'POST /api/v1/logout': 'public',
  'GET /api/v1/people/me': 'session',
  'POST /api/v1/login/second-factor': 'public',
  'POST /api/v1/user/change_password': 'session',
  'GET /api/v1/user/two-factor': 'session',
  'POST /api/v1/user/two-factor/setup': 'session',
  'POST /api/v1/user/two-factor/enable': 'session',
  'POST /api/v1/user/two-factor/disable': 'session',
  'POST /api/v1/user/two-factor/recovery-codes': 'session',
  'GET /api/v1/settings/:setting': ['settings.read'],
  'POST /api/v1/settings/:setting': ['settings.edit'],
  'GET /api/v1/merchant/me': ['merchant.read'],
  'GET /api/v1/merchant': ['merchant.rw.all'],
  'PUT /api/v1/merchant/:id': ['merchant.read'],
  'PUT /api/v1/merchant/:id/public-key': ['merchant.key.edit'],
  'POST /api/v1/merchant/:id/webhook-secret': ['merchant.key.edit'],
  'PUT /api/v1/merchant/:id/two-factor-policy': ['users.manage'],
  'POST /api/v1/merchant': ['merchant.rw.all'],
  'GET /api/v1/terminal': 'session',
  'GET /api/v1/terminal/:id': 'session',
  // rename (terminal.create) and/or attributes (terminal.attr.read), checked per field in the service
  'PATCH /api/v1/terminal/:id': 'session',
  'PUT /api/v1/terminal/:id': ['terminal.create', 'terminal.attr.read'],
  'DELETE /api/v1/terminal/:id': ['terminal.attr.read'],
  'POST /api/v1/merchant/:merchantId/terminal': ['terminal.create'],
  'PATCH /api/v1/people/me/testDashboard': ['terminal.prod.change'],
  'GET /api/v1/reference': 'session',
  'GET /api/v1/reference/currency': 'session',
  'GET /api/v1/provider': 'session',
  'GET /api/v1/payment-method': 'session',
  'GET /api/v1/terminal/pool': 'session',
  'GET /api/v1/people/account': ['people.account'],
  'GET /api/v1/people/account/:id': ['people.account'],
  'PATCH /api/v1/people/account/:id': ['people.account', 'people.account.edit'],
  'POST /api/v1/people/create': ['people.account', 'people.account.edit'],
  'POST /api/v1/people/account/credentials': ['people.account', 'people.account.edit'],
  'PUT /api/v1/people/account/credentials/:credentialId': ['people.account', 'people.account.edit'],
  'DELETE /api/v1/people/account/credentials/:credentialId': ['people.account', 'people.account.edit'],
  'GET /api/router/v1/people/account/limit/:id': ['people.account'],
  'PUT /api/router/v1/people/account/limit/:id': ['people.account', 'people.account.edit'],
  'GET /api/v1/ledger/reconciliation': { platformOnly: true, all: ['data.terminal.statistic'] },
  'GET /api/v1/merchant/balance': ['merchant.read.finance'],
  'GET /api/v1/merchant/deposit': ['merchant.read.finance'],
  'GET /api/v1/merchant/withdrawal': ['merchant.read.finance'],
  'GET /api/v1/merchant/callback': ['merchant.callback.read'],
  'POST /api/v1/merchant/callback': ['merchant.callback.edit'],
  // deliveries across invoices: merchant staff their own merchant's, platform staff any (scoped in the service)
  'GET /api/v1/callbacks': ['merchant.callback.read'],
  'GET /api/v1/callbacks/health': ['merchant.callback.read'],
  'POST /api/v1/callbacks/replay': ['merchant.callback.edit'],
  'POST /api/v1/invoice/retry': ['invoice.retry'],
  'GET /api/v1/invoice': 'session',
  'GET /api/v1/invoice/csv': 'session',
  'GET /api/v1/invoice/count': 'session',
  'GET /api/v1/invoice/:id': 'session',
  // test invoices: anyone who sees them (contracts' canChangeStatus); live ones: invoice.status.change, checked in
  // the service
  'PATCH /api/v1/invoice/status': 'session',
  'PATCH /api/v1/invoice/amount': ['invoice.amount.change'],
  'GET /api/v1/event/status': 'session',
  'GET /api/v1/event/error': ['invoice.error.read'],
  'GET /api/v1/event/invoice': ['invoice.event.read'],
  'GET /api/v1/transaction/invoice': ['invoice.transaction.read'],
  'GET /api/v1/dictionary/:name': 'session',
  'GET /api/v1/merchant/support/:invoiceId': 'session',
  'POST /api/v1/merchant/support/approve': ['ticket.decision'],
  'POST /api/v1/merchant/support/reject': ['ticket.decision'],
  'GET /api/v1/saved-views': 'session',
  'POST /api/v1/saved-views': 'session',
  'PATCH /api/v1/saved-views/:id': 'session',
  'DELETE /api/v1/saved-views/:id': 'session',
  'GET /api/data/v1/terminal': ['data.terminal.statistic'],
  'GET /api/v1/terminal/statistic': ['terminal.statistic.settings'],
  'GET /api/v1/report/invoice': ['merchant.read.report', 'report.read.invoice'],
  'GET /api/v1/report/balance': ['merchant.read.report', 'report.read.balance'],
  'GET /api/v1/report/provider': ['merchant.read.report', 'report.read.provider'],
  'GET /api/v1/report/pool/balance': ['merchant.read.report', 'report.read.pool.balance'],
  'POST /api/v1/settlement': ['settlement.create'],
  'GET /api/v1/users': ['users.manage'],
  'POST /api/v1/users': ['users.manage'],
  'PUT /api/v1/users/:id/role': ['users.manage'],
  'PUT /api/v1/users/:id/status': ['users.manage'],
  'POST /api/v1/users/:id/password-reset': ['users.manage'],
  'POST /api/v1/users/:id/two-factor-reset': { platformOnly: true, all: ['users.manage'] },
  'GET /api/v1/roles': ['users.manage'],
  'POST /api/v1/roles': { platformOnly: true, all: ['users.manage'] },
  'PUT /api/v1/roles/:id': { platformOnly: true, all: ['users.manage'] },
  'GET /api/v1/audit': ['audit.read'],
  'GET /api/v1/audit/csv': ['audit.read'],
  // the operations desk: the whole platform's exceptions, platform staff only
  'GET /api/v1/people/account/health': ['people.account'],
  'POST /api/v1/people/account/:id/pause': ['people.account', 'people.account.edit'],
  'POST /api/v1/people/account/:id/resume': ['people.account', 'people.account.edit'],
  'GET /api/v1/people/account/pause-rule': ['people.account'],
  'POST /api/v1/invoice/:id/credentials/reveal': ['invoice.credentials.read'],
  // two-person control: who may set a policy or decide a request depends on its action (approvals/service.ts)
  'GET /api/v1/approval-policies': ['users.manage'],
  'PUT /api/v1/approval-policies/:action': 'session',
  'GET /api/v1/approvals': 'session',
  'GET /api/v1/approvals/count': 'session',
  'GET /api/v1/approvals/:id': 'session',
  'POST /api/v1/approvals/:id/approve': 'session',
  'POST /api/v1/approvals/:id/reject': 'session',
  'POST /api/v1/people/account/credentials/:credentialId/reveal': ['people.account', 'invoice.credentials.read'],
  'PUT /api/v1/people/account/pause-rule': ['people.account', 'people.account.edit'],
  'GET /api/v1/exceptions/summary': { platformOnly: true, all: ['exceptions.read'] },
  'GET /api/v1/exceptions/stuck': { platformOnly: true, all: ['exceptions.read'] },
  'GET /api/v1/exceptions/csv': { platformOnly: true, all: ['exceptions.read'] },
  'GET /api/v1/incoming': { platformOnly: true, all: ['exceptions.read'] },
  'GET /api/v1/incoming/:id': { platformOnly: true, all: ['exceptions.read'] },
  'POST /api/v1/incoming/:id/match': { platformOnly: true, all: ['exceptions.read', 'incoming.resolve'] },
  'POST /api/v1/incoming/:id/return': { platformOnly: true, all: ['exceptions.read', 'incoming.resolve'] },
  'GET /api/v1/ledger/suspense': { platformOnly: true, all: ['exceptions.read'] },
  'GET /api/v1/contradictions': { platformOnly: true, all: ['exceptions.read'] },
  'POST /api/v1/contradictions/:id/resolve': { platformOnly: true, all: ['exceptions.read', 'invoice.status.change'] },
  // provider statements reconciled against the books: the desk's, platform staff only
  'POST /api/v1/statements': { platformOnly: true, all: ['exceptions.read', 'incoming.resolve'] },
  'GET /api/v1/statements': { platformOnly: true, all: ['exceptions.read'] },
  'GET /api/v1/statements/summary.csv': { platformOnly: true, all: ['exceptions.read'] },
  'GET /api/v1/statements/mappings/:providerId': { platformOnly: true, all: ['exceptions.read'] },
  'PUT /api/v1/statements/mappings/:providerId': { platformOnly: true, all: ['exceptions.read', 'incoming.resolve'] },
  'GET /api/v1/statements/:id': { platformOnly: true, all: ['exceptions.read'] },
  'POST /api/v1/statements/lines/:id/resolve': { platformOnly: true, all: ['exceptions.read', 'incoming.resolve'] },
  // alerts: every signed-in user; which kinds and whose, by the user's permissions (contracts' visibleNotificationKinds)
  'GET /api/v1/notifications': 'session',
};

/** One signed-in user per preset role: the demo users, plus two made here for the presets the demo lacks. */
const ROLE_USERS: Record<PresetRoleCode, string> = {
  platform_admin: 'admin',
  platform_operator: 'ops',
  platform_viewer: 'matrix-pviewer',
  merchant_owner: 'owner',
  merchant_finance: 'finance',
  merchant_developer: 'matrix-dev',
  merchant_support: 'support',
  merchant_viewer: 'viewer',
};

const MERCHANT_SET: ReadonlySet<string> = new Set(MERCHANT_PERMISSIONS);

/** The rule read directly: a merchant-scoped user holds only merchant permissions. */
function mayPass(role: PresetRoleCode, rule: Rule): boolean {
  if (rule === 'public' || rule === 'session') return true;
  const { scope, permissions } = PRESET_ROLES[role];
  const held: readonly string[] = scope === 'merchant' ? permissions.filter((p) => MERCHANT_SET.has(p)) : permissions;
  const all = Array.isArray(rule) ? rule : rule.all;
  if (!Array.isArray(rule) && scope !== 'platform') return false;
  return all.every((p) => held.includes(p));
}

const concreteUrl = (url: string) =>
  url
    .replace(':setting', 'settings.withdrawal.retry.auto.enable')
    .replace(':merchantId', '00000000-0000-4000-8000-000000000000')
    .replace(/:(credentialId)/, '999999')
    .replace(':providerId', '999999')
    .replace(/\/people\/account\/:id|\/limit\/:id|\/roles\/:id|\/contradictions\/:id|\/lines\/:id/, (m) =>
      m.replace(':id', '999999'),
    )
    .replace(':invoiceId', '00000000-0000-4000-8000-000000000000')
    .replace(':name', 'InvoiceStatus')
    .replace(':id', '00000000-0000-4000-8000-000000000000');

let t: TestApp;
const cookies: Partial<Record<PresetRoleCode, string>> = {};

beforeAll(async () => {
  t = await createTestApp();
  // the two presets the demo has no user for: copies of demo users with another role
  const [admin] = await t.ctx.db.select().from(users).where(eq(users.username, 'admin'));
  const [owner] = await t.ctx.db.select().from(users).where(eq(users.username, 'owner'));
  const roleId = async (code: string) => (await t.ctx.db.select().from(roles).where(eq(roles.code, code)))[0]!.id;
  await t.ctx.db.insert(users).values([
    {
      username: 'matrix-pviewer',
      passwordHash: admin!.passwordHash,
      firstName: 'P',
      lastName: 'Viewer',
      merchantId: null,
      roleId: await roleId('platform_viewer'),
    },
    {
      username: 'matrix-dev',
      passwordHash: owner!.passwordHash,
      firstName: 'M',
      lastName: 'Developer',
      merchantId: owner!.merchantId,
      roleId: await roleId('merchant_developer'),
    },
  ]);
  for (const [role, username] of Object.entries(ROLE_USERS) as [PresetRoleCode, string][]) {
    cookies[role] = await loginAs(t.app, username);
  }
});
afterAll(async () => t?.close());

describe('permission matrix', () => {
  it('every staff route has an entry, and its declared rule is the one reviewed here', () => {
    const declared = Object.fromEntries(t.app.staffRoutes.map((r) => [`${r.method} ${r.url}`, r.auth]));
    expect(
      Object.keys(declared).filter((k) => !(k in RULES)),
      'routes without a matrix entry',
    ).toEqual([]);
    expect(
      Object.keys(RULES).filter((k) => !(k in declared)),
      'matrix entries without a route',
    ).toEqual([]);
    for (const [key, rule] of Object.entries(RULES)) {
      const auth = declared[key] as RouteAuth;
      const expected: RouteAuth =
        typeof rule === 'string' ? rule : Array.isArray(rule) ? { all: rule } : { all: rule.all, platformOnly: true };
      expect(auth, key).toEqual(expected);
    }
  });

  it('every route × every preset role (and no session) gets the answer the design implies', async () => {
    const wrong: string[] = [];
    for (const [key, rule] of Object.entries(RULES)) {
      // would end or open sessions
      if (['POST /api/v1/logout', 'POST /api/v1/login', 'POST /api/v1/login/second-factor'].includes(key)) continue;
      const [method, url] = key.split(' ') as [string, string];
      const path = concreteUrl(url);
      const anonymous = await t.app.inject({ method: method as 'GET', url: path });
      if (anonymous.statusCode !== 401) wrong.push(`${key} without a session: ${anonymous.statusCode}`);
      // the HEAD route fastify adds to every GET is guarded like the GET
      if (method === 'GET') {
        const head = await t.app.inject({ method: 'HEAD', url: path });
        if (head.statusCode !== 401) wrong.push(`HEAD ${url} without a session: ${head.statusCode}`);
      }
      for (const role of Object.keys(ROLE_USERS) as PresetRoleCode[]) {
        const res = await t.app.inject({ method: method as 'GET', url: path, headers: { cookie: cookies[role]! } });
        const refused = res.statusCode === 403 && res.json().error.code === 'FORBIDDEN';
        if (method === 'GET' && refused) {
          const head = await t.app.inject({ method: 'HEAD', url: path, headers: { cookie: cookies[role]! } });
          if (head.statusCode !== 403) wrong.push(`HEAD ${url} as ${role}: ${head.statusCode}, the GET was refused`);
        }
        if (mayPass(role, rule) === refused || res.statusCode === 401 || res.statusCode >= 500) {
          wrong.push(`${key} as ${role}: ${res.statusCode} ${res.body.slice(0, 120)}`);
        }
        if (refused && /[a-z]+\.[a-z.]+/.test(res.json().error.message)) {
          wrong.push(`${key} as ${role}: refusal shows a permission string: ${res.json().error.message}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('the guard refuses a merchant user every platform permission even if its role listed one', () => {
    const rogue: SessionUser = {
      id: '00000000-0000-4000-8000-000000000001',
      sessionId: '00000000-0000-4000-8000-000000000002',
      username: 'rogue',
      firstName: 'R',
      lastName: 'R',
      merchantId: '00000000-0000-4000-8000-000000000003',
      scope: 'merchant',
      roleId: 1,
      roleName: 'rogue',
      // a list the database would refuse; the guard must not trust it either
      permissions: ['invoice.status.change', 'merchant.read'] as Permission[],
      mustChangePassword: false,
      twoFactorEnabled: false,
      twoFactorRequired: false,
      mustSetUpTwoFactor: false,
    };
    expect(guardRefusal(rogue, { all: ['invoice.status.change'] })).toBe('Only platform staff may do this.');
    expect(guardRefusal(rogue, { all: ['merchant.read'] })).toBeNull();
    expect(guardRefusal(rogue, { all: ['merchant.read'], platformOnly: true })).toBe(
      'Only platform staff may do this.',
    );
    expect(
      guardRefusal({ ...rogue, scope: 'platform', merchantId: null }, { all: ['invoice.status.change'] }),
    ).toBeNull();
  });
});
