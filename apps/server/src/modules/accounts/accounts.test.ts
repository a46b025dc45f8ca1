import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { CREDENTIAL_MESSAGES, LIMIT_MESSAGES } from '@paydesk/contracts';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';
import { REVEALS_PER_HOUR } from '../audit/service';
import {
  accountCredentials,
  accountLimits,
  paymentMethods,
  providerAccounts,
  providers,
  roles,
  users,
} from '../../db/schema';

let t: TestApp;
const cookies: Record<string, string> = {};
/** An account with a card credential and ledger history. */
let cardAccount: { id: number; credentialId: number; value: string };

beforeAll(async () => {
  t = await createTestApp();
  // platform staff roles: one may manage accounts but not read card numbers, one may only read them
  // (provider accounts belong to the platform: people.account(.edit) are platform permissions)
  const [viewer] = await t.ctx.db.select().from(users).where(eq(users.username, 'viewer'));
  const [role] = await t.ctx.db
    .insert(roles)
    .values({ name: 'account-clerk', scope: 'platform', permissions: ['people.account', 'people.account.edit'] })
    .returning();
  const [reader] = await t.ctx.db
    .insert(roles)
    .values({ name: 'account-reader', scope: 'platform', permissions: ['people.account'] })
    .returning();
  await t.ctx.db.insert(users).values([
    {
      username: 'clerk',
      passwordHash: viewer!.passwordHash,
      firstName: 'C',
      lastName: 'L',
      merchantId: null,
      roleId: role!.id,
    },
    {
      username: 'reader',
      passwordHash: viewer!.passwordHash,
      firstName: 'R',
      lastName: 'D',
      merchantId: null,
      roleId: reader!.id,
    },
  ]);
  for (const u of ['owner', 'shop2', 'admin', 'ops', 'viewer', 'support', 'clerk', 'reader'])
    cookies[u] = await loginAs(t.app, u);
  const res = await t.ctx.db.execute<{ id: number; credential_id: number; value: string }>(sql`
    SELECT c.account_id AS id, c.id AS credential_id, c.value FROM account_credentials c
    WHERE c.credential_type = 'CARD'
      AND EXISTS (SELECT 1 FROM ledger_entries e WHERE e.provider_account_id = c.account_id AND e.account = 'provider_account')
    ORDER BY c.account_id LIMIT 1`);
  const r = res.rows[0]!;
  cardAccount = {
    id: Number(r.id),
    credentialId: Number(r.credential_id),
    value: t.ctx.vault.keyring.decrypt('account.credential', r.value),
  };
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

/** The text of a database refusal (drizzle wraps the driver's error, which names the constraint). */
async function dbRefusal(p: PromiseLike<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    const err = e as { message?: string; cause?: { message?: string; constraint?: string } };
    return [err.message, err.cause?.message, err.cause?.constraint].join(' ');
  }
  throw new Error('the database accepted it');
}

describe('who may hold the account permissions', () => {
  it('a merchant-scoped role holding people.account is refused by the database', async () => {
    expect(
      await dbRefusal(
        t.ctx.db.insert(roles).values({ name: 'merchant-clerk', scope: 'merchant', permissions: ['people.account'] }),
      ),
    ).toContain('roles_merchant_permissions_check');
    expect(await t.ctx.db.select().from(roles).where(eq(roles.name, 'merchant-clerk'))).toEqual([]);
  });

  it('a merchant user cannot be given a platform role', async () => {
    const [clerkRole] = await t.ctx.db.select().from(roles).where(eq(roles.name, 'account-clerk'));
    const [viewer] = await t.ctx.db.select().from(users).where(eq(users.username, 'viewer'));
    expect(
      await dbRefusal(t.ctx.db.update(users).set({ roleId: clerkRole!.id }).where(eq(users.username, 'viewer'))),
    ).toContain('users_role_scope_fk');
    const [after] = await t.ctx.db.select().from(users).where(eq(users.username, 'viewer'));
    expect(after!.roleId).toBe(viewer!.roleId);
  });
});

describe('GET /api/v1/people/account', () => {
  it('lists provider accounts for people.account holders (platform staff only)', async () => {
    for (const u of ['admin', 'ops', 'reader']) {
      const res = await call('GET', '/api/v1/people/account', u);
      expect(res.statusCode, u).toBe(200);
      const data = res.json().data;
      expect(data.length).toBeGreaterThan(10);
      expect(data[0]).toEqual({
        id: expect.any(Number),
        providerName: expect.any(String),
        bankName: expect.any(String),
        paymentMethodName: expect.any(String),
        enabled: expect.any(Boolean),
        isSandbox: expect.any(Boolean),
        currency: expect.any(String),
      });
    }
    // merchant staff never see the platform's provider accounts, a merchant owner included
    for (const u of ['owner', 'shop2', 'viewer', 'support']) {
      const res = await call('GET', '/api/v1/people/account', u);
      expect(res.statusCode, u).toBe(403);
      expect(res.json().error).toMatchObject({ code: 'FORBIDDEN', message: 'Only platform staff may do this.' });
      expect(res.body).not.toContain('providerName');
    }
    expect((await call('GET', '/api/v1/people/account')).statusCode).toBe(401);
  });
});

describe('GET /api/v1/people/account/{id}', () => {
  it('gives credentials, card numbers masked for every role; the full number only by an audited reveal', async () => {
    const masked = `${cardAccount.value.slice(0, 6)}******${cardAccount.value.slice(-4)}`;
    for (const u of ['admin', 'ops', 'clerk', 'reader']) {
      const res = await call('GET', `/api/v1/people/account/${cardAccount.id}`, u);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        id: cardAccount.id,
        providerName: expect.any(String),
        paymentMethodName: expect.any(String),
        currency: { code: expect.any(String), dimension: 2 },
      });
      const cred = res.json().data.credentials.find((c: { id: number }) => c.id === cardAccount.credentialId);
      expect(cred, u).toEqual({ id: cardAccount.credentialId, credentialType: 'CARD', paramType: 'S', value: masked });
      expect(res.body).not.toContain(cardAccount.value);
    }

    const reveals = async () =>
      (
        await t.ctx.db.execute<{ actor_username: string; target_type: string; target_id: string }>(sql`
          SELECT actor_username, target_type, target_id FROM audit_log WHERE action = 'credentials.revealed'
          ORDER BY id`)
      ).rows;
    const reveal = (u: string) =>
      call('POST', `/api/v1/people/account/credentials/${cardAccount.credentialId}/reveal`, u);
    // people.account without invoice.credentials.read, and every merchant user: 403, nothing audited
    for (const u of ['clerk', 'reader', 'owner', 'shop2', 'support', 'viewer']) {
      const res = await reveal(u);
      expect(res.statusCode, u).toBe(403);
      expect(res.body).not.toContain(cardAccount.value);
    }
    expect(await reveals()).toEqual([]);
    const shown = await reveal('ops');
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json().data).toEqual({
      credentialId: cardAccount.credentialId,
      accountId: cardAccount.id,
      credentialType: 'CARD',
      value: cardAccount.value,
    });
    expect(await reveals()).toEqual([
      { actor_username: 'ops', target_type: 'account_credential', target_id: String(cardAccount.credentialId) },
    ]);
    expect((await call('POST', '/api/v1/people/account/credentials/999999/reveal', 'ops')).statusCode).toBe(404);
    expect(await reveals()).toHaveLength(1);

    // at most REVEALS_PER_HOUR a person, invoices' and accounts' reveals together: the next is 429 and writes nothing
    for (let k = 1; k < REVEALS_PER_HOUR; k++) expect((await reveal('ops')).statusCode).toBe(200);
    const limited = await reveal('ops');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('TOO_MANY_REQUESTS');
    expect(limited.body).not.toContain(cardAccount.value);
    expect(await reveals()).toHaveLength(REVEALS_PER_HOUR);
    // another person still may; the first again an hour later
    expect((await reveal('admin')).statusCode).toBe(200);
    t.clock.advance(3601_000);
    expect((await reveal('ops')).statusCode).toBe(200);
    t.clock.reset();
  });

  it('404 for an unknown account, 400 for a bad id, 403 without people.account', async () => {
    expect((await call('GET', '/api/v1/people/account/999999', 'ops')).statusCode).toBe(404);
    expect((await call('GET', '/api/v1/people/account/abc', 'ops')).statusCode).toBe(400);
    for (const u of ['owner', 'shop2', 'support', 'viewer']) {
      const res = await call('GET', `/api/v1/people/account/${cardAccount.id}`, u);
      expect(res.statusCode, u).toBe(403);
      expect(res.body).not.toContain(cardAccount.value);
    }
  });
});

describe('PATCH /api/v1/people/account/{id}', () => {
  it('toggles enabled with people.account.edit', async () => {
    const off = await call('PATCH', `/api/v1/people/account/${cardAccount.id}`, 'clerk', { enabled: false });
    expect(off.statusCode).toBe(200);
    expect(off.json().data).toMatchObject({ id: cardAccount.id, enabled: false });
    const [row] = await t.ctx.db.select().from(providerAccounts).where(eq(providerAccounts.id, cardAccount.id));
    expect(row!.enabled).toBe(false);
    expect(
      (await call('PATCH', `/api/v1/people/account/${cardAccount.id}`, 'ops', { enabled: true })).json().data.enabled,
    ).toBe(true);
  });

  it('403 without people.account.edit (merchant owners included), 400 for a bad body, 404 for an unknown account', async () => {
    for (const u of ['reader', 'owner', 'shop2', 'viewer', 'support'])
      expect((await call('PATCH', `/api/v1/people/account/${cardAccount.id}`, u, { enabled: false })).statusCode).toBe(
        403,
      );
    const [row] = await t.ctx.db.select().from(providerAccounts).where(eq(providerAccounts.id, cardAccount.id));
    expect(row!.enabled).toBe(true);
    expect((await call('PATCH', `/api/v1/people/account/${cardAccount.id}`, 'ops', { enabled: 'no' })).statusCode).toBe(
      400,
    );
    expect((await call('PATCH', `/api/v1/people/account/${cardAccount.id}`, 'ops', {})).statusCode).toBe(400);
    expect((await call('PATCH', '/api/v1/people/account/999999', 'ops', { enabled: true })).statusCode).toBe(404);
  });
});

describe('POST /api/v1/people/create', () => {
  it('creates an account with a default limit row', async () => {
    const [method] = await t.ctx.db.select().from(paymentMethods).where(eq(paymentMethods.code, 'HUMOUZS'));
    const [provider] = await t.ctx.db.select().from(providers).where(eq(providers.code, 'SILKPAY'));
    const res = await call('POST', '/api/v1/people/create', 'clerk', {
      paymentMethodId: method!.id,
      paymentProviderId: provider!.id,
      bankName: ' Agrobank ',
      ownerName: 'Ali Valiyev',
    });
    expect(res.statusCode).toBe(201);
    const created = res.json().data;
    expect(created).toEqual({
      id: expect.any(Number),
      providerName: 'SilkPay Processing',
      bankName: 'Agrobank',
      paymentMethodName: 'Humo',
      enabled: true,
      isSandbox: false,
      currency: 'UZS',
    });
    const [limit] = await t.ctx.db.select().from(accountLimits).where(eq(accountLimits.accountId, created.id));
    expect(limit).toMatchObject({ limit: 0n, priority: 0, checkUniqueAmount: false });
    const l = await call('GET', `/api/router/v1/people/account/limit/${created.id}`, 'ops');
    expect(l.json().data).toEqual({
      peopleAccountId: created.id,
      limit: 0,
      balance: 0,
      priority: 0,
      checkUniqueAmount: false,
    });
    const bare = await call('POST', '/api/v1/people/create', 'admin', {
      paymentMethodId: method!.id,
      paymentProviderId: provider!.id,
    });
    expect(bare.json().data.bankName).toBeNull();
  });

  it('400 with a message per missing or unknown field, 403 without people.account.edit', async () => {
    const empty = await call('POST', '/api/v1/people/create', 'ops', {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.fields).toEqual({
      paymentMethodId: 'Payment method is required',
      paymentProviderId: 'Payment provider is required',
    });
    const unknown = await call('POST', '/api/v1/people/create', 'ops', {
      paymentMethodId: 9999,
      paymentProviderId: 9999,
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields).toEqual({
      paymentMethodId: 'Unknown payment method',
      paymentProviderId: 'Unknown payment provider',
    });
    const count = async () => (await t.ctx.db.select({ id: providerAccounts.id }).from(providerAccounts)).length;
    const before = await count();
    for (const u of ['reader', 'owner', 'shop2', 'viewer', 'support'])
      expect(
        (await call('POST', '/api/v1/people/create', u, { paymentMethodId: 1, paymentProviderId: 1 })).statusCode,
      ).toBe(403);
    expect(await count()).toBe(before);
  });
});

describe('credentials', () => {
  it('adds, edits and removes; values are normalised and validated by type', async () => {
    const add = await call('POST', '/api/v1/people/account/credentials', 'admin', {
      peopleAccountId: cardAccount.id,
      credentialType: 'CARD',
      paramType: 'S',
      value: '4111 1111 1111 1111',
    });
    expect(add.statusCode).toBe(201);
    const created = add.json().data;
    expect(created).toEqual({
      id: expect.any(Number),
      credentialType: 'CARD',
      paramType: 'S',
      value: '411111******1111',
    });
    const clerkView = (await call('GET', `/api/v1/people/account/${cardAccount.id}`, 'clerk')).json().data.credentials;
    expect(clerkView.find((c: { id: number }) => c.id === created.id).value).toBe('411111******1111');

    const edit = await call('PUT', `/api/v1/people/account/credentials/${created.id}`, 'clerk', {
      value: '5555555555554444',
    });
    expect(edit.statusCode).toBe(200);
    expect(edit.json().data.value).toBe('555555******4444');
    // stored encrypted, with its keyed hash and masked form; the audit trail holds the masked form only
    const [row] = await t.ctx.db.select().from(accountCredentials).where(eq(accountCredentials.id, created.id));
    expect(row!.value).toMatch(/^v1:/);
    expect(row!.value).not.toContain('5555555555554444');
    expect(t.ctx.vault.keyring.decrypt('account.credential', row!.value)).toBe('5555555555554444');
    expect(row!.valueHash).toBe(t.ctx.vault.hash('5555555555554444'));
    expect(row!.valueMasked).toBe('555555******4444');
    const audited = await t.ctx.db.execute<{ text: string }>(
      sql`SELECT before::text || after::text AS text FROM audit_log WHERE action = 'account.credential_changed'`,
    );
    expect(audited.rows.map((r) => r.text).join()).not.toMatch(/5555555555554444|4111111111111111/);

    // one card is the requisite of one account: the same number again is refused, found by its hash
    const again = await call('POST', '/api/v1/people/account/credentials', 'admin', {
      peopleAccountId: cardAccount.id,
      credentialType: 'CARD',
      paramType: 'S',
      value: '5555 5555 5555 4444',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(`This card is already a requisite of account ${cardAccount.id}`);

    const phone = await call('POST', '/api/v1/people/account/credentials', 'admin', {
      peopleAccountId: cardAccount.id,
      credentialType: 'PHONE',
      paramType: 'S',
      value: '+79991234567',
    });
    expect(phone.statusCode).toBe(201);
    expect(phone.json().data.value).toBe('+7999*****67');

    expect((await call('DELETE', `/api/v1/people/account/credentials/${created.id}`, 'admin')).statusCode).toBe(200);
    expect((await call('DELETE', `/api/v1/people/account/credentials/${created.id}`, 'admin')).statusCode).toBe(404);
    expect(
      (await call('PUT', `/api/v1/people/account/credentials/${created.id}`, 'admin', { value: '4111111111111111' }))
        .statusCode,
    ).toBe(404);
    const left = await t.ctx.db
      .select()
      .from(accountCredentials)
      .where(and(eq(accountCredentials.accountId, cardAccount.id), eq(accountCredentials.id, created.id)));
    expect(left).toEqual([]);
  });

  it('refuses bad values with clear 400 messages', async () => {
    const post = (body: object) =>
      call('POST', '/api/v1/people/account/credentials', 'admin', {
        peopleAccountId: cardAccount.id,
        paramType: 'S',
        ...body,
      });
    for (const [type, value, message] of [
      ['CARD', '4111', CREDENTIAL_MESSAGES.cardLength],
      ['CARD', '41111111111111111111', CREDENTIAL_MESSAGES.cardLength],
      ['CARD', '4111x11111111111', CREDENTIAL_MESSAGES.cardLength],
      ['CARD', '4111111111111112', CREDENTIAL_MESSAGES.cardLuhn],
      ['PHONE', '79991234567', CREDENTIAL_MESSAGES.phone],
      ['PHONE', '+7999', CREDENTIAL_MESSAGES.phone],
      ['PHONE', '+7999123456789012', CREDENTIAL_MESSAGES.phone],
      ['CARD', '', CREDENTIAL_MESSAGES.valueRequired],
    ] as const) {
      const res = await post({ credentialType: type, value });
      expect(res.statusCode, `${type} ${value}`).toBe(400);
      expect(res.json().error.fields.value, `${type} ${value}`).toBe(message);
    }
    const empty = await call('POST', '/api/v1/people/account/credentials', 'admin', {});
    expect(empty.json().error.fields).toMatchObject({
      credentialType: CREDENTIAL_MESSAGES.typeRequired,
      paramType: CREDENTIAL_MESSAGES.paramTypeRequired,
      value: CREDENTIAL_MESSAGES.valueRequired,
    });
    expect((await post({ credentialType: 'EMAIL', value: 'x' })).json().error.fields.credentialType).toBe(
      CREDENTIAL_MESSAGES.typeRequired,
    );
    const put = await call('PUT', `/api/v1/people/account/credentials/${cardAccount.credentialId}`, 'admin', {
      value: '4111111111111112',
    });
    expect(put.statusCode).toBe(400);
    expect(put.json().error).toMatchObject({
      message: CREDENTIAL_MESSAGES.cardLuhn,
      fields: { value: CREDENTIAL_MESSAGES.cardLuhn },
    });
    expect(
      (await post({ peopleAccountId: 999999, credentialType: 'CARD', value: '4111111111111111' })).statusCode,
    ).toBe(404);
  });

  it('403 without people.account.edit (merchant owners included); nothing changes', async () => {
    const before = await t.ctx.db
      .select()
      .from(accountCredentials)
      .where(eq(accountCredentials.accountId, cardAccount.id));
    for (const u of ['reader', 'owner', 'shop2', 'viewer', 'support']) {
      expect(
        (
          await call('POST', '/api/v1/people/account/credentials', u, {
            peopleAccountId: cardAccount.id,
            credentialType: 'CARD',
            paramType: 'S',
            value: '4111111111111111',
          })
        ).statusCode,
      ).toBe(403);
      expect(
        (
          await call('PUT', `/api/v1/people/account/credentials/${cardAccount.credentialId}`, u, {
            value: '4111111111111111',
          })
        ).statusCode,
      ).toBe(403);
      expect(
        (await call('DELETE', `/api/v1/people/account/credentials/${cardAccount.credentialId}`, u)).statusCode,
      ).toBe(403);
    }
    expect(
      await t.ctx.db.select().from(accountCredentials).where(eq(accountCredentials.accountId, cardAccount.id)),
    ).toEqual(before);
  });
});

describe('never a 500 for what a client can send', () => {
  it('answers 400 for ids beyond the database range', async () => {
    const huge = 1e12;
    expect((await call('GET', `/api/v1/people/account/${huge}`, 'admin')).statusCode).toBe(400);
    expect((await call('PATCH', `/api/v1/people/account/${huge}`, 'admin', { enabled: true })).statusCode).toBe(400);
    expect(
      (await call('POST', '/api/v1/people/create', 'admin', { paymentMethodId: huge, paymentProviderId: huge }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await call('POST', '/api/v1/people/account/credentials', 'admin', {
          peopleAccountId: huge,
          credentialType: 'PHONE',
          paramType: 'S',
          value: '+79991234567',
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (await call('PUT', `/api/v1/people/account/credentials/${huge}`, 'admin', { value: '+79991234567' })).statusCode,
    ).toBe(400);
    expect((await call('GET', `/api/router/v1/people/account/limit/${huge}`, 'admin')).statusCode).toBe(400);
    expect(
      // 2^64: past PostgreSQL's bigint (exact-integers.test.ts covers the range)
      (
        await call('PUT', '/api/router/v1/people/account/limit/1', 'admin', {
          peopleAccountId: 1,
          limit: 2 ** 64,
          priority: 0,
          checkUniqueAmount: false,
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await call('PUT', '/api/router/v1/people/account/limit/1', 'admin', {
          peopleAccountId: 1,
          limit: 1,
          priority: 2 ** 40,
          checkUniqueAmount: false,
        })
      ).statusCode,
    ).toBe(400);
  });
});

describe('limits', () => {
  it('reads limit, ledger balance, priority and unique flag; edits them', async () => {
    const res = await call('GET', `/api/router/v1/people/account/limit/${cardAccount.id}`, 'reader');
    expect(res.statusCode).toBe(200);
    const ledger = await t.ctx.db.execute<{ s: number }>(
      sql`SELECT COALESCE(SUM(amount), 0)::bigint AS s FROM ledger_entries WHERE provider_account_id = ${cardAccount.id} AND account = 'provider_account'`,
    );
    expect(res.json().data).toMatchObject({ peopleAccountId: cardAccount.id, balance: Number(ledger.rows[0]!.s) });
    expect(res.json().data.balance).not.toBe(0);

    const put = await call('PUT', `/api/router/v1/people/account/limit/${cardAccount.id}`, 'clerk', {
      peopleAccountId: cardAccount.id,
      limit: 123456700,
      priority: 0,
      checkUniqueAmount: true,
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().data).toMatchObject({
      limit: 123456700,
      priority: 0,
      checkUniqueAmount: true,
      balance: Number(ledger.rows[0]!.s),
    });
  });

  it('400 with the limit and priority messages, 403 without people.account.edit, 404 unknown', async () => {
    const url = `/api/router/v1/people/account/limit/${cardAccount.id}`;
    const base = { peopleAccountId: cardAccount.id, limit: 100, priority: 1, checkUniqueAmount: false };
    for (const [patch, field, message] of [
      [{ limit: -1 }, 'limit', LIMIT_MESSAGES.limitMin],
      [{ limit: 1.5 }, 'limit', LIMIT_MESSAGES.limitInteger],
      [{ limit: '100' }, 'limit', LIMIT_MESSAGES.limitRequired],
      [{ limit: undefined }, 'limit', LIMIT_MESSAGES.limitRequired],
      [{ priority: -1 }, 'priority', LIMIT_MESSAGES.priorityMin],
      [{ priority: undefined }, 'priority', LIMIT_MESSAGES.priorityRequired],
      [{ checkUniqueAmount: 'yes' }, 'checkUniqueAmount', 'Unique amount must be true or false'],
    ] as const) {
      const res = await call('PUT', url, 'ops', { ...base, ...patch });
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(res.json().error.fields[field], JSON.stringify(patch)).toBe(message);
    }
    expect((await call('PUT', url, 'ops', { ...base, peopleAccountId: cardAccount.id + 1 })).statusCode).toBe(400);
    const [limitBefore] = await t.ctx.db
      .select()
      .from(accountLimits)
      .where(eq(accountLimits.accountId, cardAccount.id));
    for (const u of ['reader', 'owner', 'shop2', 'viewer', 'support'])
      expect((await call('PUT', url, u, base)).statusCode, u).toBe(403);
    const [limitAfter] = await t.ctx.db.select().from(accountLimits).where(eq(accountLimits.accountId, cardAccount.id));
    expect(limitAfter).toEqual(limitBefore);
    for (const u of ['owner', 'shop2', 'viewer', 'support'])
      expect((await call('GET', url, u)).statusCode, u).toBe(403);
    expect((await call('GET', '/api/router/v1/people/account/limit/999999', 'ops')).statusCode).toBe(404);
    expect(
      (await call('PUT', '/api/router/v1/people/account/limit/999999', 'ops', { ...base, peopleAccountId: 999999 }))
        .statusCode,
    ).toBe(404);
  });
});
