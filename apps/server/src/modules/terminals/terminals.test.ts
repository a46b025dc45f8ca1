import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';
import { sql } from 'drizzle-orm';

let t: TestApp;
const cookies: Record<string, string> = {};
let attrTypes: { id: number; code: string; paramType: string }[];
let secondMerchantId: string;
let secondTerminalId: string;
/** Read from the database itself (not the shared demo file, which concurrent runs may rewrite). */
let demoMerchantId: string;
let demoTerminals: { id: string; name: string }[];

beforeAll(async () => {
  t = await createTestApp();
  for (const u of ['owner', 'shop2', 'admin', 'ops', 'viewer', 'support']) cookies[u] = await loginAs(t.app, u);
  attrTypes = (await call('GET', '/api/v1/reference?refHeaderId=105', 'owner')).json().data;
  demoMerchantId = (await call('GET', '/api/v1/people/me', 'owner')).json().data.merchantId;
  demoTerminals = (await call('GET', '/api/v1/terminal', 'owner')).json().data;
  const merchants = (await call('GET', '/api/v1/merchant?page=0&size=50', 'admin')).json().data as { id: string }[];
  secondMerchantId = merchants.find((m) => m.id !== demoMerchantId)!.id;
  secondTerminalId = (await call('GET', '/api/v1/terminal', 'shop2')).json().data[0].id;
});
afterAll(async () => {
  await t.close();
});

function call(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, user?: string, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: user ? { cookie: cookies[user]! } : {},
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}
const terminal = (name: string) => demoTerminals.find((x) => x.name === name)!;
/** Platform staff work on the merchant they name (?merchantId=, lib/scope.ts): by default the demo merchant. */
const on = (url: string, merchantId = demoMerchantId) =>
  `${url}${url.includes('?') ? '&' : '?'}merchantId=${merchantId}`;
/** The terminal as platform staff see it (with its attributes), to prove a refusal changed nothing. */
const stored = async (id: string) => (await call('GET', on(`/api/v1/terminal/${id}`), 'admin')).json().data;
const typeOf = (code: string) => attrTypes.find((a) => a.code === code)!;

describe('GET /api/v1/terminal/{id}', () => {
  it('gives the terminal with typed attributes to terminal.attr.read holders (platform staff)', async () => {
    for (const u of ['admin', 'ops']) {
      const res = await call('GET', on(`/api/v1/terminal/${terminal('UZS Deposit').id}`), u);
      expect(res.statusCode, u).toBe(200);
      expect(res.json().data.attributes.length, u).toBeGreaterThan(0);
    }
    const res = await call('GET', on(`/api/v1/terminal/${terminal('UZS Deposit').id}`), 'ops');
    const d = res.json().data;
    expect(d).toMatchObject({
      name: 'UZS Deposit',
      paymentFlow: 'DEPOSIT',
      // the dimension: amount attributes (minor units) are shown and typed in major units by it
      currency: { code: 'UZS', dimension: 2 },
      isTest: false,
      inTest: false,
      enabled: true,
    });
    // the fee is a typed column in basis points, no longer a string attribute
    expect(d.feeBps).toBe(250);
    expect(d.callbackUrl).toMatch(/^http:\/\/.*\/api\/demo\/callbacks$/);
    expect(d.attributes.map((a: { attrType: { code: string } }) => a.attrType.code)).not.toContain('FEE_PERCENT');
    const max = d.attributes.find((a: { attrType: { code: string } }) => a.attrType.code === 'MAX_INVOICE_AMOUNT');
    expect(max).toMatchObject({ id: expect.any(Number), value: '2000000000', paramType: { code: 'I' } });
  });

  it('omits attributes (fees and limits) for merchant staff, a merchant owner included', async () => {
    for (const u of ['owner', 'support', 'viewer']) {
      const res = await call('GET', `/api/v1/terminal/${terminal('UZS Deposit').id}`, u);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).not.toHaveProperty('attributes');
      expect(res.json().data).not.toHaveProperty('feeBps');
    }
  });

  it("is 404 for another merchant's terminal, 400 for a bad id, 401 without a session", async () => {
    expect((await call('GET', `/api/v1/terminal/${terminal('UZS Deposit').id}`, 'shop2')).statusCode).toBe(404);
    expect(
      (await call('GET', `/api/v1/terminal/${terminal('UZS Deposit').id}?merchantId=${demoMerchantId}`, 'shop2'))
        .statusCode,
    ).toBe(404);
    expect((await call('GET', `/api/v1/terminal/${secondTerminalId}`, 'owner')).statusCode).toBe(404);
    expect(
      (await call('GET', `/api/v1/terminal/${secondTerminalId}?merchantId=${secondMerchantId}`, 'admin')).statusCode,
    ).toBe(200);
    expect((await call('GET', '/api/v1/terminal/not-a-uuid', 'owner')).statusCode).toBe(400);
    expect((await call('GET', `/api/v1/terminal/${terminal('UZS Deposit').id}`)).statusCode).toBe(401);
  });
});

describe('PATCH /api/v1/terminal/{id}', () => {
  const url = () => on(`/api/v1/terminal/${terminal('RUB Deposit').id}`);

  it('renames; the list shows the new name', async () => {
    const res = await call('PATCH', url(), 'admin', { name: '  RUB Deposit Main  ' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.name).toBe('RUB Deposit Main');
    const list = (await call('GET', '/api/v1/terminal', 'owner')).json().data;
    expect(list.find((x: { id: string }) => x.id === terminal('RUB Deposit').id).name).toBe('RUB Deposit Main');
  });

  it('validates the name: required, not blank, at least 3 characters', async () => {
    for (const [name, message] of [
      ['', 'Name is required'],
      ['   ', 'Name is required'],
      ['ab', 'Name must be at least 3 characters long'],
      [null, 'Name is required'],
    ] as const) {
      const res = await call('PATCH', url(), 'admin', { name });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields.name).toBe(message);
    }
    expect((await call('PATCH', url(), 'admin', {})).statusCode).toBe(400);
    expect((await call('PATCH', url(), 'admin', { name: 'Fine name', extra: 1 })).json().error.fields).toHaveProperty(
      'extra',
    );
  });

  it('validates attribute values by type (I, S, C, B, N) and saves right ones', async () => {
    const cases: [code: string, wrong: string[], message: string, right: string][] = [
      ['MAX_INVOICE_AMOUNT', ['abc', '1.5', '12a'], 'value is not Integer', '1500000'],
      ['PROVIDER_CODE', ['bad\u0001value'], 'value is not String', 'SILKPAY'],
      ['CURRENCY_SYMBOL', ['RUB', 'ab'], 'value is not Char', '₽'],
      ['AUTO_CONFIRM', ['yes', 'TRUE', '1'], 'value is not Boolean', 'false'],
    ];
    for (const [code, wrongs, message, right] of cases) {
      for (const wrong of wrongs) {
        const res = await call('PATCH', url(), 'admin', {
          attributes: [{ value: wrong, attrType: { id: typeOf(code).id } }],
        });
        expect(res.statusCode, `${code}=${wrong}`).toBe(400);
        expect(res.json().error.fields['attributes.0.value'], `${code}=${wrong}`).toBe(message);
        expect(res.json().error.message).toContain(message);
      }
      const ok = await call('PATCH', url(), 'admin', {
        attributes: [{ value: right, attrType: { id: typeOf(code).id } }],
      });
      expect(ok.statusCode, `${code}=${right}`).toBe(200);
      expect(
        ok.json().data.attributes.find((a: { attrType: { code: string } }) => a.attrType.code === code).value,
      ).toBe(right);
    }
  });

  it("answers 'Value is required' / 'Value must be at least 1 characters long' and rejects unknown types", async () => {
    const id = typeOf('PROVIDER_CODE').id;
    const missing = await call('PATCH', url(), 'admin', { attributes: [{ attrType: { id } }] });
    expect(missing.json().error.fields['attributes.0.value']).toBe('Value is required');
    const empty = await call('PATCH', url(), 'admin', { attributes: [{ value: '', attrType: { id } }] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields['attributes.0.value']).toBe('Value must be at least 1 characters long');
    const unknown = await call('PATCH', url(), 'admin', { attributes: [{ value: 'x', attrType: { id: 999999 } }] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields['attributes.0.attrType.id']).toBe('Unknown attribute type');
    const dup = await call('PATCH', url(), 'admin', {
      attributes: [
        { value: 'a', attrType: { id } },
        { value: 'b', attrType: { id } },
      ],
    });
    expect(dup.statusCode).toBe(400);
  });

  it('refuses renaming without terminal.create and attribute changes without terminal.attr.read (403); nothing changes', async () => {
    const id = terminal('RUB Deposit').id;
    const before = await stored(id);
    // merchant staff hold neither (platform permissions), a merchant owner included
    for (const u of ['owner', 'support', 'viewer']) {
      const rename = await call('PATCH', `/api/v1/terminal/${id}`, u, { name: 'Hijacked' });
      expect(rename.statusCode, u).toBe(403);
      expect(rename.json().error.message).toBe('Your role does not allow you to create and rename terminals.');
      const res = await call('PATCH', `/api/v1/terminal/${id}`, u, {
        attributes: [{ value: 'false', attrType: { id: typeOf('AUTO_CONFIRM').id } }],
      });
      expect(res.statusCode, u).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
      const fee = await call('PATCH', `/api/v1/terminal/${id}`, u, { feeBps: 0 });
      expect(fee.statusCode, u).toBe(403);
    }
    // a platform operator edits fees and limits but does not manage terminals
    expect((await call('PATCH', url(), 'ops', { name: 'Hijacked' })).statusCode).toBe(403);
    expect(await stored(id)).toEqual(before);
  });

  it('lets a platform operator change attributes', async () => {
    const res = await call('PATCH', url(), 'ops', {
      attributes: [{ value: 'OPS_SET', attrType: { id: typeOf('PROVIDER_CODE').id } }],
    });
    expect(res.statusCode).toBe(200);
    expect(
      res.json().data.attributes.find((a: { attrType: { code: string } }) => a.attrType.code === 'PROVIDER_CODE').value,
    ).toBe('OPS_SET');
  });

  it("is 404 on another merchant's terminal", async () => {
    const id = terminal('RUB Deposit').id;
    const before = await stored(id);
    // platform staff working on another merchant do not reach this one's terminal
    expect(
      (await call('PATCH', on(`/api/v1/terminal/${id}`, secondMerchantId), 'admin', { name: 'Not yours' })).statusCode,
    ).toBe(404);
    expect(
      (await call('PATCH', on(`/api/v1/terminal/${secondTerminalId}`), 'admin', { name: 'Not yours' })).statusCode,
    ).toBe(404);
    // a merchant user is refused whatever terminal it names
    for (const [u, tid] of [
      ['shop2', id],
      ['owner', secondTerminalId],
    ] as const)
      expect((await call('PATCH', `/api/v1/terminal/${tid}`, u, { name: 'Not yours' })).statusCode, u).toBe(403);
    expect(await stored(id)).toEqual(before);
  });
});

describe('never a 500 for what a client can send', () => {
  it('answers 400 for ids beyond the database range and oversized values', async () => {
    const id = terminal('UZS Deposit').id;
    const huge = 1e12;
    expect(
      (
        await call('PATCH', on(`/api/v1/terminal/${id}`), 'admin', {
          attributes: [{ value: '1', attrType: { id: huge } }],
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await call('PATCH', on(`/api/v1/terminal/${id}`), 'admin', {
          attributes: [{ value: 'x'.repeat(2001), attrType: { id: typeOf('PROVIDER_CODE').id } }],
        })
      ).statusCode,
    ).toBe(400);
    expect((await call('PATCH', on(`/api/v1/terminal/${id}`), 'admin', { attributes: 'all' })).statusCode).toBe(400);
    expect((await call('DELETE', on(`/api/v1/terminal/${id}?attributeId=${huge}`), 'admin')).statusCode).toBe(400);
    expect(
      (
        await call('POST', on(`/api/v1/merchant/${demoMerchantId}/terminal`), 'admin', {
          name: 'Huge ids',
          flowTypeId: huge,
          currencyId: huge,
        })
      ).statusCode,
    ).toBe(400);
    expect((await call('PATCH', on('/api/v1/people/me/testDashboard'), 'admin', {})).statusCode).toBe(400);
    const bad = await t.app.inject({
      method: 'PATCH',
      url: on(`/api/v1/terminal/${id}`),
      headers: { cookie: cookies.admin!, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('PUT /api/v1/terminal/{id}', () => {
  it('replaces the whole attribute set', async () => {
    const id = terminal('UZS Withdrawal').id;
    const res = await call('PUT', on(`/api/v1/terminal/${id}`), 'admin', {
      name: 'UZS Withdrawal',
      attributes: [
        { value: '175000', attrType: { id: typeOf('MAX_INVOICE_AMOUNT').id } },
        { value: 'true', attrType: { id: typeOf('AUTO_CONFIRM').id } },
      ],
    });
    expect(res.statusCode).toBe(200);
    const attrs = res.json().data.attributes as { value: string; attrType: { code: string } }[];
    expect(attrs.map((a) => [a.attrType.code, a.value])).toEqual([
      ['MAX_INVOICE_AMOUNT', '175000'],
      ['AUTO_CONFIRM', 'true'],
    ]);
  });

  it('validates like PATCH and needs both permissions', async () => {
    const id = terminal('UZS Withdrawal').id;
    const bad = await call('PUT', on(`/api/v1/terminal/${id}`), 'admin', { name: 'ab', attributes: [] });
    expect(bad.json().error.fields.name).toBe('Name must be at least 3 characters long');
    const badAttr = await call('PUT', on(`/api/v1/terminal/${id}`), 'admin', {
      name: 'UZS Withdrawal',
      attributes: [{ value: 'x1', attrType: { id: typeOf('SUCCESS_PERCENT_LOW_THRESHOLD').id } }],
    });
    expect(badAttr.json().error.fields['attributes.0.value']).toBe('value is not Integer');
    expect((await call('PUT', on(`/api/v1/terminal/${id}`), 'admin', { name: 'UZS Withdrawal' })).statusCode).toBe(400);
    // both permissions are the platform's: merchant staff are refused, and so is an operator (no terminal.create)
    const before = await stored(id);
    for (const u of ['owner', 'support', 'viewer', 'ops', 'shop2'])
      expect(
        (await call('PUT', `/api/v1/terminal/${id}`, u, { name: 'UZS Withdrawal', attributes: [] })).statusCode,
        u,
      ).toBe(403);
    expect(
      (
        await call('PUT', on(`/api/v1/terminal/${id}`, secondMerchantId), 'admin', {
          name: 'UZS Withdrawal',
          attributes: [],
        })
      ).statusCode,
    ).toBe(404);
    expect(await stored(id)).toEqual(before);
  });
});

describe('DELETE /api/v1/terminal/{id}?attributeId=', () => {
  it('removes one attribute of the terminal; 404 when it is not there', async () => {
    const id = terminal('RUB Withdrawal').id;
    const before = (await call('GET', on(`/api/v1/terminal/${id}`), 'ops')).json().data.attributes as { id: number }[];
    const attrId = before[0]!.id;
    for (const u of ['owner', 'support', 'viewer', 'shop2'])
      expect((await call('DELETE', `/api/v1/terminal/${id}?attributeId=${attrId}`, u)).statusCode, u).toBe(403);
    expect(
      (await call('DELETE', on(`/api/v1/terminal/${id}?attributeId=${attrId}`, secondMerchantId), 'admin')).statusCode,
    ).toBe(404);
    expect((await stored(id)).attributes).toEqual(before);
    const res = await call('DELETE', on(`/api/v1/terminal/${id}?attributeId=${attrId}`), 'ops');
    expect(res.statusCode).toBe(200);
    const after = (await call('GET', on(`/api/v1/terminal/${id}`), 'ops')).json().data.attributes as { id: number }[];
    expect(after.map((a) => a.id)).not.toContain(attrId);
    expect((await call('DELETE', on(`/api/v1/terminal/${id}?attributeId=${attrId}`), 'ops')).statusCode).toBe(404);
    // an attribute of another terminal is not removable through this one
    const other = (await call('GET', on(`/api/v1/terminal/${terminal('UZS Deposit').id}`), 'ops')).json().data
      .attributes[0].id;
    expect((await call('DELETE', on(`/api/v1/terminal/${id}?attributeId=${other}`), 'ops')).statusCode).toBe(404);
    expect((await call('DELETE', on(`/api/v1/terminal/${id}`), 'ops')).statusCode).toBe(400);
    expect((await call('DELETE', on(`/api/v1/terminal/${id}?attributeId=x`), 'ops')).statusCode).toBe(400);
  });
});

describe('POST /api/v1/merchant/{merchantId}/terminal', () => {
  const refs = async () => {
    const flow = (await call('GET', '/api/v1/reference?refHeaderId=200', 'owner')).json().data as {
      id: number;
      code: string;
    }[];
    const cur = (await call('GET', '/api/v1/reference/currency', 'owner')).json().data as {
      id: number;
      code: string;
    }[];
    return { withdrawal: flow.find((f) => f.code === 'WITHDRAWAL')!.id, rub: cur.find((c) => c.code === 'RUB')!.id };
  };

  it('creates a test terminal for the merchant platform staff work on; it appears in the merchant’s list', async () => {
    const { withdrawal, rub } = await refs();
    const res = await call('POST', on(`/api/v1/merchant/${demoMerchantId}/terminal`), 'admin', {
      name: 'New RUB payouts',
      flowTypeId: withdrawal,
      currencyId: rub,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      name: 'New RUB payouts',
      paymentFlow: 'WITHDRAWAL',
      currency: { code: 'RUB', dimension: 2 },
      isTest: true,
      inTest: true,
      enabled: true,
      attributes: [],
    });
    const list = (await call('GET', '/api/v1/terminal', 'owner')).json().data as { id: string }[];
    expect(list.map((x) => x.id)).toContain(res.json().data.id);
  });

  it('lets merchant.rw.all create for any merchant; an unknown merchant is 404', async () => {
    const { withdrawal, rub } = await refs();
    const body = { name: 'Shop test', flowTypeId: withdrawal, currencyId: rub };
    const admin = await call(
      'POST',
      `/api/v1/merchant/${secondMerchantId}/terminal?merchantId=${secondMerchantId}`,
      'admin',
      body,
    );
    expect(admin.statusCode).toBe(201);
    const shop = (await call('GET', '/api/v1/terminal', 'shop2')).json().data as { id: string }[];
    expect(shop.map((x) => x.id)).toContain(admin.json().data.id);
    expect(
      (await call('POST', `/api/v1/merchant/00000000-0000-4000-8000-000000000000/terminal`, 'admin', body)).statusCode,
    ).toBe(404);
  });

  it('needs terminal.create (403: merchant staff, its owner included, and operators) and validates the body (400)', async () => {
    const { withdrawal, rub } = await refs();
    const count = async (u: string) => ((await call('GET', '/api/v1/terminal', u)).json().data as unknown[]).length;
    const [demoBefore, secondBefore] = [await count('owner'), await count('shop2')];
    const body = { name: 'Nope Nope', flowTypeId: withdrawal, currencyId: rub };
    for (const u of ['owner', 'viewer', 'support', 'ops', 'shop2']) {
      const own = await call('POST', `/api/v1/merchant/${demoMerchantId}/terminal`, u, body);
      expect(own.statusCode, u).toBe(403);
      expect((await call('POST', `/api/v1/merchant/${secondMerchantId}/terminal`, u, body)).statusCode, u).toBe(403);
    }
    expect([await count('owner'), await count('shop2')]).toEqual([demoBefore, secondBefore]);
    const post = (b: object) => call('POST', on(`/api/v1/merchant/${demoMerchantId}/terminal`), 'admin', b);
    const empty = await post({});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields).toEqual({
      name: 'Name is required',
      flowTypeId: 'Flow type is required',
      currencyId: 'Currency is required',
    });
    const short = await post({ name: 'ab', flowTypeId: withdrawal, currencyId: rub });
    expect(short.json().error.fields.name).toBe('Name must be at least 3 characters long');
    const unknown = await post({ name: 'Fine', flowTypeId: rub + 100000, currencyId: 99999 });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields).toEqual({ flowTypeId: 'Unknown flow type', currencyId: 'Unknown currency' });
  });
});

describe('PATCH /api/v1/people/me/testDashboard', () => {
  it('switches a test terminal to production once (platform staff only); 409 after that', async () => {
    const id = terminal('Test UZS Withdrawal').id;
    // going live is a platform decision: merchant staff (its owner included) and operators are refused
    for (const u of ['owner', 'viewer', 'support', 'shop2', 'ops'])
      expect((await call('PATCH', '/api/v1/people/me/testDashboard', u, { terminalId: id })).statusCode, u).toBe(403);
    expect(
      (await call('PATCH', on('/api/v1/people/me/testDashboard', secondMerchantId), 'admin', { terminalId: id }))
        .statusCode,
    ).toBe(404);
    expect((await stored(id)).isTest).toBe(true);
    const res = await call('PATCH', on('/api/v1/people/me/testDashboard'), 'admin', { terminalId: id });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id, isTest: false });
    expect((await call('GET', `/api/v1/terminal/${id}`, 'owner')).json().data.isTest).toBe(false);
    const again = await call('PATCH', on('/api/v1/people/me/testDashboard'), 'admin', { terminalId: id });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('The terminal is already in production');
    expect((await call('PATCH', on('/api/v1/people/me/testDashboard'), 'admin', { terminalId: 'x' })).statusCode).toBe(
      400,
    );
  });
});

describe('fee and callback URL (typed settings)', () => {
  it('the fee is whole basis points 0–10,000, set by terminal.attr.read holders; bad values are refused, never 0', async () => {
    const id = terminal('RUB Deposit').id;
    for (const feeBps of [-1, 10_001, 1.5, '150', null]) {
      const res = await call('PATCH', on(`/api/v1/terminal/${id}`), 'ops', { feeBps });
      expect(res.statusCode, String(feeBps)).toBe(400);
    }
    expect((await stored(id)).feeBps).toBe(300);
    const ok = await call('PATCH', on(`/api/v1/terminal/${id}`), 'ops', { feeBps: 155 });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.feeBps).toBe(155);
    const audit = await t.ctx.db.execute<{ before: { feeBps: number }; after: { feeBps: number } }>(
      sql`SELECT before, after FROM audit_log WHERE action = 'terminal.updated' AND target_id = ${id} ORDER BY id DESC LIMIT 1`,
    );
    expect(audit.rows[0]).toMatchObject({ before: { feeBps: 300 }, after: { feeBps: 155 } });
  });

  it('the callback URL is http(s) only; the merchant (merchant.callback.edit) sets and clears it', async () => {
    const id = terminal('RUB Deposit').id;
    for (const callbackUrl of ['ftp://x.example/cb', 'not a url', 'javascript:alert(1)', '']) {
      const res = await call('PATCH', `/api/v1/terminal/${id}`, 'owner', { callbackUrl });
      expect(res.statusCode, callbackUrl).toBe(400);
    }
    const set = await call('PATCH', `/api/v1/terminal/${id}`, 'owner', { callbackUrl: 'https://shop.example.com/cb' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data.callbackUrl).toBe('https://shop.example.com/cb');
    expect((await call('PATCH', `/api/v1/terminal/${id}`, 'viewer', { callbackUrl: null })).statusCode).toBe(403);
    const cleared = await call('PATCH', `/api/v1/terminal/${id}`, 'owner', { callbackUrl: null });
    expect(cleared.json().data.callbackUrl).toBeNull();
  });
});
