import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { auditListResponse, formatDdMmYyyy, statusByCode, type AuditEntry } from '@paydesk/contracts';
import { roles, users } from '../../db/schema';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';

let t: TestApp;
const cookie: Record<string, string> = {};
let demoId = '';

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'ops', 'owner', 'shop2', 'finance', 'support']) cookie[u] = await loginAs(t.app, u);
  demoId = (await t.ctx.db.execute<{ id: string }>(sql`SELECT id FROM merchants WHERE name = 'Demo Merchant'`)).rows[0]!
    .id;
});
afterAll(async () => t?.close());

const as = (who: string, method: string, url: string, payload?: unknown) =>
  t.app.inject({
    method: method as 'GET',
    url,
    headers: { cookie: cookie[who]!, 'x-forwarded-for': '203.0.113.7' },
    payload: payload as object,
  });
const audit = async (who: string, query = '') => {
  const res = await as(who, 'GET', `/api/v1/audit?size=100${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return auditListResponse.parse(res.json());
};

describe('audit trail', () => {
  it('records an operator status change with actor, before/after and reason, in the same transaction', async () => {
    const [inv] = (
      await t.ctx.db.execute<{ id: string; status: string }>(sql`
        SELECT id, status FROM invoices WHERE merchant_id = ${demoId} AND NOT is_test AND flow_type = 'DEPOSIT'
          AND status = 'CANCELED' ORDER BY created_at DESC LIMIT 1`)
    ).rows;
    const res = await as('ops', 'PATCH', `/api/v1/invoice/status?merchantId=${demoId}`, {
      invoiceId: inv!.id,
      statusId: statusByCode('DECLINED')!.id,
      reason: 'Provider rejected it on the call',
    });
    expect(res.statusCode, res.body).toBe(200);
    const { data } = await audit('admin', '&action=invoice.status_changed');
    const entry = data.find((e) => e.targetId === inv!.id)!;
    expect(entry).toMatchObject({
      actor: { username: 'ops', kind: 'platform' },
      merchantId: demoId,
      merchantName: 'Demo Merchant',
      targetType: 'invoice',
      before: { status: 'CANCELED' },
      after: { status: 'DECLINED' },
      reason: 'Provider rejected it on the call',
      ip: '203.0.113.7',
    });
    // a refused change writes no record
    const refused = await as('ops', 'PATCH', `/api/v1/invoice/status?merchantId=${demoId}`, {
      invoiceId: inv!.id,
      statusId: statusByCode('DECLINED')!.id,
      reason: 'again',
    });
    expect(refused.statusCode).toBe(409);
    expect(
      (await audit('admin', '&action=invoice.status_changed')).data.filter((e) => e.targetId === inv!.id),
    ).toHaveLength(1);
    // the merchant sees the record, but not which platform employee acted nor from where
    const mine = (await audit('owner', '&action=invoice.status_changed')).data.find((e) => e.targetId === inv!.id)!;
    expect(mine.actor).toEqual({ userId: null, username: 'platform staff', kind: 'platform' });
    expect(mine.ip).toBeNull();
    expect(mine.reason).toBe('Provider rejected it on the call');
    // nor can it confirm an employee's name by filtering for it
    expect((await audit('owner', '&actor=ops')).total).toBe(0);
    expect(
      (await audit('owner', '&actor=platform%20staff&action=invoice.status_changed')).data.map((e) => e.targetId),
    ).toContain(inv!.id);
    const csv = await as('owner', 'GET', '/api/v1/audit/csv?actor=ops');
    expect(csv.body.trim().split('\n')).toHaveLength(1);
  });

  it('records a role change and a key rotation (never the secret)', async () => {
    const [support] = await t.ctx.db.select().from(users).where(eq(users.username, 'support'));
    const [finance] = await t.ctx.db.select().from(roles).where(eq(roles.code, 'merchant_finance'));
    expect((await as('owner', 'PUT', `/api/v1/users/${support!.id}/role`, { roleId: finance!.id })).statusCode).toBe(
      200,
    );
    const rotated = await as('owner', 'POST', `/api/v1/merchant/${demoId}/webhook-secret`);
    expect(rotated.statusCode).toBe(200);
    const { data } = await audit('owner');
    const role = data.find((e) => e.action === 'user.role_changed')!;
    expect(role).toMatchObject({
      actor: { username: 'owner', kind: 'merchant' },
      targetId: support!.id,
      before: { username: 'support', role: 'Merchant support' },
      after: { username: 'support', role: 'Merchant finance' },
    });
    const key = data.find((e) => e.action === 'merchant.webhook_secret_rotated')!;
    expect(key.actor.username).toBe('owner');
    const everything = JSON.stringify((await t.ctx.db.execute(sql`SELECT * FROM audit_log`)).rows);
    expect(everything).not.toContain(rotated.json().data.webhookSecret.slice(6));
    expect(everything).not.toContain(t.demo.webhookSecret.slice(6));
  });

  it('records sign-in success and failure without the password', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { username: 'owner', password: 'wrong-guess-1' },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/login',
      payload: { username: 'nobody', password: 'wrong-guess-2' },
    });
    const { data } = await audit('admin', '&action=auth.sign_in_failed');
    expect(data.map((e) => e.actor.username)).toEqual(expect.arrayContaining(['owner', 'nobody']));
    const ok = (await audit('admin', '&action=auth.sign_in&actor=finance')).data;
    expect(ok.length).toBeGreaterThan(0);
    const everything = JSON.stringify((await t.ctx.db.execute(sql`SELECT * FROM audit_log`)).rows);
    expect(everything).not.toContain('wrong-guess');
    expect(everything).not.toContain('demo-2026');
  });

  it("scopes by merchant: platform staff filter; a merchant's staff see only theirs", async () => {
    await as('shop2', 'POST', '/api/v1/settings/settings.withdrawal.retry.auto.enable', { value: 'true' });
    const shop = (await audit('shop2')).data;
    expect(shop.length).toBeGreaterThan(0);
    expect(shop.every((e) => e.merchantName === 'Second Shop')).toBe(true);
    const demo = (await audit('owner', `&merchant=${shop[0]!.merchantId}`)).data;
    expect(demo.every((e) => e.merchantId === demoId)).toBe(true);
    const platformOnly = (await audit('admin', '&merchant=platform')).data;
    expect(platformOnly.every((e: AuditEntry) => e.merchantId === null)).toBe(true);
    const filtered = (await audit('admin', `&merchant=${shop[0]!.merchantId}&action=settings.changed`)).data;
    expect(filtered[0]).toMatchObject({ before: { value: 'false' }, after: { value: 'true' } });
    const d = new Date(Date.now() + 86_400_000);
    const tomorrow = formatDdMmYyyy({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() });
    expect((await audit('admin', `&dateFrom=${encodeURIComponent(tomorrow)}`)).total).toBe(0);
    // a merchant viewer has no audit.read
    cookie.viewer = await loginAs(t.app, 'viewer');
    expect((await as('viewer', 'GET', '/api/v1/audit')).statusCode).toBe(403);
  });

  it('exports Audit.csv streamed, filtered and scoped like the list', async () => {
    const res = await as('owner', 'GET', '/api/v1/audit/csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="Audit.csv"');
    const lines = res.body.trim().split('\n');
    expect(lines[0]).toBe(
      'ID,Time,Action,Actor Kind,Actor,Merchant ID,Merchant,Target Type,Target ID,Before,After,Reason,IP',
    );
    expect(lines.length - 1).toBe((await audit('owner')).total);
    expect(res.body).not.toContain('Second Shop');
    expect(res.body).not.toMatch(/,ops,/); // platform staff names stay hidden from merchants
    const admin = await as('admin', 'GET', '/api/v1/audit/csv?action=invoice.status_changed');
    expect(admin.body).toContain(',ops,');
    expect(admin.body.trim().split('\n').length - 1).toBe(
      (await audit('admin', '&action=invoice.status_changed')).total,
    );
  });

  it('the export reads a filter with quotes and backslashes as text: no entry matches, nothing else runs', async () => {
    for (const actor of ["x' OR '1'='1", "ops\\' OR true --", '\\"}', "o'); SELECT pg_sleep(5); --"]) {
      const res = await as('owner', 'GET', `/api/v1/audit/csv?actor=${encodeURIComponent(actor)}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body.trim().split('\n')).toHaveLength(1); // the header alone
    }
  });

  it('is append-only: the database refuses UPDATE, DELETE and TRUNCATE, whoever asks', async () => {
    const refusal = (q: Promise<unknown>) =>
      q.then(
        () => 'accepted',
        (e: Error & { cause?: Error }) => e.cause?.message ?? e.message,
      );
    expect(await refusal(t.ctx.db.execute(sql`UPDATE audit_log SET reason = 'rewritten'`))).toMatch(
      /append-only: UPDATE/,
    );
    expect(await refusal(t.ctx.db.execute(sql`DELETE FROM audit_log`))).toMatch(/append-only: DELETE/);
    expect(await refusal(t.ctx.db.execute(sql`TRUNCATE audit_log`))).toMatch(/append-only: TRUNCATE/);
    const n = (await t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM audit_log`)).rows[0]!.n;
    expect(n).toBeGreaterThan(0);
  });
});
