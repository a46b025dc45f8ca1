import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  INVOICE_CSV_COLUMNS,
  INVOICE_TOTAL_CAP,
  PLATFORM_STAFF_LABEL,
  amountChangeRefusal,
  formatMoney,
  invoiceDetailsResponse,
  invoiceEventsResponse,
  invoiceListResponse,
  invoiceResponse,
  invoiceRuleInput,
  retryRefusal,
  statusByCode,
  statusChangeRefusal,
} from '@paydesk/contracts';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';
import { injectSigned, invoiceBody, merchantSigner, validCard } from '../../../test/merchant-client';
import { eventLog, invoices, ledgerEntries, roles, users } from '../../db/schema';
import { REVEALS_PER_HOUR } from '../audit/service';
import { seedInvoiceFixtures, type FixtureInvoice } from './invoices.fixtures';

let t: TestApp;
let merchantId = '';
let fx: Awaited<ReturnType<typeof seedInvoiceFixtures>>;
/** pviewer: a platform viewer (invoice.provider.read without invoice.credentials.read), made here */
const cookies: Record<'admin' | 'ops' | 'owner' | 'support' | 'viewer' | 'pviewer', string> = {
  admin: '',
  ops: '',
  owner: '',
  support: '',
  viewer: '',
  pviewer: '',
};

beforeAll(async () => {
  t = await createTestApp();
  const [admin] = await t.ctx.db.select().from(users).where(eq(users.username, 'admin'));
  const [viewerRole] = await t.ctx.db.select().from(roles).where(eq(roles.code, 'platform_viewer'));
  await t.ctx.db.insert(users).values({
    username: 'pviewer',
    passwordHash: admin!.passwordHash,
    firstName: 'P',
    lastName: 'Viewer',
    merchantId: null,
    roleId: viewerRole!.id,
  });
  for (const u of Object.keys(cookies) as (keyof typeof cookies)[]) cookies[u] = await loginAs(t.app, u);
  // the owner's merchant (read from the database, not the shared demo file other runs may rewrite)
  merchantId = (await get('/api/v1/people/me')).json().data.merchantId;
  fx = await seedInvoiceFixtures(t.ctx, merchantId);
});
afterAll(async () => {
  await t?.close();
});

type Query = Record<string, string | number | (string | number)[]>;
function qs(q: Query) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) for (const x of Array.isArray(v) ? v : [v]) p.append(k, String(x));
  return p.toString();
}
const get = (url: string, who: keyof typeof cookies = 'owner') =>
  t.app.inject({ method: 'GET', url, headers: { cookie: cookies[who] } });
const list = async (q: Query, who: keyof typeof cookies = 'owner') => {
  const res = await get(`/api/v1/invoice?${qs(q)}`, who);
  expect(res.statusCode, res.body).toBe(200);
  return invoiceListResponse.parse(res.json());
};
/** Every page of a query, to compare with the fixtures. */
const all = async (q: Query, who: keyof typeof cookies = 'owner') => {
  const first = await list({ ...q, size: 100 }, who);
  expect(first.total).toBeLessThanOrEqual(100);
  return first;
};
const byNewest = (a: FixtureInvoice, b: FixtureInvoice) =>
  b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? -1 : 1);
const expectIds = (res: { data: { invoiceId: string }[]; total: number }, rows: FixtureInvoice[]) => {
  const want = [...rows].sort(byNewest).map((r) => r.id);
  expect(res.data.map((d) => d.invoiceId)).toEqual(want);
  expect(res.total).toBe(want.length);
};
const T = () => ({ terminalId: fx.terminalId });
/** Platform staff name the merchant they work on (?merchantId=, lib/scope.ts): the owner's. */
const scoped = (url: string) => `${url}${url.includes('?') ? '&' : '?'}merchantId=${merchantId}`;
const sid = (code: string) => statusByCode(code)!.id;

describe('GET /api/v1/invoice: filters', () => {
  it('without filters lists the merchant newest first with a total', async () => {
    const res = await list({});
    expect(res.data).toHaveLength(10);
    const [{ n }] = (
      await t.ctx.dbh.pool.query(`SELECT count(*)::int AS n FROM invoices WHERE merchant_id = $1`, [merchantId])
    ).rows;
    expect(res.total).toBe(Math.min(n, INVOICE_TOTAL_CAP));
    expect(res.totalIsCapped).toBe(n > INVOICE_TOTAL_CAP);
    const times = res.data.map((d) => Date.parse(d.createdDate));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(res.data.every((d) => d.invoiceId !== fx.other.invoiceId)).toBe(true);
  });

  it('terminalId alone', async () => {
    expectIds(await all(T()), fx.invoices);
  });

  it('statusIds: one value, repeated keys, all statuses', async () => {
    expectIds(
      await all({ ...T(), statusIds: sid('DONE') }),
      fx.invoices.filter((r) => r.status === 'DONE'),
    );
    expectIds(
      await all({ ...T(), statusIds: [sid('NEW'), sid('CANCELED')] }),
      fx.invoices.filter((r) => r.status === 'NEW' || r.status === 'CANCELED'),
    );
    expectIds(await all({ ...T(), statusIds: [1, 2, 3, 4, 5, 6] }), fx.invoices);
    // without a terminal: every row carries one of the statuses asked for
    const res = await list({ statusIds: [sid('DECLINED')], size: 40 });
    expect(res.data.every((d) => d.invoiceStatus.code === 'DECLINED')).toBe(true);
  });

  it('dateFrom is from the day start (UTC), dateTo includes its whole day', async () => {
    const from = Date.UTC(2020, 0, 5);
    const to = Date.UTC(2020, 0, 6);
    expectIds(
      await all({ ...T(), dateFrom: '05/01/2020' }),
      fx.invoices.filter((r) => r.createdAt.getTime() >= from),
    );
    expectIds(
      await all({ ...T(), dateTo: '05/01/2020' }),
      fx.invoices.filter((r) => r.createdAt.getTime() < to),
    );
    const day5 = await all({ ...T(), dateFrom: '05/01/2020', dateTo: '05/01/2020' });
    expectIds(
      day5,
      fx.invoices.filter((r) => r.createdAt.getTime() >= from && r.createdAt.getTime() < to),
    );
    // 00:00:00 and 23:59:59 of that day are both in
    expect(day5.data.map((d) => d.createdDate)).toEqual(
      expect.arrayContaining(['2020-01-05T00:00:00.000Z', '2020-01-05T23:59:59.000Z']),
    );
    expectIds(await all({ ...T(), dateFrom: '06/01/2020', dateTo: '05/01/2020' }), []);
  });

  it('lastStatusDate is the status date within that day', async () => {
    const s = Date.UTC(2020, 0, 3);
    expectIds(
      await all({ ...T(), lastStatusDate: '03/01/2020' }),
      fx.invoices.filter((r) => r.statusDate.getTime() >= s && r.statusDate.getTime() < s + 86_400_000),
    );
  });

  it('flowType', async () => {
    expectIds(
      await all({ ...T(), flowType: 'WITHDRAWAL' }),
      fx.invoices.filter((r) => r.flowType === 'WITHDRAWAL'),
    );
    const res = await list({ flowType: 'DEPOSIT', size: 40 });
    expect(res.data.every((d) => d.flowType.code === 'DEPOSIT')).toBe(true);
  });

  it('sumFrom and sumTo are inclusive minor units', async () => {
    const lo = fx.invoices[4]!.amount;
    const hi = fx.invoices[9]!.amount;
    expectIds(
      await all({ ...T(), sumFrom: lo }),
      fx.invoices.filter((r) => r.amount >= lo),
    );
    expectIds(
      await all({ ...T(), sumTo: hi }),
      fx.invoices.filter((r) => r.amount <= hi),
    );
    expectIds(
      await all({ ...T(), sumFrom: lo, sumTo: hi }),
      fx.invoices.filter((r) => r.amount >= lo && r.amount <= hi),
    );
  });

  it('all filters combined', async () => {
    const lo = fx.invoices[2]!.amount;
    const want = fx.invoices.filter(
      (r) =>
        ['NEW', 'DONE', 'DECLINED', 'IN_PROGRESS'].includes(r.status) &&
        r.flowType === 'DEPOSIT' &&
        r.amount >= lo &&
        r.createdAt.getTime() >= Date.UTC(2020, 0, 2) &&
        r.createdAt.getTime() < Date.UTC(2020, 0, 8),
    );
    expect(want.length).toBeGreaterThan(1);
    expectIds(
      await all({
        ...T(),
        statusIds: [sid('NEW'), sid('DONE'), sid('DECLINED'), sid('IN_PROGRESS')],
        flowType: 'DEPOSIT',
        sumFrom: lo,
        dateFrom: '02/01/2020',
        dateTo: '07/01/2020',
      }),
      want,
    );
    const withDay = want.filter((r) => r.statusDate.toISOString().startsWith('2020-01-05'));
    expectIds(
      await all({
        ...T(),
        statusIds: [sid('NEW'), sid('DONE'), sid('DECLINED'), sid('IN_PROGRESS')],
        flowType: 'DEPOSIT',
        sumFrom: lo,
        dateFrom: '02/01/2020',
        dateTo: '07/01/2020',
        lastStatusDate: '05/01/2020',
      }),
      withDay,
    );
  });

  it('empty values are ignored', async () => {
    expectIds(await all({ ...T(), search: '', flowType: '', dateFrom: '', sumFrom: '' }), fx.invoices);
  });

  it('refuses invalid values with 400 and the field', async () => {
    const bad: [Query, string][] = [
      [{ dateFrom: '31/02/2020' }, 'dateFrom'],
      [{ dateTo: '2020-01-05' }, 'dateTo'],
      [{ lastStatusDate: 'Invalid Date' }, 'lastStatusDate'],
      [{ sumFrom: 'NaN' }, 'sumFrom'],
      [{ sumTo: '12.5' }, 'sumTo'],
      [{ sumFrom: -1 }, 'sumFrom'],
      [{ statusIds: 9 }, 'statusIds'],
      [{ statusIds: ['1', 'x'] }, 'statusIds'],
      [{ flowType: 'REFUND' }, 'flowType'],
      [{ terminalId: 'abc' }, 'terminalId'],
      [{ size: 4 }, 'size'],
      [{ size: 101 }, 'size'],
      [{ page: -1 }, 'page'],
      [{ page: 'first' }, 'page'],
      [{ search: 'x'.repeat(201) }, 'search'],
      [{ sort: 'amount' }, 'sort'],
    ];
    for (const [q, field] of bad) {
      const res = await get(`/api/v1/invoice?${qs(q)}`);
      expect(res.statusCode, JSON.stringify(q)).toBe(400);
      const body = res.json();
      expect(body.error.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(body.error.fields).join(','), JSON.stringify(q)).toContain(field);
    }
  });
});

describe('GET /api/v1/invoice: pagination', () => {
  it('size bounds 5 and 100, default 10', async () => {
    expect((await list({ ...T(), size: 5 })).data).toHaveLength(5);
    expect((await list({ ...T(), size: 100 })).data).toHaveLength(23);
    expect((await list(T())).data).toHaveLength(10);
  });

  it('pages cover every row once; the last page is partial; beyond the end is empty with the same total', async () => {
    const seen: string[] = [];
    for (let page = 0; page < 5; page++) {
      const res = await list({ ...T(), size: 5, page });
      expect(res.total).toBe(23);
      expect(res.data).toHaveLength(page < 4 ? 5 : 3);
      seen.push(...res.data.map((d) => d.invoiceId));
    }
    expect(seen).toEqual([...fx.invoices].sort(byNewest).map((r) => r.id));
    const beyond = await list({ ...T(), size: 5, page: 5 });
    expect(beyond).toEqual({ data: [], total: 23, totalIsCapped: false, nextCursor: null, prevCursor: null });
    expect((await list({ ...T(), size: 5, page: 1000 })).data).toEqual([]);
  });
});

describe('GET /api/v1/invoice: search', () => {
  const one = (res: { data: { invoiceId: string }[] }) => res.data.map((d) => d.invoiceId);

  it('by invoice id, in any case', async () => {
    const id = fx.invoices[7]!.id;
    expect(one(await list({ search: id }))).toEqual([id]);
    expect(one(await list({ search: `  ${id.toUpperCase()} ` }))).toEqual([id]);
  });

  it('by merchant invoice id, exact or a prefix, in any case', async () => {
    expect(one(await list({ search: 'FX-007' }))).toEqual([fx.invoices[7]!.id]);
    const fx00 = fx.invoices.filter((r) => r.merchantInvoiceId.startsWith('FX-00'));
    expect(fx00.length).toBeGreaterThan(1);
    expectIds(await all({ search: 'FX-00' }), fx00);
    expectIds(await all({ search: 'fx-00' }), fx00);
  });

  it('by the first characters of an invoice id, with or without its hyphens', async () => {
    const id = fx.invoices[7]!.id;
    for (const term of [
      id.slice(0, 8),
      id.slice(0, 11),
      id.slice(0, 13).toUpperCase(),
      id.replace(/-/g, '').slice(0, 14),
    ]) {
      const found = one(await list({ search: term, size: 100 }));
      expect(found, term).toContain(id);
      for (const other of found) expect(other.startsWith(id.slice(0, 8)), term).toBe(true);
    }
  });

  it('LIKE wildcards in the term are literal characters', async () => {
    for (const search of ['%', '_', 'FX_0', '\\']) expect((await list({ search })).total, search).toBe(0);
  });

  it('by provider invoice id only for users who may read it (platform staff)', async () => {
    expect(one(await list({ search: 'PRV-FX-9', merchantId }, 'ops'))).toEqual([fx.invoices[9]!.id]);
    for (const u of ['owner', 'support', 'viewer'] as const)
      expect(one(await list({ search: 'PRV-FX-9' }, u)), u).toEqual([]);
  });

  it('by a prefix of the customer external id', async () => {
    expectIds(
      await all({ search: 'FX-CUST' }),
      fx.invoices.filter((r) => r.customerExternalId === 'fx-customer-1'),
    );
  });

  it('by customer external id', async () => {
    expectIds(
      await all({ search: 'fx-customer-1' }),
      fx.invoices.filter((r) => r.customerExternalId === 'fx-customer-1'),
    );
  });

  it('by a whole card number, however typed: found by its lookup hash, never stored in the clear', async () => {
    const withCard = fx.invoices.filter((r) => r.credentialValue === '8600123412341234');
    expect(withCard.length).toBeGreaterThan(0);
    for (const term of ['8600123412341234', '8600 1234 1234 1234', '8600-1234-1234-1234'])
      expectIds(await all({ search: term }), withCard);
    // a part of the number finds nothing: there is nothing to match a prefix against
    expectIds(await all({ search: '86001234' }), []);
  });

  it('combined with filters, and never across merchants', async () => {
    expectIds(
      await all({ search: 'fx-customer-1', flowType: 'DEPOSIT' }),
      fx.invoices.filter((r) => r.customerExternalId === 'fx-customer-1' && r.flowType === 'DEPOSIT'),
    );
    expect(one(await list({ search: 'FX-OTHER-1' }))).toEqual([]);
    expect(one(await list({ search: fx.other.invoiceId }))).toEqual([]);
  });
});

describe('merchant scope', () => {
  it('a merchant user cannot list another merchant by naming it; merchant.rw.all can', async () => {
    const mine = await list({ search: 'FX-OTHER-1', merchantId: fx.other.merchantId });
    expect(mine.data).toEqual([]);
    const admin = await list({ merchantId: fx.other.merchantId }, 'admin');
    expect(admin.data.map((d) => d.invoiceId)).toEqual([fx.other.invoiceId]);
  });

  it('401 without a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/invoice' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/invoice/csv' })).statusCode).toBe(401);
  });
});

describe('GET /api/v1/invoice/:id', () => {
  it('the invoice with its permission-gated fields, by user', async () => {
    const inv = fx.invoices[3]!; // withdrawal with provider id and a card
    const ops = invoiceResponse.parse((await get(scoped(`/api/v1/invoice/${inv.id}`), 'ops')).json()).data;
    expect(ops).toMatchObject({
      invoiceId: inv.id,
      merchantInvoiceId: inv.merchantInvoiceId,
      providerInvoiceId: 'PRV-FX-3',
      amount: inv.amount,
      fee: 0,
      currency: { code: 'RUB', dimension: 2 },
      flowType: { code: 'WITHDRAWAL' },
      invoiceStatus: { code: inv.status, id: sid(inv.status) },
      isTestProcessing: false,
      terminal: { id: fx.terminalId, name: 'Fixture terminal' },
      // masked even for platform staff: the full number only by an audited reveal
      account: { value: '860012******1234' },
    });
    expect(ops.paymentMethod?.paymentMethod.name).toBeTruthy();
    // provider ids and credentials are platform permissions: every merchant user gets them hidden
    for (const u of ['owner', 'support', 'viewer'] as const) {
      const res = await get(`/api/v1/invoice/${inv.id}`, u);
      const merchantView = invoiceResponse.parse(res.json()).data;
      expect(merchantView.providerInvoiceId, u).toBeNull();
      // without invoice.credentials.read not even a masked card: no part of the number is sent
      expect(merchantView.account, u).toBeNull();
      expect(res.body, u).not.toContain('8600');
      expect(res.body, u).not.toContain('1234');
      expect(res.body, u).not.toContain('PRV-FX-3');
    }
    const withCustomer = invoiceResponse.parse((await get(`/api/v1/invoice/${fx.invoices[5]!.id}`)).json()).data;
    expect(withCustomer.customer).toEqual({
      externalId: 'fx-customer-1',
      people: { firstName: 'Ivan', lastName: 'Petrov' },
    });
  });

  describe('requisites of the account', () => {
    // a routed deposit: the requisite the customer paid to, on a provider account with holder and bank
    const inv = () => fx.invoices[14]!;
    const requisite = '4276380012345678';
    let account = { bankName: '', ownerName: '', providerName: '' };
    beforeAll(async () => {
      expect(inv()).toMatchObject({ flowType: 'DEPOSIT', status: 'PAYED' });
      const sealed = t.ctx.vault.seal('invoice.credential', 'CARD', requisite);
      await t.ctx.db
        .update(invoices)
        .set({ credentialValue: sealed.value, credentialHash: sealed.hash, credentialMasked: sealed.masked })
        .where(eq(invoices.id, inv().id));
      const { rows } = await t.ctx.dbh.pool.query(
        `SELECT pa.bank_name, pa.owner_name, p.name AS provider_name FROM invoices i
           JOIN provider_accounts pa ON pa.id = i.account_id JOIN providers p ON p.id = pa.provider_id
          WHERE i.id = $1`,
        [inv().id],
      );
      account = { bankName: rows[0].bank_name, ownerName: rows[0].owner_name, providerName: rows[0].provider_name };
      expect(account.bankName && account.ownerName && account.providerName).toBeTruthy();
    });

    it('with invoice.credentials.read: masked number, holder, bank and (with invoice.provider.read) provider', async () => {
      for (const u of ['admin', 'ops'] as const) {
        const res = await get(scoped(`/api/v1/invoice/${inv().id}`), u);
        const data = invoiceResponse.parse(res.json()).data;
        expect(data.account, u).toEqual({ value: '427638******5678' });
        expect(res.body).not.toContain(requisite);
        const listed = await get(scoped(`/api/v1/invoice?terminalId=${fx.terminalId}&size=100`), u);
        expect(listed.body).toContain('427638******5678');
        expect(listed.body).not.toContain(requisite);
        expect(data.credentials, u).toEqual({
          bankName: account.bankName,
          owner: account.ownerName,
          provider: account.providerName,
        });
      }
    });

    it('without it (viewer, support, owner): no number, holder or bank in the details nor in the list', async () => {
      for (const u of ['viewer', 'support', 'owner'] as const) {
        const res = await get(`/api/v1/invoice/${inv().id}`, u);
        expect(res.statusCode, res.body).toBe(200);
        const data = invoiceResponse.parse(res.json()).data;
        expect(data.account, u).toBeNull();
        // nor the provider: merchant roles do not hold invoice.provider.read either
        expect(data.credentials, u).toBeNull();
        const listed = await get(`/api/v1/invoice?terminalId=${fx.terminalId}&size=100`, u);
        expect(listed.statusCode).toBe(200);
        for (const body of [res.body, listed.body]) {
          expect(body, u).not.toContain(requisite);
          expect(body, u).not.toContain(account.ownerName);
          expect(body, u).not.toContain(account.bankName);
          expect(body, u).not.toContain(account.providerName);
        }
      }
    });

    it('invoice.provider.read alone shows the provider and nothing of the requisites', async () => {
      const res = await get(scoped(`/api/v1/invoice/${inv().id}`), 'pviewer');
      const data = invoiceResponse.parse(res.json()).data;
      expect(data.account).toBeNull();
      expect(data.credentials).toEqual({ bankName: null, owner: null, provider: account.providerName });
      expect(res.body).not.toContain(account.ownerName);
    });

    it('no export carries the number: Invoices.csv holds no card number, for every role', async () => {
      for (const u of ['admin', 'ops', 'owner', 'support', 'viewer'] as const) {
        const res = await get(`/api/v1/invoice/csv?${qs({ ...T(), merchantId })}`, u);
        if (res.statusCode !== 200) continue; // a role without the export
        expect(res.body, u).toContain(inv().merchantInvoiceId);
        expect(res.body, u).not.toContain(requisite);
      }
    });

    it('the full number only by an explicit reveal: invoice.credentials.read, audited, limited per hour', async () => {
      const reveal = (who: keyof typeof cookies, id = inv().id) =>
        t.app.inject({
          method: 'POST',
          url: scoped(`/api/v1/invoice/${id}/credentials/reveal`),
          headers: { cookie: cookies[who] },
        });
      const audited = async () =>
        (
          await t.ctx.dbh.pool.query<{ actor_username: string; target_id: string; merchant_id: string }>(
            `SELECT actor_username, target_id, merchant_id FROM audit_log WHERE action = 'credentials.revealed'
             ORDER BY id`,
          )
        ).rows;
      const before = await audited();
      // without the permission: 403 and nothing audited, nothing of the number in the answer
      for (const u of ['pviewer', 'owner', 'support', 'viewer'] as const) {
        const res = await reveal(u);
        expect(res.statusCode, u).toBe(403);
        expect(res.body).not.toContain(requisite);
      }
      expect(await audited()).toEqual(before);
      // another merchant's invoice (or an unknown one) is not found, and nothing is audited either
      expect((await reveal('ops', '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
      expect(await audited()).toEqual(before);

      const shown = await reveal('ops');
      expect(shown.statusCode, shown.body).toBe(200);
      expect(shown.json().data).toEqual({ invoiceId: inv().id, value: requisite, masked: '427638******5678' });
      expect(await audited()).toEqual([
        ...before,
        { actor_username: 'ops', target_id: inv().id, merchant_id: merchantId },
      ]);
      // at most REVEALS_PER_HOUR a person: the next is 429 and writes nothing; another person may still
      for (let k = (await audited()).filter((r) => r.actor_username === 'ops').length; k < REVEALS_PER_HOUR; k++)
        expect((await reveal('ops')).statusCode).toBe(200);
      const n = (await audited()).length;
      const limited = await reveal('ops');
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error.code).toBe('TOO_MANY_REQUESTS');
      expect(limited.body).not.toContain(requisite);
      expect(await audited()).toHaveLength(n);
      expect((await reveal('admin')).statusCode).toBe(200);
      // an hour later the person may again
      t.clock.advance(3601_000);
      expect((await reveal('ops')).statusCode).toBe(200);
      t.clock.reset();
    });
  });

  it('404 for another merchant or an unknown id, 400 for a malformed id', async () => {
    expect((await get(`/api/v1/invoice/${fx.other.invoiceId}`)).statusCode).toBe(404);
    expect((await get(`/api/v1/invoice/${fx.other.invoiceId}?merchantId=${fx.other.merchantId}`)).statusCode).toBe(404);
    expect((await get(`/api/v1/invoice/00000000-0000-4000-8000-000000000000`)).json().error.code).toBe('NOT_FOUND');
    expect((await get(`/api/v1/invoice/not-a-uuid`)).statusCode).toBe(400);
  });
});

/** RFC 4180 parser (quotes, doubled quotes, separators and newlines inside quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

describe('GET /api/v1/invoice/csv', () => {
  it('streams Invoices.csv as an attachment with a header row, all matching rows, major units and ISO times', async () => {
    const res = await get(`/api/v1/invoice/csv?${qs({ ...T(), merchantId })}`, 'ops');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="Invoices.csv"');
    // the back-office downloads by navigating a hidden same-origin frame: framable by the app only, and a cookie
    // that tells the page the file has started (it ends its "Preparing your file…" notice)
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['set-cookie']).toBe('paydesk-download-started=1; Path=/; Max-Age=30; SameSite=Strict');
    const rows = parseCsv(res.body);
    expect(rows[0]).toEqual([...INVOICE_CSV_COLUMNS]);
    const body = rows.slice(1);
    expect(body).toHaveLength((await list(T())).total);
    const col = (name: (typeof INVOICE_CSV_COLUMNS)[number]) => INVOICE_CSV_COLUMNS.indexOf(name);
    const sorted = [...fx.invoices].sort(byNewest);
    expect(body.map((r) => r[col('Invoice ID')])).toEqual(sorted.map((r) => r.id));
    for (const [i, r] of body.entries()) {
      const inv = sorted[i]!;
      expect(r[col('Amount')]).toBe(`${Math.floor(inv.amount / 100)}.${String(inv.amount % 100).padStart(2, '0')}`);
      expect(r[col('Fee')]).toBe('0.00');
      expect(r[col('Created')]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?\+00:00$/);
      expect(Date.parse(r[col('Created')]!)).toBe(inv.createdAt.getTime());
      expect(Date.parse(r[col('Status Date')]!)).toBe(inv.statusDate.getTime());
      expect(r[col('Status')]).toBe(inv.status);
      expect(r[col('Currency')]).toBe('RUB');
      expect(r[col('Test')]).toBe('false');
      expect(r[col('Provider Invoice ID')]).toBe(inv.providerInvoiceId ?? '');
    }
    // RFC 4180 quoting round-trips; a formula is neutralised
    expect(body.map((r) => r[col('Merchant Invoice ID')])).toEqual(
      expect.arrayContaining(['FX,"quoted"', "'=SUM(A1:A9)"]),
    );
    expect(res.body).toContain('"FX,""quoted"""');
  });

  it('the same filters as the list; provider ids blank without invoice.provider.read; no row cap', async () => {
    const q = { ...T(), statusIds: [sid('DONE'), sid('NEW')], dateFrom: '02/01/2020' };
    const providerCol = INVOICE_CSV_COLUMNS.indexOf('Provider Invoice ID');
    for (const u of ['owner', 'support', 'viewer'] as const) {
      const res = await get(`/api/v1/invoice/csv?${qs(q)}`, u);
      const rows = parseCsv(res.body).slice(1);
      expect(rows, u).toHaveLength((await list(q)).total);
      expect(
        rows.every((r) => r[providerCol] === ''),
        u,
      ).toBe(true);
      expect(res.body, u).not.toContain('PRV-FX');
    }
    // the whole merchant, beyond any list cap
    const whole = parseCsv((await get('/api/v1/invoice/csv')).body).slice(1);
    const [{ n }] = (
      await t.ctx.dbh.pool.query(`SELECT count(*)::int AS n FROM invoices WHERE merchant_id = $1`, [merchantId])
    ).rows;
    expect(whole).toHaveLength(n);
  });

  it('400 for a bad filter, before anything is streamed', async () => {
    const res = await get('/api/v1/invoice/csv?dateFrom=99/99/2020');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.fields).toHaveProperty('dateFrom');
    // the refusal is readable by the app's hidden download frame, and says nothing started
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(res.headers['set-cookie']).toBeUndefined();
    expect((await get('/api/v1/invoice/csv?page=0')).statusCode).toBe(400);
    // every other route stays unframable
    expect((await get('/api/v1/invoice')).headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('a search term with quotes and backslashes is a literal, not SQL', async () => {
    for (const search of ["x' OR '1'='1", "\\'; DROP TABLE invoices; --", "E'\\x27'"]) {
      const res = await get(`/api/v1/invoice/csv?${qs({ search })}`);
      expect(res.statusCode).toBe(200);
      expect(parseCsv(res.body)).toHaveLength(1);
      expect((await list({ search })).total).toBe(0);
    }
  });
});

describe('GET /api/v1/dictionary/InvoiceStatus', () => {
  it('the status reference with ids', async () => {
    const res = await get('/api/v1/dictionary/InvoiceStatus', 'viewer');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((s: { code: string }) => s.code)).toEqual([
      'NEW',
      'IN_PROGRESS',
      'PAYED',
      'DONE',
      'DECLINED',
      'CANCELED',
    ]);
    expect(res.json().data[0]).toEqual({ id: 1, code: 'NEW', value: 'New' });
    expect((await get('/api/v1/dictionary/Nope')).statusCode).toBe(404);
  });
});

const patch = (url: string, payload: unknown, who: keyof typeof cookies = 'owner') =>
  t.app.inject({ method: 'PATCH', url, payload: payload as object, headers: { cookie: cookies[who] } });
const post = (url: string, payload: unknown, who: keyof typeof cookies = 'owner') =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers: { cookie: cookies[who] } });

/** What a refused change must leave untouched: the invoice row, its status events and its ledger legs. */
const snapshot = async (invoiceId: string) => ({
  invoice: (await t.ctx.db.select().from(invoices).where(eq(invoices.id, invoiceId)))[0],
  events: await t.ctx.db.select().from(eventLog).where(eq(eventLog.invoiceId, invoiceId)),
  legs: await t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.invoiceId, invoiceId)),
});

describe('PATCH /api/v1/invoice/status', () => {
  it('changes through the engine: status event, event log with before/after, user and reason, ledger', async () => {
    const inv = fx.invoices.find((r) => r.status === 'PAYED' && r.flowType === 'DEPOSIT')!;
    const res = await patch(
      scoped('/api/v1/invoice/status'),
      { invoiceId: inv.id, statusId: sid('DONE'), reason: 'bank statement' },
      'ops',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.invoiceStatus.code).toBe('DONE');
    const history = (await get(scoped(`/api/v1/event/status?invoiceId=${inv.id}`), 'ops')).json().data;
    expect(history.at(-1)).toMatchObject({ status: { code: 'DONE' } });
    expect(history.at(-1).userId).toBeTruthy();
    const events = (await get(scoped(`/api/v1/event/invoice?invoiceId=${inv.id}`), 'ops')).json().data;
    expect(events.at(-1).description).toContain('bank statement');
    expect(events.at(-1).userId).toBe(history.at(-1).userId);
    const [logged] = await t.ctx.db
      .select()
      .from(eventLog)
      .where(eq(eventLog.id, events.at(-1).id));
    expect(logged!.data).toMatchObject({ before: 'PAYED', after: 'DONE', reason: 'bank statement' });
    const legs = await t.ctx.db.select().from(ledgerEntries).where(eq(ledgerEntries.invoiceId, inv.id));
    expect(legs.length).toBeGreaterThan(0);
    expect(legs.reduce((s, l) => s + l.amount, 0)).toBe(0);
  });

  it('a test invoice may be changed without invoice.status.change; a live one only by platform staff (403, nothing changes)', async () => {
    // a NEW deposit to cancel, and a PAYED deposit whose DONE would credit the merchant
    const targets: [FixtureInvoice, string][] = [
      [fx.invoices[0]!, 'CANCELED'],
      [fx.invoices[8]!, 'DONE'],
    ];
    expect(targets.map(([r]) => [r.flowType, r.status])).toEqual([
      ['DEPOSIT', 'NEW'],
      ['DEPOSIT', 'PAYED'],
    ]);
    for (const [target, to] of targets) {
      const before = await snapshot(target.id);
      // merchant staff, a merchant owner included, never correct what happened to live money
      for (const u of ['viewer', 'support', 'owner'] as const) {
        const denied = await patch(
          '/api/v1/invoice/status',
          { invoiceId: target.id, statusId: sid(to), reason: 'the customer says so' },
          u,
        );
        expect(denied.statusCode, u).toBe(403);
        expect(denied.json().error.code).toBe('FORBIDDEN');
      }
      expect(await snapshot(target.id)).toEqual(before);
    }
    // the same engine rules hold for test invoices: no requisites were given, so it cannot wait for money…
    const waiting = await patch(
      '/api/v1/invoice/status',
      { invoiceId: fx.testInvoice.id, statusId: sid('IN_PROGRESS'), reason: 'testing the flow' },
      'viewer',
    );
    expect(waiting.statusCode).toBe(409);
    // …but anyone who sees it may cancel it: nothing real moves
    const ok = await patch(
      '/api/v1/invoice/status',
      { invoiceId: fx.testInvoice.id, statusId: sid('CANCELED'), reason: 'testing the flow' },
      'viewer',
    );
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.invoiceStatus.code).toBe('CANCELED');
  });

  it('404 for another merchant, 409 for the current status, 400 for a bad body or a missing reason', async () => {
    expect(
      (
        await patch(
          '/api/v1/invoice/status',
          { invoiceId: fx.other.invoiceId, statusId: 4, reason: 'not my merchant' },
          'admin',
        )
      ).statusCode,
    ).toBe(404);
    const same = fx.invoices.find((r) => r.status === 'CANCELED')!;
    const conflict = await patch(
      scoped('/api/v1/invoice/status'),
      { invoiceId: same.id, statusId: sid('CANCELED'), reason: 'already so' },
      'ops',
    );
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().error.code).toBe('INVALID_STATE');
    const before = await snapshot(same.id);
    const reason = 'a good reason';
    for (const body of [
      { invoiceId: same.id, statusId: 99, reason },
      { invoiceId: same.id, statusId: '4', reason },
      { invoiceId: 'x', statusId: 4, reason },
      { statusId: 4, reason },
      { invoiceId: same.id, statusId: 4, reason, extra: true },
      { invoiceId: same.id, statusId: 4, reason: 'r'.repeat(501) },
      { invoiceId: same.id, statusId: 4 },
      { invoiceId: same.id, statusId: 4, reason: '' },
      { invoiceId: same.id, statusId: 4, reason: '  ab  ' },
      { invoiceId: same.id, statusId: 4, reason: 42 },
    ]) {
      const res = await patch(scoped('/api/v1/invoice/status'), body, 'ops');
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    const missing = await patch(scoped('/api/v1/invoice/status'), { invoiceId: same.id, statusId: 4 }, 'ops');
    expect(missing.json().error.fields.reason).toBe('Reason is required');
    const short = await patch(
      scoped('/api/v1/invoice/status'),
      { invoiceId: same.id, statusId: 4, reason: '  ab  ' },
      'ops',
    );
    expect(short.json().error.fields.reason).toBe('Reason must be at least 3 characters long');
    expect(await snapshot(same.id)).toEqual(before);
  });
});

describe('PATCH /api/v1/invoice/amount', () => {
  it('changes through the engine and records before/after', async () => {
    const inv = fx.invoices[10]!;
    const res = await patch(
      scoped('/api/v1/invoice/amount'),
      { invoiceId: inv.id, amount: 123_456, reason: 'customer sent more' },
      'ops',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.amount).toBe(123_456);
    const [row] = await t.ctx.db.select().from(invoices).where(eq(invoices.id, inv.id));
    expect(row!.amount).toBe(123_456);
    const [logged] = await t.ctx.db
      .select()
      .from(eventLog)
      .where(and(eq(eventLog.invoiceId, inv.id), eq(eventLog.code, 'AMOUNT_CHANGED')));
    expect(logged!.data).toMatchObject({ before: inv.amount, after: 123_456, reason: 'customer sent more' });
    expect(logged!.userId).toBeTruthy();
    // people read the description: major units with the currency's dimension and code
    expect(inv.amount).toBe(133_450);
    expect(logged!.description).toBe('Amount changed from 1,334.50 RUB to 1,234.56 RUB: customer sent more');
  });

  it('403 without invoice.amount.change, 404 for another merchant, 409 for the same amount, 400 for bad amounts', async () => {
    const inv = fx.invoices[11]!;
    const reason = 'customer sent less';
    const before = await snapshot(inv.id);
    for (const u of ['support', 'owner', 'viewer'] as const) {
      const res = await patch('/api/v1/invoice/amount', { invoiceId: inv.id, amount: 5000, reason }, u);
      expect(res.statusCode, u).toBe(403);
      expect(res.json().error.message).toBe('Only platform staff may do this.');
    }
    expect(await snapshot(inv.id)).toEqual(before);
    expect(
      (await patch('/api/v1/invoice/amount', { invoiceId: fx.other.invoiceId, amount: 5000, reason }, 'admin'))
        .statusCode,
    ).toBe(404);
    expect(
      (await patch(scoped('/api/v1/invoice/amount'), { invoiceId: inv.id, amount: inv.amount, reason }, 'ops'))
        .statusCode,
    ).toBe(409);
    for (const amount of [0, -100, 12.5, '100', null, 2 ** 53]) {
      const res = await patch(scoped('/api/v1/invoice/amount'), { invoiceId: inv.id, amount, reason }, 'ops');
      expect(res.statusCode, String(amount)).toBe(400);
      expect(res.json().error.fields).toHaveProperty('amount');
    }
    for (const bad of [undefined, '', 'ab', '  x  ', 'r'.repeat(501)]) {
      const res = await patch(
        scoped('/api/v1/invoice/amount'),
        { invoiceId: inv.id, amount: 5000, reason: bad },
        'ops',
      );
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json().error.fields).toHaveProperty('reason');
    }
    expect(await snapshot(inv.id)).toEqual(before);
  });
});

describe('invoice history sections', () => {
  const inv = () => fx.invoices[4]!;
  it('each needs its permission (status history needs none)', async () => {
    for (const [url, ok] of [
      ['/api/v1/event/status', 200],
      ['/api/v1/event/error', 403],
      ['/api/v1/event/invoice', 403],
      ['/api/v1/transaction/invoice', 403],
    ] as const) {
      expect((await get(`${url}?invoiceId=${inv().id}`, 'viewer')).statusCode, url).toBe(ok);
      const res = await get(`${url}?invoiceId=${inv().id}`, 'support');
      expect(res.statusCode, url).toBe(200);
      expect(Array.isArray(res.json().data)).toBe(true);
      expect((await get(`${url}?invoiceId=${fx.other.invoiceId}`, 'admin')).statusCode, url).toBe(404);
      expect((await get(`${url}?invoiceId=nope`, 'admin')).statusCode, url).toBe(400);
      expect((await get(url, 'admin')).statusCode, url).toBe(400);
    }
  });
});

describe('support tickets', () => {
  it('lists the tickets of an invoice', async () => {
    const res = await get(`/api/v1/merchant/support/${fx.declined.id}`, 'viewer');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((x: { status: { code: string } }) => x.status.code)).toEqual([
      'NEW',
      'IN_WORK',
      'SOLVED',
    ]);
    expect(res.json().data[0]).toMatchObject({
      description: 'Paid but declined (A)',
      status: { code: 'NEW', value: 'New' },
    });
    expect((await get(`/api/v1/merchant/support/${fx.other.invoiceId}`)).statusCode).toBe(404);
  });

  it('approve solves the ticket and completes the invoice; reject rejects; decided tickets are 409', async () => {
    const [a, b, solved] = fx.tickets;
    const tickets = async () =>
      (await get(`/api/v1/merchant/support/${fx.declined.id}`, 'viewer')).json().data as { status: { code: string } }[];
    const ticketsBefore = await tickets();
    const invoiceBefore = await snapshot(fx.declined.id);
    // deciding a ticket moves money: platform staff only, never the merchant's own staff
    for (const u of ['viewer', 'support', 'owner'] as const)
      for (const decision of ['approve', 'reject'])
        expect(
          (await post(`/api/v1/merchant/support/${decision}`, { ticketId: a!.id }, u)).statusCode,
          `${u} ${decision}`,
        ).toBe(403);
    expect(await tickets()).toEqual(ticketsBefore);
    expect(await snapshot(fx.declined.id)).toEqual(invoiceBefore);

    const ok = await post(scoped('/api/v1/merchant/support/approve'), { ticketId: a!.id }, 'ops');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.status.code).toBe('SOLVED');
    const inv = (await get(`/api/v1/invoice/${fx.declined.id}`)).json().data;
    expect(inv.invoiceStatus.code).toBe('DONE');
    const rejected = await post(scoped('/api/v1/merchant/support/reject'), { ticketId: b!.id }, 'ops');
    expect(rejected.json().data.status.code).toBe('REJECTED');
    for (const id of [a!.id, b!.id, solved!.id]) {
      const again = await post(scoped('/api/v1/merchant/support/reject'), { ticketId: id }, 'ops');
      expect(again.statusCode).toBe(409);
      expect(again.json().error.code).toBe('INVALID_STATE');
    }
  });

  it("404 for another merchant's ticket, 400 for a bad body", async () => {
    expect(
      (await post(scoped('/api/v1/merchant/support/approve'), { ticketId: fx.other.ticketId }, 'ops')).statusCode,
    ).toBe(404);
    for (const body of [{}, { ticketId: 'x' }, { ticketId: 0 }, { ticketId: 1, extra: 1 }]) {
      expect(
        (await post(scoped('/api/v1/merchant/support/approve'), body, 'ops')).statusCode,
        JSON.stringify(body),
      ).toBe(400);
    }
  });
});

describe('who acted, in the event log and the status history', () => {
  it("names the user; a merchant's staff learn of platform staff only that they were (no name, username or id)", async () => {
    const inv = fx.invoices.find((r) => r.status === 'NEW' && r.flowType === 'DEPOSIT' && r !== fx.invoices[0])!;
    const res = await patch(
      scoped('/api/v1/invoice/status'),
      { invoiceId: inv.id, statusId: sid('CANCELED'), reason: 'customer called' },
      'ops',
    );
    expect(res.statusCode, res.body).toBe(200);
    const [ops] = await t.ctx.db.select().from(users).where(eq(users.username, 'ops'));
    const eventsAs = async (who: 'ops' | 'admin' | 'support' | 'owner') => {
      const r = await get(scoped(`/api/v1/event/invoice?invoiceId=${inv.id}`), who);
      expect(r.statusCode, r.body).toBe(200);
      return { body: r.body, last: invoiceEventsResponse.parse(r.json()).data.at(-1)! };
    };
    for (const who of ['ops', 'admin'] as const) {
      const { last } = await eventsAs(who);
      expect(last.code, who).toBe('STATUS_CHANGED_BY_OPERATOR');
      expect(last.userId, who).toBe(ops!.id);
      expect(last.user, who).toEqual({ name: `${ops!.firstName} ${ops!.lastName}`, username: 'ops' });
    }
    for (const who of ['support', 'owner'] as const) {
      const { body, last } = await eventsAs(who);
      expect(last.userId, who).toBeNull();
      expect(last.user, who).toEqual({ name: PLATFORM_STAFF_LABEL, username: null });
      expect(body, who).not.toContain(ops!.id);
      expect(body, who).not.toContain(ops!.lastName);
      expect(body, who).not.toContain('"ops"');
    }
    const history = async (who: 'ops' | 'viewer') =>
      (await get(scoped(`/api/v1/event/status?invoiceId=${inv.id}`), who)).json().data.at(-1).userId;
    expect(await history('ops')).toBe(ops!.id);
    expect(await history('viewer')).toBeNull();
  });

  it("a merchant's own staff are named to each other; events no user caused have none", async () => {
    // anyone who sees a test invoice may move it: the merchant's owner cancels one
    const [owner] = await t.ctx.db.select().from(users).where(eq(users.username, 'owner'));
    const res = await patch(
      '/api/v1/invoice/status',
      { invoiceId: fx.testInvoice.id, statusId: sid('DECLINED'), reason: 'trying the flow' },
      'owner',
    );
    expect(res.statusCode, res.body).toBe(200);
    for (const who of ['support', 'ops'] as const) {
      const events = invoiceEventsResponse.parse(
        (await get(scoped(`/api/v1/event/invoice?invoiceId=${fx.testInvoice.id}`), who)).json(),
      ).data;
      expect(events.at(-1), who).toMatchObject({
        userId: owner!.id,
        user: { name: `${owner!.firstName} ${owner!.lastName}`, username: 'owner' },
      });
    }
    // an event of the engine (no user)
    await t.ctx.db.insert(eventLog).values({
      merchantId,
      invoiceId: fx.testInvoice.id,
      code: 'SYSTEM_NOTE',
      description: 'written by the engine',
      userId: null,
    });
    const events = invoiceEventsResponse.parse(
      (await get(`/api/v1/event/invoice?invoiceId=${fx.testInvoice.id}`, 'support')).json(),
    ).data;
    expect(events.at(-1)).toMatchObject({ code: 'SYSTEM_NOTE', userId: null, user: null });
  });
});

describe('invoice details: what the actions depend on, by the rules the engine refuses with', () => {
  /** A live withdrawal whose payout (attempt 1) is still with the provider: created, completed by the customer. */
  async function withdrawalWithPendingPayout() {
    const terminal = t.demo.terminals.find((x) => x.flowType === 'WITHDRAWAL' && x.currency === 'UZS' && !x.isTest)!;
    const sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
    const amount = 12_345_00;
    const create = await injectSigned(
      t.app,
      sign,
      'POST',
      '/api/merchant/v1/invoices',
      invoiceBody(terminal, { amount, paymentMethod: 'HUMOUZS' }),
    );
    expect(create.statusCode, create.body).toBe(201);
    const { invoiceId, formId } = create.json().data as { invoiceId: string; formId: string };
    const form = `/api/payments/form/${formId}`;
    const init = (await t.app.inject({ method: 'POST', url: `${form}/init` })).json().data;
    const cred = await t.app.inject({
      method: 'POST',
      url: `${form}/credential`,
      payload: { amount, paymentMethodId: init.paymentMethodId },
    });
    expect(cred.statusCode, cred.body).toBe(200);
    const done = await t.app.inject({ method: 'POST', url: `${form}/complete`, payload: { credential: validCard } });
    expect(done.statusCode, done.body).toBe(200);
    return invoiceId;
  }
  const details = async (id: string, who: keyof typeof cookies) => {
    const res = await get(scoped(`/api/v1/invoice/${id}`), who);
    expect(res.statusCode, res.body).toBe(200);
    return invoiceDetailsResponse.parse(res.json()).data;
  };

  it('a pending payout: Retry and the statuses the engine refuses are refused, in the words the server answers with', async () => {
    const invoiceId = await withdrawalWithPendingPayout();
    const inv = await details(invoiceId, 'ops');
    expect(inv.invoiceStatus.code).toBe('IN_PROGRESS');
    expect(inv.processing).toEqual({
      pendingAttempt: 1,
      payoutDetailsGiven: true,
      paidOut: false,
      accountAssigned: true,
    });
    const rule = invoiceRuleInput(inv);

    const said = retryRefusal(rule);
    expect(said).toBe('Payout attempt 1 is still with the provider; retry only after it is declined');
    const retry = await t.app.inject({
      method: 'POST',
      url: scoped('/api/v1/invoice/retry'),
      headers: { cookie: cookies.ops },
      payload: { invoiceId },
    });
    expect(retry.statusCode).toBe(409);
    expect(retry.json().error).toMatchObject({ code: 'INVALID_STATE', message: said });

    // every status the rule refuses, the server refuses; the one it allows (DONE: it was paid) the server takes
    const refused = ['NEW', 'DECLINED', 'CANCELED'] as const;
    for (const to of refused) {
      expect(statusChangeRefusal(rule, to), to).toMatch(/^Payout attempt 1 is still with the provider/);
      const res = await patch(
        scoped('/api/v1/invoice/status'),
        { invoiceId, statusId: sid(to), reason: 'trying a refused status' },
        'ops',
      );
      expect(res.statusCode, to).toBe(409);
      expect(res.json().error.message, to).toMatch(/payout attempt 1 is still with the provider/i);
    }
    expect(statusChangeRefusal(rule, 'PAYED')).toBe('PAYED is not a status of a withdrawal');
    expect(statusChangeRefusal(rule, 'DONE')).toBeNull();
    const paid = await patch(
      scoped('/api/v1/invoice/status'),
      { invoiceId, statusId: sid('DONE'), reason: 'bank statement shows it paid' },
      'ops',
    );
    expect(paid.statusCode, paid.body).toBe(200);
    expect(invoiceDetailsResponse.parse(paid.json()).data.invoiceStatus.code).toBe('DONE');
  });

  it('sent to whoever reads the provider transactions or may act on them; not to a merchant viewer of a live invoice', async () => {
    const live = fx.invoices.find((r) => r.flowType === 'WITHDRAWAL' && r.status === 'IN_PROGRESS')!;
    expect((await details(live.id, 'ops')).processing).toEqual({
      pendingAttempt: null,
      payoutDetailsGiven: true,
      paidOut: false,
      accountAssigned: false,
    });
    expect((await details(live.id, 'support')).processing).not.toBeNull();
    expect((await details(live.id, 'viewer')).processing).toBeNull();
    // a test invoice: anyone who sees it may move its status, so the viewer is told what that depends on
    const test = await details(fx.testInvoice.id, 'viewer');
    expect(test.processing).toMatchObject({ pendingAttempt: null, accountAssigned: false });
  });

  it('an amount change to the current amount is refused in major units with the currency', async () => {
    const inv = fx.invoices[12]!;
    const res = await patch(
      scoped('/api/v1/invoice/amount'),
      { invoiceId: inv.id, amount: inv.amount, reason: 'same again' },
      'ops',
    );
    expect(res.statusCode).toBe(409);
    const money = (minor: number) => formatMoney(minor, 2, 'en', 'RUB');
    expect(res.json().error.message).toBe(amountChangeRefusal(inv, inv.amount, money));
    expect(res.json().error.message).toBe(`The amount is already ${money(inv.amount)}`);
  });
});

describe('OpenAPI', () => {
  it('the document renders with these routes', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json().paths)).toEqual(
      expect.arrayContaining(['/api/v1/invoice', '/api/v1/invoice/csv', '/api/v1/invoice/{id}']),
    );
  });
});
