import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { SAVED_VIEWS_PER_USER } from '@paydesk/contracts';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';

let t: TestApp;
const cookies: Record<string, string> = {};
let demoMerchantId: string;
let secondMerchantId: string;
let demoTerminalId: string;
let secondTerminalId: string;

async function call(who: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) {
  const res = await t.app.inject({
    method,
    url,
    headers: { cookie: cookies[who]! },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  return { status: res.statusCode, body: res.json() as any };
}

const countViews = async () =>
  Number((await t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM saved_views`)).rows[0]!.n);
const auditOf = async (action: string) =>
  (await t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM audit_log WHERE action = ${action}`))
    .rows[0]!.n;

const state = { search: 'ORD-1', statusIds: [1, 4], flowType: 'DEPOSIT', size: 25 };

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['admin', 'owner', 'finance', 'support', 'viewer', 'shop2']) cookies[u] = await loginAs(t.app, u);
  const m = await t.ctx.db.execute<{ id: string; name: string }>(sql`SELECT id, name FROM merchants`);
  demoMerchantId = m.rows.find((r) => r.name === 'Demo Merchant')!.id;
  secondMerchantId = m.rows.find((r) => r.name !== 'Demo Merchant')!.id;
  const term = async (merchantId: string) =>
    (await t.ctx.db.execute<{ id: string }>(sql`SELECT id FROM terminals WHERE merchant_id = ${merchantId} LIMIT 1`))
      .rows[0]!.id;
  demoTerminalId = await term(demoMerchantId);
  secondTerminalId = await term(secondMerchantId);
});
afterAll(() => t.close());

describe('saved views of the Transactions list', () => {
  it('keeps a private view for its owner only, with defaults filled', async () => {
    const created = await call('support', 'POST', '/api/v1/saved-views', { name: '  Failed deposits ', state });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      name: 'Failed deposits',
      shared: false,
      mine: true,
      canDelete: true,
      state: { ...state, terminalId: null, dateFrom: null, sumFrom: null, sumTo: null },
    });
    expect((await call('support', 'GET', '/api/v1/saved-views')).body.data.map((v: any) => v.name)).toContain(
      'Failed deposits',
    );
    for (const other of ['owner', 'viewer', 'shop2']) {
      const list = await call(other, 'GET', '/api/v1/saved-views');
      expect(list.status).toBe(200);
      expect(list.body.data.find((v: { id: string }) => v.id === created.body.data.id)).toBeUndefined();
    }
    // someone else's private view does not exist for them
    const id = created.body.data.id;
    expect((await call('owner', 'PATCH', `/api/v1/saved-views/${id}`, { name: 'Mine now' })).status).toBe(404);
    expect((await call('owner', 'DELETE', `/api/v1/saved-views/${id}`)).status).toBe(404);
    expect((await call('support', 'DELETE', `/api/v1/saved-views/${id}`)).status).toBe(200);
  });

  it('shares a view with the merchant team, never with another merchant', async () => {
    const auditBefore = await auditOf('saved_view.created');
    const created = await call('finance', 'POST', '/api/v1/saved-views', {
      name: 'Month end',
      shared: true,
      state: { ...state, terminalId: demoTerminalId },
    });
    expect(created.status).toBe(201);
    expect(await auditOf('saved_view.created')).toBe(auditBefore + 1);
    const id = created.body.data.id as string;

    const seenByViewer = (await call('viewer', 'GET', '/api/v1/saved-views')).body.data.find(
      (v: { id: string }) => v.id === id,
    );
    expect(seenByViewer).toMatchObject({
      mine: false,
      canDelete: false,
      shared: true,
      owner: { name: expect.any(String) },
    });
    // platform staff working on Demo Merchant see its team's shared views
    const adminList = await call('admin', 'GET', `/api/v1/saved-views?merchantId=${demoMerchantId}`);
    expect(adminList.body.data.some((v: { id: string }) => v.id === id)).toBe(true);
    // …and not while working on another merchant
    const adminOther = await call('admin', 'GET', `/api/v1/saved-views?merchantId=${secondMerchantId}`);
    expect(adminOther.body.data.some((v: { id: string }) => v.id === id)).toBe(false);
    // another merchant's owner: not listed, not changeable, not deletable, even naming Demo Merchant
    const shop2 = await call('shop2', 'GET', `/api/v1/saved-views?merchantId=${demoMerchantId}`);
    expect(shop2.body.data.some((v: { id: string }) => v.id === id)).toBe(false);
    expect((await call('shop2', 'PATCH', `/api/v1/saved-views/${id}`, { shared: false })).status).toBe(404);
    expect((await call('shop2', 'DELETE', `/api/v1/saved-views/${id}`)).status).toBe(404);

    // a teammate may open it but not change it; nothing is written
    const refused = await call('viewer', 'PATCH', `/api/v1/saved-views/${id}`, { name: 'Hijacked' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    expect((await call('viewer', 'DELETE', `/api/v1/saved-views/${id}`)).status).toBe(403);
    expect((await call('support', 'DELETE', `/api/v1/saved-views/${id}`)).status).toBe(403);
    const still = (await call('finance', 'GET', '/api/v1/saved-views')).body.data.find(
      (v: { id: string }) => v.id === id,
    );
    expect(still.name).toBe('Month end');

    // the owner unshares it: the team no longer sees it (and the audit trail says so)
    const unshared = await call('finance', 'PATCH', `/api/v1/saved-views/${id}`, { shared: false });
    expect(unshared.status).toBe(200);
    expect(await auditOf('saved_view.changed')).toBeGreaterThanOrEqual(1);
    expect(
      (await call('viewer', 'GET', '/api/v1/saved-views')).body.data.some((v: { id: string }) => v.id === id),
    ).toBe(false);

    // shared again; the team manager (owner has users.manage) may delete it, audited
    await call('finance', 'PATCH', `/api/v1/saved-views/${id}`, { shared: true });
    const ownerView = (await call('owner', 'GET', '/api/v1/saved-views')).body.data.find(
      (v: { id: string }) => v.id === id,
    );
    expect(ownerView).toMatchObject({ mine: false, canDelete: true });
    const deletedBefore = await auditOf('saved_view.deleted');
    expect((await call('owner', 'DELETE', `/api/v1/saved-views/${id}`)).status).toBe(200);
    expect(await auditOf('saved_view.deleted')).toBe(deletedBefore + 1);
    expect((await call('finance', 'PATCH', `/api/v1/saved-views/${id}`, { name: 'x' })).status).toBe(404);
  });

  it('refuses bad input with field errors and writes nothing', async () => {
    const before = await countViews();
    const bad: [string, unknown][] = [
      ['empty name', { name: '   ', state }],
      ['long name', { name: 'x'.repeat(61), state }],
      ['control characters', { name: 'a\u0000b', state }],
      ['no state', { name: 'x' }],
      ['unknown status', { name: 'x', state: { statusIds: [999] } }],
      ['bad day', { name: 'x', state: { dateFrom: '31/02/2026' } }],
      ['bad size', { name: 'x', state: { size: 7 } }],
      ['negative sum', { name: 'x', state: { sumFrom: -1 } }],
      ['unknown key', { name: 'x', state: { page: 3 } }],
      ['long search', { name: 'x', state: { search: 'a'.repeat(201) } }],
      ['shared not boolean', { name: 'x', shared: 'yes', state }],
      ['extra top-level key', { name: 'x', state, ownerUserId: '00000000-0000-0000-0000-000000000000' }],
    ];
    for (const [label, payload] of bad) {
      const r = await call('owner', 'POST', '/api/v1/saved-views', payload);
      expect(r.status, label).toBe(400);
      expect(r.body.error.code, label).toBe('VALIDATION_ERROR');
    }
    // a terminal of another merchant
    const foreign = await call('owner', 'POST', '/api/v1/saved-views', {
      name: 'x',
      state: { terminalId: secondTerminalId },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.fields).toHaveProperty(['state.terminalId']);
    expect((await call('owner', 'PATCH', '/api/v1/saved-views/not-a-uuid', { name: 'x' })).status).toBe(400);
    expect(
      (await call('owner', 'PATCH', '/api/v1/saved-views/00000000-0000-4000-8000-000000000000', { name: 'x' })).status,
    ).toBe(404);
    expect(await countViews()).toBe(before);
  });

  it('keeps names unique per person (any case) and caps how many one person keeps', async () => {
    const first = await call('viewer', 'POST', '/api/v1/saved-views', { name: 'Today', state: {} });
    expect(first.status).toBe(201);
    const dup = await call('viewer', 'POST', '/api/v1/saved-views', { name: 'TODAY', state: {} });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({ code: 'DUPLICATE', fields: { name: 'Already used' } });
    // another person may use the same name
    expect((await call('support', 'POST', '/api/v1/saved-views', { name: 'Today', state: {} })).status).toBe(201);
    // renaming onto another of one's own names is refused too
    const second = await call('viewer', 'POST', '/api/v1/saved-views', { name: 'Yesterday', state: {} });
    expect(
      (await call('viewer', 'PATCH', `/api/v1/saved-views/${second.body.data.id}`, { name: 'today' })).status,
    ).toBe(409);
    // parallel creations cannot pass the cap
    const results = await Promise.all(
      Array.from({ length: SAVED_VIEWS_PER_USER + 5 }, (_, i) =>
        call('viewer', 'POST', '/api/v1/saved-views', { name: `v${i}`, state: {} }),
      ),
    );
    expect(results.every((r) => r.status === 201 || r.status === 409)).toBe(true);
    const kept = (await call('viewer', 'GET', '/api/v1/saved-views')).body.data.filter(
      (v: { mine: boolean }) => v.mine,
    );
    expect(kept).toHaveLength(SAVED_VIEWS_PER_USER);
    const over = results.find((r) => r.status === 409)!;
    expect(over.body.error.message).toMatch(/at most/);
  });

  it('needs a session', async () => {
    const r = await t.app.inject({ method: 'GET', url: '/api/v1/saved-views' });
    expect(r.statusCode).toBe(401);
  });
});
