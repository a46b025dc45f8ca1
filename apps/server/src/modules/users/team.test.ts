import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { PERMISSIONS, roleListResponse, userListResponse, userWithPasswordResponse } from '@paydesk/contracts';
import { roles, users } from '../../db/schema';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';

let t: TestApp;
const cookie: Record<string, string> = {};
let demoId = '';

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'ops', 'owner', 'shop2', 'support']) cookie[u] = await loginAs(t.app, u);
  demoId = (await t.ctx.db.execute<{ id: string }>(sql`SELECT id FROM merchants WHERE name = 'Demo Merchant'`)).rows[0]!
    .id;
});
afterAll(async () => t?.close());

const call = (c: string, method: string, url: string, payload?: unknown) =>
  t.app.inject({ method: method as 'GET', url, headers: { cookie: c }, payload: payload as object });
const as = (who: string, method: string, url: string, payload?: unknown) => call(cookie[who]!, method, url, payload);
const roleId = async (code: string) => (await t.ctx.db.select().from(roles).where(eq(roles.code, code)))[0]!.id;
const login = (username: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/v1/login', payload: { username, password } });
const cookieOf = (res: Awaited<ReturnType<typeof login>>) => `jwt=${res.cookies.find((c) => c.name === 'jwt')!.value}`;

describe('a merchant owner builds its team', () => {
  it('creates a support user with a one-time password that must be changed; the user sees only its merchant', async () => {
    const created = await as('owner', 'POST', '/api/v1/users', {
      username: 'Dilshod.Support',
      firstName: 'Dilshod',
      lastName: 'Yusupov',
      roleId: await roleId('merchant_support'),
    });
    expect(created.statusCode, created.body).toBe(201);
    const { user, temporaryPassword } = userWithPasswordResponse.parse(created.json()).data;
    expect(user).toMatchObject({
      username: 'dilshod.support',
      merchantId: demoId,
      scope: 'merchant',
      role: { name: 'Merchant support' },
      mustChangePassword: true,
      disabled: false,
    });
    // the one-time password never reaches the audit trail
    const audit = await t.ctx.db.execute(sql`SELECT * FROM audit_log WHERE action = 'user.created'`);
    expect(JSON.stringify(audit.rows)).not.toContain(temporaryPassword);

    const signIn = await login('dilshod.support', temporaryPassword);
    expect(signIn.statusCode).toBe(200);
    const c = cookieOf(signIn);
    const me = await call(c, 'GET', '/api/v1/people/me');
    expect(me.json().data).toMatchObject({ mustChangePassword: true, scope: 'merchant', merchantId: demoId });
    // nothing else until the password is changed
    const blocked = await call(c, 'GET', '/api/v1/invoice');
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().error.code).toBe('PASSWORD_CHANGE_REQUIRED');
    const changed = await call(c, 'POST', '/api/v1/user/change_password', {
      currentPassword: temporaryPassword,
      newPassword: 'a-new-secret-2026',
    });
    expect(changed.statusCode).toBe(200);
    const list = await call(c, 'GET', `/api/v1/invoice?size=40`);
    expect(list.statusCode).toBe(200);
    const merchantsSeen = await t.ctx.db.execute<{ merchant_id: string }>(
      sql`SELECT DISTINCT merchant_id FROM invoices WHERE id IN (${sql.join(
        list.json().data.map((i: { invoiceId: string }) => sql`${i.invoiceId}`),
        sql`, `,
      )})`,
    );
    expect(merchantsSeen.rows.map((r) => r.merchant_id)).toEqual([demoId]);
    // naming another merchant changes nothing for a merchant user
    const other = (await t.ctx.db.execute<{ id: string }>(sql`SELECT id FROM merchants WHERE id <> ${demoId}`))
      .rows[0]!;
    const named = await call(
      c,
      'GET',
      `/api/v1/merchant/callback?invoiceId=${list.json().data[0].invoiceId}&merchantId=${other.id}`,
    );
    expect(named.statusCode).toBe(200);
  });

  it('cannot give a platform permission: no platform role, no custom role, no other merchant', async () => {
    const roleList = roleListResponse.parse((await as('owner', 'GET', '/api/v1/roles')).json()).data;
    expect(roleList.every((r) => r.scope === 'merchant')).toBe(true);
    expect(roleList.flatMap((r) => r.permissions)).not.toContain('invoice.status.change');

    const platformRole = await as('owner', 'POST', '/api/v1/users', {
      username: 'sneaky',
      firstName: 'S',
      lastName: 'S',
      roleId: await roleId('platform_operator'),
    });
    expect(platformRole.statusCode).toBe(400);
    expect(platformRole.json().error.message).toMatch(/platform role; a merchant user cannot hold it/);

    const customRole = await as('owner', 'POST', '/api/v1/roles', {
      name: 'Status fixer',
      scope: 'merchant',
      permissions: ['invoice.status.change'],
    });
    expect(customRole.statusCode).toBe(403);

    const [support] = await t.ctx.db.select().from(users).where(eq(users.username, 'support'));
    const promote = await as('owner', 'PUT', `/api/v1/users/${support!.id}/role`, {
      roleId: await roleId('platform_admin'),
    });
    expect(promote.statusCode).toBe(400);

    const elsewhere = await as('owner', 'POST', '/api/v1/users', {
      username: 'planted',
      firstName: 'P',
      lastName: 'P',
      roleId: await roleId('merchant_owner'),
      merchantId: (await t.ctx.db.execute<{ id: string }>(sql`SELECT id FROM merchants WHERE id <> ${demoId}`)).rows[0]!
        .id,
    });
    expect(elsewhere.statusCode).toBe(403);
    // another merchant's owner cannot touch Demo Merchant's users at all
    expect((await as('shop2', 'PUT', `/api/v1/users/${support!.id}/status`, { disabled: true })).statusCode).toBe(404);
    const shopTeam = userListResponse.parse((await as('shop2', 'GET', `/api/v1/users?merchant=${demoId}`)).json()).data;
    expect(shopTeam.every((u) => u.merchantName === 'Second Shop')).toBe(true);
    expect((await t.ctx.db.select().from(users).where(eq(users.username, 'planted'))).length).toBe(0);
  });

  it('disabling ends the open session on its next request; enabling lets the user sign in again', async () => {
    const created = await as('owner', 'POST', '/api/v1/users', {
      username: 'temp-helper',
      firstName: 'Temp',
      lastName: 'Helper',
      roleId: await roleId('merchant_viewer'),
    });
    const { user, temporaryPassword } = created.json().data;
    const c = cookieOf(await login('temp-helper', temporaryPassword));
    await call(c, 'POST', '/api/v1/user/change_password', {
      currentPassword: temporaryPassword,
      newPassword: 'helper-pass-2026',
    });
    expect((await call(c, 'GET', '/api/v1/invoice')).statusCode).toBe(200);

    const disable = await as('owner', 'PUT', `/api/v1/users/${user.id}/status`, { disabled: true });
    expect(disable.statusCode).toBe(200);
    expect(disable.json().data.disabled).toBe(true);
    expect((await call(c, 'GET', '/api/v1/invoice')).statusCode).toBe(401);
    const again = await login('temp-helper', 'helper-pass-2026');
    expect(again.statusCode).toBe(403);
    expect(again.json().error.message).toMatch(/disabled/);

    expect((await as('owner', 'PUT', `/api/v1/users/${user.id}/status`, { disabled: false })).statusCode).toBe(200);
    expect((await login('temp-helper', 'helper-pass-2026')).statusCode).toBe(200);
  });

  it('a role change applies on the next request; a password reset ends sessions and forces a new password', async () => {
    const created = await as('owner', 'POST', '/api/v1/users', {
      username: 'rotating',
      firstName: 'Ro',
      lastName: 'Tating',
      roleId: await roleId('merchant_viewer'),
    });
    const { user, temporaryPassword } = created.json().data;
    const c = cookieOf(await login('rotating', temporaryPassword));
    await call(c, 'POST', '/api/v1/user/change_password', {
      currentPassword: temporaryPassword,
      newPassword: 'rotate-2026!',
    });
    expect((await call(c, 'GET', '/api/v1/merchant/balance')).statusCode).toBe(403);
    const promote = await as('owner', 'PUT', `/api/v1/users/${user.id}/role`, {
      roleId: await roleId('merchant_finance'),
    });
    expect(promote.statusCode).toBe(200);
    expect((await call(c, 'GET', '/api/v1/merchant/balance')).statusCode).toBe(200);

    const reset = await as('owner', 'POST', `/api/v1/users/${user.id}/password-reset`);
    expect(reset.statusCode).toBe(200);
    expect((await call(c, 'GET', '/api/v1/people/me')).statusCode).toBe(401);
    expect((await login('rotating', 'rotate-2026!')).statusCode).toBe(401);
    const fresh = await login('rotating', reset.json().data.temporaryPassword);
    expect((await call(cookieOf(fresh), 'GET', '/api/v1/people/me')).json().data.mustChangePassword).toBe(true);
  });

  it('nobody edits itself, and support (no users.manage) reaches none of it', async () => {
    const [owner] = await t.ctx.db.select().from(users).where(eq(users.username, 'owner'));
    const self = await as('owner', 'PUT', `/api/v1/users/${owner!.id}/status`, { disabled: true });
    expect(self.statusCode).toBe(403);
    expect(self.json().error.message).toBe('You cannot disable yourself');
    for (const [method, url] of [
      ['GET', '/api/v1/users'],
      ['GET', '/api/v1/roles'],
      ['POST', `/api/v1/users/${owner!.id}/password-reset`],
    ] as const) {
      expect((await as('support', method, url)).statusCode).toBe(403);
    }
  });
});

describe('platform staff and roles', () => {
  it('a platform admin sees everyone and filters by merchant; ops (no users.manage) cannot manage', async () => {
    const all = userListResponse.parse((await as('admin', 'GET', '/api/v1/users')).json()).data;
    expect(all.map((u) => u.username)).toEqual(expect.arrayContaining(['admin', 'ops', 'owner', 'shop2']));
    const staff = userListResponse.parse((await as('admin', 'GET', '/api/v1/users?merchant=platform')).json()).data;
    expect(staff.every((u) => u.scope === 'platform')).toBe(true);
    const demo = userListResponse.parse((await as('admin', 'GET', `/api/v1/users?merchant=${demoId}`)).json()).data;
    expect(demo.every((u) => u.merchantId === demoId)).toBe(true);
    expect((await as('ops', 'GET', '/api/v1/users')).statusCode).toBe(403);
  });

  it('creates and edits custom roles; preset roles are fixed; a merchant role refuses platform permissions (API and database)', async () => {
    const bad = await as('admin', 'POST', '/api/v1/roles', {
      name: 'Leaky',
      scope: 'merchant',
      permissions: ['merchant.read', 'invoice.credentials.read'],
    });
    expect(bad.statusCode).toBe(400);
    const ok = await as('admin', 'POST', '/api/v1/roles', {
      name: 'Reconciliation',
      scope: 'platform',
      description: 'Reads everything, fixes amounts',
      permissions: ['merchant.rw.all', 'invoice.amount.change', 'audit.read'],
    });
    expect(ok.statusCode, ok.body).toBe(201);
    const id = ok.json().data.id;
    const edit = await as('admin', 'PUT', `/api/v1/roles/${id}`, {
      name: 'Reconciliation',
      description: '',
      permissions: ['merchant.rw.all', 'audit.read'],
    });
    expect(edit.json().data.permissions).toEqual(['merchant.rw.all', 'audit.read']);
    const preset = await as('admin', 'PUT', `/api/v1/roles/${await roleId('merchant_owner')}`, {
      name: 'Merchant owner',
      description: '',
      permissions: [],
    });
    expect(preset.statusCode).toBe(409);
    await expect(
      t.ctx.db.insert(roles).values({ name: 'Raw insert', scope: 'merchant', permissions: ['ticket.decision'] }),
    ).rejects.toThrow();
    // a merchant user can never hold a platform-scoped role, whatever writes the row
    await expect(
      t.ctx.db
        .update(users)
        .set({ roleId: await roleId('platform_admin') })
        .where(eq(users.username, 'owner')),
    ).rejects.toThrow();
  });

  it('the database refuses every platform permission in a merchant role (the CHECK follows contracts)', async () => {
    const { PLATFORM_PERMISSIONS } = await import('@paydesk/contracts');
    for (const p of PLATFORM_PERMISSIONS) {
      await expect(
        t.ctx.db.insert(roles).values({ name: `raw ${p}`, scope: 'merchant', permissions: [p] }),
        p,
      ).rejects.toThrow();
    }
    expect(PERMISSIONS.length).toBeGreaterThan(PLATFORM_PERMISSIONS.length);
  });

  it('nobody locks out the last platform admin', async () => {
    // a custom all-powerful role held by one user, who disables the preset admin…
    const chief = await as('admin', 'POST', '/api/v1/roles', {
      name: 'Chief',
      scope: 'platform',
      permissions: [...PERMISSIONS],
    });
    const created = await as('admin', 'POST', '/api/v1/users', {
      username: 'chief',
      firstName: 'C',
      lastName: 'Hief',
      roleId: chief.json().data.id,
      merchantId: null,
    });
    expect(created.statusCode, created.body).toBe(201);
    const c = cookieOf(await login('chief', created.json().data.temporaryPassword));
    await call(c, 'POST', '/api/v1/user/change_password', {
      currentPassword: created.json().data.temporaryPassword,
      newPassword: 'chief-pass-2026',
    });
    const [admin] = await t.ctx.db.select().from(users).where(eq(users.username, 'admin'));
    expect((await call(c, 'PUT', `/api/v1/users/${admin!.id}/status`, { disabled: true })).statusCode).toBe(200);
    // …then tries to take users.manage away from the only role that still has it
    const strip = await call(c, 'PUT', `/api/v1/roles/${chief.json().data.id}`, {
      name: 'Chief',
      description: '',
      permissions: PERMISSIONS.filter((p) => p !== 'users.manage'),
    });
    expect(strip.statusCode).toBe(409);
    expect(strip.json().error.message).toMatch(/without an admin who can manage users/);
    expect((await call(c, 'PUT', `/api/v1/users/${admin!.id}/status`, { disabled: false })).statusCode).toBe(200);
    // disabling ended the admin's session
    expect((await as('admin', 'GET', '/api/v1/users')).statusCode).toBe(401);
    cookie.admin = await loginAs(t.app, 'admin');
  });

  it('a lesser manager cannot grant or touch what it does not hold', async () => {
    const mgr = await as('admin', 'POST', '/api/v1/roles', {
      name: 'Staff manager',
      scope: 'platform',
      permissions: ['users.manage', 'merchant.read'],
    });
    const created = await as('admin', 'POST', '/api/v1/users', {
      username: 'manager',
      firstName: 'M',
      lastName: 'Anager',
      roleId: mgr.json().data.id,
      merchantId: null,
    });
    const pw = created.json().data.temporaryPassword;
    const c = cookieOf(await login('manager', pw));
    await call(c, 'POST', '/api/v1/user/change_password', { currentPassword: pw, newPassword: 'manager-pass-2026' });
    const grant = await call(c, 'POST', '/api/v1/users', {
      username: 'opsy',
      firstName: 'O',
      lastName: 'P',
      roleId: await roleId('platform_operator'),
      merchantId: null,
    });
    expect(grant.statusCode).toBe(403);
    expect(grant.json().error.message).toBe('You cannot give a role with permissions you do not hold');
    const [ops] = await t.ctx.db.select().from(users).where(eq(users.username, 'ops'));
    expect((await call(c, 'PUT', `/api/v1/users/${ops!.id}/status`, { disabled: true })).statusCode).toBe(403);
    const widen = await call(c, 'PUT', `/api/v1/roles/${mgr.json().data.id}`, {
      name: 'Staff manager',
      description: '',
      permissions: ['users.manage', 'merchant.read', 'settlement.create'],
    });
    expect(widen.statusCode).toBe(403);
  });

  it('bad input is a 4xx with fields, never a 500', async () => {
    const cases: [string, string, unknown][] = [
      ['POST', '/api/v1/users', { username: 'x', firstName: '', lastName: 'L', roleId: 1 }],
      ['POST', '/api/v1/users', { username: 'null\u0000byte', firstName: 'F', lastName: 'L', roleId: 1 }],
      ['POST', '/api/v1/users', { username: 'valid', firstName: 'F\u0000', lastName: 'L', roleId: 1 }],
      ['POST', '/api/v1/users', { username: 'valid', firstName: 'F', lastName: 'L', roleId: 999999 }],
      ['POST', '/api/v1/users', { username: 'admin', firstName: 'F', lastName: 'L', roleId: 1, merchantId: null }],
      ['PUT', '/api/v1/users/not-a-uuid/role', { roleId: 1 }],
      ['PUT', '/api/v1/roles/abc', { name: 'x', permissions: [] }],
      // beyond a database id: refused by the schema, not by the database
      ['PUT', '/api/v1/roles/99999999999', { name: 'Ok name', permissions: [] }],
      ['DELETE', '/api/v1/roles/99999999999', undefined],
      ['POST', '/api/v1/roles', { name: 'Ok name', scope: 'platform', permissions: ['no.such'] }],
      ['GET', '/api/v1/users?merchant=nope', undefined],
    ];
    for (const [method, url, body] of cases) {
      const res = await as('admin', method, url, body);
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, res.body).toBeLessThan(500);
      expect(res.json().error.code).toBeTruthy();
    }
  });
});
