import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';

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
  for (const u of ['owner', 'second-owner', 'admin', 'viewer', 'support']) cookies[u] = await loginAs(t.app, u);
  attrTypes = (await call('GET', '/api/v1/reference?refHeaderId=105', 'owner')).json().data;
  demoMerchantId = (await call('GET', '/api/v1/people/me', 'owner')).json().data.merchantId;
  demoTerminals = (await call('GET', '/api/v1/terminal', 'owner')).json().data;
  const merchants = (await call('GET', '/api/v1/merchant?page=0&size=50', 'admin')).json().data as { id: string }[];
  secondMerchantId = merchants.find((m) => m.id !== demoMerchantId)!.id;
  secondTerminalId = (await call('GET', '/api/v1/terminal', 'second-owner')).json().data[0].id;
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
const typeOf = (code: string) => attrTypes.find((a) => a.code === code)!;

describe('GET /api/v1/terminal/{id}', () => {
  it('gives the terminal with typed attributes to terminal.attr.read holders', async () => {
    const res = await call('GET', `/api/v1/terminal/${terminal('UZS Deposit').id}`, 'owner');
    expect(res.statusCode).toBe(200);
    const d = res.json().data;
    expect(d).toMatchObject({
      name: 'UZS Deposit',
      paymentFlow: 'DEPOSIT',
      currency: { code: 'UZS' },
      isTest: false,
      inTest: false,
      enabled: true,
    });
    const fee = d.attributes.find((a: { attrType: { code: string } }) => a.attrType.code === 'FEE_PERCENT');
    expect(fee).toMatchObject({
      id: expect.any(Number),
      value: '2.5',
      attrType: { id: typeOf('FEE_PERCENT').id, value: 'Fee, %' },
      paramType: { code: 'N' },
    });
  });

  it('omits attributes without terminal.attr.read', async () => {
    for (const u of ['support', 'viewer']) {
      const res = await call('GET', `/api/v1/terminal/${terminal('UZS Deposit').id}`, u);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).not.toHaveProperty('attributes');
    }
  });

  it("is 404 for another merchant's terminal, 400 for a bad id, 401 without a session", async () => {
    expect((await call('GET', `/api/v1/terminal/${terminal('UZS Deposit').id}`, 'second-owner')).statusCode).toBe(404);
    expect(
      (await call('GET', `/api/v1/terminal/${terminal('UZS Deposit').id}?merchantId=${demoMerchantId}`, 'second-owner'))
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
  const url = () => `/api/v1/terminal/${terminal('RUB Deposit').id}`;

  it('renames; the list shows the new name', async () => {
    const res = await call('PATCH', url(), 'owner', { name: '  RUB Deposit Main  ' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.name).toBe('RUB Deposit Main');
    const list = (await call('GET', '/api/v1/terminal', 'owner')).json().data;
    expect(list.find((x: { id: string }) => x.id === terminal('RUB Deposit').id).name).toBe('RUB Deposit Main');
  });

  it('validates the name with the SPEC §5 messages', async () => {
    for (const [name, message] of [
      ['', 'Name is required'],
      ['   ', 'Name is required'],
      ['ab', 'Name must be at least 3 characters long'],
      [null, 'Name is required'],
    ] as const) {
      const res = await call('PATCH', url(), 'owner', { name });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.fields.name).toBe(message);
    }
    expect((await call('PATCH', url(), 'owner', {})).statusCode).toBe(400);
    expect((await call('PATCH', url(), 'owner', { name: 'Fine name', extra: 1 })).json().error.fields).toHaveProperty(
      'extra',
    );
  });

  it('validates attribute values by type (I, S, C, B, N) and saves right ones', async () => {
    const cases: [code: string, wrong: string[], message: string, right: string][] = [
      ['MAX_INVOICE_AMOUNT', ['abc', '1.5', '12a'], 'value is not Integer', '1500000'],
      ['PROVIDER_CODE', ['bad\u0001value'], 'value is not String', 'SILKPAY'],
      ['CURRENCY_SYMBOL', ['RUB', 'ab'], 'value is not Char', '₽'],
      ['AUTO_CONFIRM', ['yes', 'TRUE', '1'], 'value is not Boolean', 'false'],
      ['FEE_PERCENT', ['5', 'abc', '1.2.3', '.5', '1,5'], 'value is not Numeric', '3.25'],
    ];
    for (const [code, wrongs, message, right] of cases) {
      for (const wrong of wrongs) {
        const res = await call('PATCH', url(), 'owner', {
          attributes: [{ value: wrong, attrType: { id: typeOf(code).id } }],
        });
        expect(res.statusCode, `${code}=${wrong}`).toBe(400);
        expect(res.json().error.fields['attributes.0.value'], `${code}=${wrong}`).toBe(message);
        expect(res.json().error.message).toContain(message);
      }
      const ok = await call('PATCH', url(), 'owner', {
        attributes: [{ value: right, attrType: { id: typeOf(code).id } }],
      });
      expect(ok.statusCode, `${code}=${right}`).toBe(200);
      expect(
        ok.json().data.attributes.find((a: { attrType: { code: string } }) => a.attrType.code === code).value,
      ).toBe(right);
    }
  });

  it("answers 'Value is required' / 'Value must be at least 1 characters long' and rejects unknown types", async () => {
    const id = typeOf('CALLBACK_URL').id;
    const missing = await call('PATCH', url(), 'owner', { attributes: [{ attrType: { id } }] });
    expect(missing.json().error.fields['attributes.0.value']).toBe('Value is required');
    const empty = await call('PATCH', url(), 'owner', { attributes: [{ value: '', attrType: { id } }] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields['attributes.0.value']).toBe('Value must be at least 1 characters long');
    const unknown = await call('PATCH', url(), 'owner', { attributes: [{ value: 'x', attrType: { id: 999999 } }] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields['attributes.0.attrType.id']).toBe('Unknown attribute type');
    const dup = await call('PATCH', url(), 'owner', {
      attributes: [
        { value: 'a', attrType: { id } },
        { value: 'b', attrType: { id } },
      ],
    });
    expect(dup.statusCode).toBe(400);
  });

  it('refuses renaming without terminal.create and attribute changes without terminal.attr.read (403)', async () => {
    for (const u of ['support', 'viewer']) {
      expect((await call('PATCH', url(), u, { name: 'Hijacked' })).statusCode).toBe(403);
      const res = await call('PATCH', url(), u, {
        attributes: [{ value: 'x', attrType: { id: typeOf('PROVIDER_CODE').id } }],
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
    }
  });

  it("is 404 on another merchant's terminal", async () => {
    expect((await call('PATCH', url(), 'second-owner', { name: 'Not yours' })).statusCode).toBe(404);
    expect(
      (await call('PATCH', `/api/v1/terminal/${secondTerminalId}`, 'owner', { name: 'Not yours' })).statusCode,
    ).toBe(404);
  });
});

describe('never a 500 for what a client can send', () => {
  it('answers 400 for ids beyond the database range and oversized values', async () => {
    const id = terminal('UZS Deposit').id;
    const huge = 1e12;
    expect(
      (await call('PATCH', `/api/v1/terminal/${id}`, 'owner', { attributes: [{ value: '1', attrType: { id: huge } }] }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await call('PATCH', `/api/v1/terminal/${id}`, 'owner', {
          attributes: [{ value: 'x'.repeat(2001), attrType: { id: typeOf('PROVIDER_CODE').id } }],
        })
      ).statusCode,
    ).toBe(400);
    expect((await call('PATCH', `/api/v1/terminal/${id}`, 'owner', { attributes: 'all' })).statusCode).toBe(400);
    expect((await call('DELETE', `/api/v1/terminal/${id}?attributeId=${huge}`, 'owner')).statusCode).toBe(400);
    expect(
      (
        await call('POST', `/api/v1/merchant/${demoMerchantId}/terminal`, 'owner', {
          name: 'Huge ids',
          flowTypeId: huge,
          currencyId: huge,
        })
      ).statusCode,
    ).toBe(400);
    expect((await call('PATCH', '/api/v1/people/me/testDashboard', 'owner', {})).statusCode).toBe(400);
    const bad = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/terminal/${id}`,
      headers: { cookie: cookies.owner!, 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('PUT /api/v1/terminal/{id}', () => {
  it('replaces the whole attribute set', async () => {
    const id = terminal('UZS Withdrawal').id;
    const res = await call('PUT', `/api/v1/terminal/${id}`, 'owner', {
      name: 'UZS Withdrawal',
      attributes: [
        { value: '1.75', attrType: { id: typeOf('FEE_PERCENT').id } },
        { value: 'true', attrType: { id: typeOf('AUTO_CONFIRM').id } },
      ],
    });
    expect(res.statusCode).toBe(200);
    const attrs = res.json().data.attributes as { value: string; attrType: { code: string } }[];
    expect(attrs.map((a) => [a.attrType.code, a.value])).toEqual([
      ['FEE_PERCENT', '1.75'],
      ['AUTO_CONFIRM', 'true'],
    ]);
  });

  it('validates like PATCH and needs both permissions', async () => {
    const id = terminal('UZS Withdrawal').id;
    const bad = await call('PUT', `/api/v1/terminal/${id}`, 'owner', { name: 'ab', attributes: [] });
    expect(bad.json().error.fields.name).toBe('Name must be at least 3 characters long');
    const badAttr = await call('PUT', `/api/v1/terminal/${id}`, 'owner', {
      name: 'UZS Withdrawal',
      attributes: [{ value: 'x1', attrType: { id: typeOf('SUCCESS_PERCENT_LOW_THRESHOLD').id } }],
    });
    expect(badAttr.json().error.fields['attributes.0.value']).toBe('value is not Integer');
    expect((await call('PUT', `/api/v1/terminal/${id}`, 'owner', { name: 'UZS Withdrawal' })).statusCode).toBe(400);
    expect(
      (await call('PUT', `/api/v1/terminal/${id}`, 'support', { name: 'UZS Withdrawal', attributes: [] })).statusCode,
    ).toBe(403);
    expect(
      (await call('PUT', `/api/v1/terminal/${id}`, 'second-owner', { name: 'UZS Withdrawal', attributes: [] }))
        .statusCode,
    ).toBe(404);
  });
});

describe('DELETE /api/v1/terminal/{id}?attributeId=', () => {
  it('removes one attribute of the terminal; 404 when it is not there', async () => {
    const id = terminal('RUB Withdrawal').id;
    const before = (await call('GET', `/api/v1/terminal/${id}`, 'owner')).json().data.attributes as { id: number }[];
    const attrId = before[0]!.id;
    expect((await call('DELETE', `/api/v1/terminal/${id}?attributeId=${attrId}`, 'support')).statusCode).toBe(403);
    expect((await call('DELETE', `/api/v1/terminal/${id}?attributeId=${attrId}`, 'second-owner')).statusCode).toBe(404);
    const res = await call('DELETE', `/api/v1/terminal/${id}?attributeId=${attrId}`, 'owner');
    expect(res.statusCode).toBe(200);
    const after = (await call('GET', `/api/v1/terminal/${id}`, 'owner')).json().data.attributes as { id: number }[];
    expect(after.map((a) => a.id)).not.toContain(attrId);
    expect((await call('DELETE', `/api/v1/terminal/${id}?attributeId=${attrId}`, 'owner')).statusCode).toBe(404);
    // an attribute of another terminal is not removable through this one
    const other = (await call('GET', `/api/v1/terminal/${terminal('UZS Deposit').id}`, 'owner')).json().data
      .attributes[0].id;
    expect((await call('DELETE', `/api/v1/terminal/${id}?attributeId=${other}`, 'owner')).statusCode).toBe(404);
    expect((await call('DELETE', `/api/v1/terminal/${id}`, 'owner')).statusCode).toBe(400);
    expect((await call('DELETE', `/api/v1/terminal/${id}?attributeId=x`, 'owner')).statusCode).toBe(400);
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

  it('creates a test terminal for the caller’s merchant; it appears in the list', async () => {
    const { withdrawal, rub } = await refs();
    const res = await call('POST', `/api/v1/merchant/${demoMerchantId}/terminal`, 'owner', {
      name: 'New RUB payouts',
      flowTypeId: withdrawal,
      currencyId: rub,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      name: 'New RUB payouts',
      paymentFlow: 'WITHDRAWAL',
      currency: { code: 'RUB' },
      isTest: true,
      inTest: true,
      enabled: true,
      attributes: [],
    });
    const list = (await call('GET', '/api/v1/terminal', 'owner')).json().data as { id: string }[];
    expect(list.map((x) => x.id)).toContain(res.json().data.id);
  });

  it('lets merchant.rw.all create for any merchant and nobody else for a foreign one (404)', async () => {
    const { withdrawal, rub } = await refs();
    const body = { name: 'Shop test', flowTypeId: withdrawal, currencyId: rub };
    expect((await call('POST', `/api/v1/merchant/${secondMerchantId}/terminal`, 'owner', body)).statusCode).toBe(404);
    expect((await call('POST', `/api/v1/merchant/${demoMerchantId}/terminal`, 'second-owner', body)).statusCode).toBe(
      404,
    );
    const admin = await call(
      'POST',
      `/api/v1/merchant/${secondMerchantId}/terminal?merchantId=${secondMerchantId}`,
      'admin',
      body,
    );
    expect(admin.statusCode).toBe(201);
    const shop = (await call('GET', '/api/v1/terminal', 'second-owner')).json().data as { id: string }[];
    expect(shop.map((x) => x.id)).toContain(admin.json().data.id);
    expect(
      (await call('POST', `/api/v1/merchant/00000000-0000-4000-8000-000000000000/terminal`, 'admin', body)).statusCode,
    ).toBe(404);
  });

  it('needs terminal.create (403) and validates the body (400)', async () => {
    const { withdrawal, rub } = await refs();
    for (const u of ['viewer', 'support']) {
      expect(
        (
          await call('POST', `/api/v1/merchant/${demoMerchantId}/terminal`, u, {
            name: 'Nope',
            flowTypeId: withdrawal,
            currencyId: rub,
          })
        ).statusCode,
      ).toBe(403);
    }
    const empty = await call('POST', `/api/v1/merchant/${demoMerchantId}/terminal`, 'owner', {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields).toEqual({
      name: 'Name is required',
      flowTypeId: 'Flow type is required',
      currencyId: 'Currency is required',
    });
    const short = await call('POST', `/api/v1/merchant/${demoMerchantId}/terminal`, 'owner', {
      name: 'ab',
      flowTypeId: withdrawal,
      currencyId: rub,
    });
    expect(short.json().error.fields.name).toBe('Name must be at least 3 characters long');
    const unknown = await call('POST', `/api/v1/merchant/${demoMerchantId}/terminal`, 'owner', {
      name: 'Fine',
      flowTypeId: rub + 100000,
      currencyId: 99999,
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields).toEqual({ flowTypeId: 'Unknown flow type', currencyId: 'Unknown currency' });
  });
});

describe('PATCH /api/v1/people/me/testDashboard', () => {
  it('switches a test terminal to production once; 409 after that', async () => {
    const id = terminal('Test UZS Withdrawal').id;
    for (const u of ['viewer', 'support'])
      expect((await call('PATCH', '/api/v1/people/me/testDashboard', u, { terminalId: id })).statusCode).toBe(403);
    expect(
      (await call('PATCH', '/api/v1/people/me/testDashboard', 'second-owner', { terminalId: id })).statusCode,
    ).toBe(404);
    const res = await call('PATCH', '/api/v1/people/me/testDashboard', 'owner', { terminalId: id });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id, isTest: false });
    expect((await call('GET', `/api/v1/terminal/${id}`, 'owner')).json().data.isTest).toBe(false);
    const again = await call('PATCH', '/api/v1/people/me/testDashboard', 'owner', { terminalId: id });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe('The terminal is already in production');
    expect((await call('PATCH', '/api/v1/people/me/testDashboard', 'owner', { terminalId: 'x' })).statusCode).toBe(400);
  });
});
