import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { AccountHealth } from '@paydesk/contracts';
import { roles, users } from '../../db/schema';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';
import { depositGivenRequisites, merchantSigner, type Signer } from '../../../test/merchant-client';

/**
 * The desk's paused accounts download as CSV like its other queues: streamed, what is paused now, longest first, with
 * each account's health over the last day, for platform staff who may view provider accounts.
 */
let t: TestApp;
let sign: Signer;
const cookies: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
  // a platform viewer sees the desk but not provider accounts
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
  for (const u of ['ops', 'owner', 'pviewer']) cookies[u] = await loginAs(t.app, u);
  // past the demo's own deposits: the day holds only this file's
  t.clock.advance(2 * 86_400_000);
});
afterAll(async () => t?.close());

const as = (who: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: cookies[who]! }, ...(payload === undefined ? {} : { payload }) });

const given = (amount: number) => depositGivenRequisites(t, sign, amount);

/** The CSV's rows as objects by header (no cell here holds a comma or a quote). */
const rowsOf = (body: string) => {
  const [head, ...lines] = body.trim().split('\n');
  const keys = head!.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [keys[i], v])) as Record<string, string>);
};

describe('paused accounts as CSV', () => {
  it('lists each paused account with its health; nothing once it is resumed', async () => {
    const first = await given(52_000_00 + 1);
    const second = await given(52_000_00 + 2);
    expect(second.accountId).toBe(first.accountId);
    const account = first.accountId;
    const money = await t.app.inject({
      method: 'POST',
      url: '/api/provider/v1/incoming',
      headers: { authorization: `Bearer dev:${first.provider}` },
      payload: {
        accountId: account,
        amount: 52_000_00 + 1,
        occurredAt: t.clock.now().toISOString(),
        reference: `paused-csv-${process.pid}`,
      },
    });
    expect(money.json().data).toMatchObject({ status: 'MATCHED' });

    // nothing paused: the header alone
    const empty = await as('ops', 'GET', '/api/v1/exceptions/csv?queue=paused');
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.body.trim()).toBe(
      'Paused since,Account,Provider,Payment method,Book,Why,Paused by,Given (24 h),Paid (24 h),Success rate (%),' +
        'Money last arrived',
    );

    const pause = await as('ops', 'POST', `/api/v1/people/account/${account}/pause`, {
      reason: 'bank reports the card blocked',
    });
    expect(pause.statusCode, pause.body).toBe(200);
    const health = pause.json().data as AccountHealth;

    const csv = await as('ops', 'GET', '/api/v1/exceptions/csv?queue=paused');
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.headers['content-disposition']).toContain('Exceptions-paused.csv');
    const rows = rowsOf(csv.body);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toEqual({
      'Paused since': expect.stringMatching(/^\d{4}-\d{2}-\d{2}T[\d:.]+\+00:00$/),
      Account: String(account),
      Provider: health.provider,
      'Payment method': health.paymentMethod,
      Book: 'live',
      Why: 'bank reports the card blocked',
      'Paused by': 'ops',
      'Given (24 h)': '2',
      'Paid (24 h)': '1',
      'Success rate (%)': '50.0',
      'Money last arrived': expect.stringMatching(/^\d{4}-\d{2}-\d{2}T[\d:.]+\+00:00$/),
    });
    // the same figures as the health list, the same instants
    expect(health).toMatchObject({ given: 2, paid: 1, successRate: 50 });
    expect(Date.parse(rows[0]!['Paused since']!)).toBe(Date.parse(health.pausedAt!));
    expect(Date.parse(rows[0]!['Money last arrived']!)).toBe(Date.parse(health.lastMoneyAt!));

    const resumed = await as('ops', 'POST', `/api/v1/people/account/${account}/resume`, { reason: 'card replaced' });
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect(rowsOf((await as('ops', 'GET', '/api/v1/exceptions/csv?queue=paused')).body)).toEqual([]);
  });

  it('refuses staff who may not view provider accounts (403) and filters the queue does not have (400): no file', async () => {
    for (const who of ['pviewer', 'owner']) {
      const res = await as(who, 'GET', '/api/v1/exceptions/csv?queue=paused');
      expect(res.statusCode, who).toBe(403);
      expect(res.headers['content-disposition'], who).toBeUndefined();
      expect(res.json().error.code, who).toBe('FORBIDDEN');
    }
    // the platform viewer still downloads the desk's other queues
    expect((await as('pviewer', 'GET', '/api/v1/exceptions/csv?queue=contradictions')).statusCode).toBe(200);
    for (const [query, field] of [
      ['queue=paused&merchant=00000000-0000-4000-8000-000000000000', 'merchant'],
      ['queue=paused&accountId=1', 'accountId'],
      ['queue=paused&from=2026-01-01T00:00:00Z', 'from'],
    ] as const) {
      const res = await as('ops', 'GET', `/api/v1/exceptions/csv?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.headers['content-disposition'], query).toBeUndefined();
      expect(res.json().error).toMatchObject({
        code: 'VALIDATION_ERROR',
        fields: { [field]: `The paused queue has no ${field} filter` },
      });
    }
  });
});
