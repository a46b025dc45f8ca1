import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { StatementLineItem } from '@paydesk/contracts';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';
import { injectSigned, invoiceBody, merchantSigner, validCard, type Signer } from '../../../test/merchant-client';
import { checkMoneyInvariants } from '../engine/invariants.testkit';
import { counterpartyOf } from './parse';

/**
 * Provider statements over HTTP: a statement is reconciled line by line against the books, an IN line the books did
 * not have goes on the books through the provider API's path (suspense), a bad file is refused whole naming its line,
 * the same file is recognised, a provider's own columns are read with its mapping, and exceptions are resolved by
 * audited actions, by platform staff only.
 */
let t: TestApp;
let sign: Signer;
const cookies: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
  for (const u of ['admin', 'ops', 'owner', 'finance', 'viewer']) cookies[u] = await loginAs(t.app, u);
});
afterAll(async () => t?.close());

const q = async <T extends Record<string, unknown>>(s: ReturnType<typeof sql>) => (await t.ctx.db.execute<T>(s)).rows;
const as = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie: cookies[who]! }, ...(payload === undefined ? {} : { payload }) });

/** A multipart/form-data body: the fields first, then the file, as the back-office sends it. */
function form(fields: Record<string, string>, file?: { name: string; content: string | Buffer }) {
  const boundary = `----paydesk${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n` +
          'Content-Type: text/csv\r\n\r\n',
      ),
      Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

type Period = { from: Date; to: Date };
const upload = (who: string, providerId: number, period: Period, csv: string, name = 'statement.csv') => {
  const body = form(
    { providerId: String(providerId), periodFrom: period.from.toISOString(), periodTo: period.to.toISOString() },
    { name, content: csv },
  );
  return t.app.inject({
    method: 'POST',
    url: '/api/v1/statements',
    headers: { cookie: cookies[who]!, 'content-type': body.contentType },
    payload: body.payload,
  });
};

const csvOf = (rows: (string | number)[][], header = 'occurredAt,accountId,amount,direction,reference') =>
  [header, ...rows.map((r) => r.join(','))].join('\n') + '\n';

let refs = 0;
const ref = (p: string) => `${p}-${process.pid}-${++refs}`;

/** Money a provider reports as arrived (the provider API), on the books at once. */
async function report(code: string, accountId: number, amount: number, reference: string, occurredAt: Date) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/provider/v1/incoming',
    headers: { authorization: `Bearer dev:${code}` },
    payload: { accountId, amount, occurredAt: occurredAt.toISOString(), reference },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: string; status: string };
}

/** A live UZS withdrawal paid out by its provider: its payout transaction (DONE), account and provider. */
async function donePayout(amount: number) {
  const terminal = t.demo.terminals.find((x) => x.flowType === 'WITHDRAWAL' && x.currency === 'UZS' && !x.isTest)!;
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
  const [txn] = await q<{ id: string; account_id: number; provider_id: number; code: string }>(sql`
    SELECT pt.id, pt.account_id, p.id AS provider_id, p.code FROM provider_transactions pt
    JOIN provider_accounts a ON a.id = pt.account_id JOIN providers p ON p.id = a.provider_id
    WHERE pt.invoice_id = ${invoiceId} AND pt.status = 'PENDING'`);
  const paid = await t.app.inject({
    method: 'POST',
    url: `/api/provider/v1/payouts/${txn!.id}`,
    headers: { authorization: `Bearer dev:${txn!.code}` },
    payload: { status: 'DONE' },
  });
  expect(paid.statusCode, paid.body).toBe(200);
  return {
    invoiceId,
    transactionId: txn!.id,
    accountId: Number(txn!.account_id),
    providerId: Number(txn!.provider_id),
    code: txn!.code,
  };
}

const written = async () =>
  (
    await q<{ statements: number; lines: number; incoming: number; audit: number; ledger: number }>(sql`SELECT
      (SELECT count(*)::int FROM approval_requests) AS approvals,
      (SELECT count(*)::int FROM provider_statements) AS statements, (SELECT count(*)::int FROM statement_lines) AS lines,
      (SELECT count(*)::int FROM incoming_payments) AS incoming, (SELECT count(*)::int FROM audit_log) AS audit,
      (SELECT count(*)::int FROM ledger_entries) AS ledger`)
  )[0]!;

async function suspense() {
  const [r] = await q<{ v: string }>(sql`SELECT coalesce(sum(balance), 0)::text AS v FROM ledger_balances
    WHERE account = 'suspense' AND book = 'live'`);
  return -Number(r!.v);
}

type Line = StatementLineItem;
async function linesOf(statementId: string, query = '') {
  const all: Line[] = [];
  let after: string | null = null;
  do {
    const res = await as(
      'ops',
      'GET',
      `/api/v1/statements/${statementId}?limit=3${query}${after ? `&after=${after}` : ''}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    all.push(...(res.json().data.lines as Line[]));
    after = res.json().next as string | null;
  } while (after);
  return all;
}

/** What every test here works on: one live provider, its accounts, and a period that starts now. */
let provider: { id: number; code: string; accounts: number[] };
let period: Period;
let payouts: Awaited<ReturnType<typeof donePayout>>[] = [];
beforeAll(async () => {
  const start = new Date(Math.floor(t.clock.now().getTime() / 1000) * 1000 - 1000);
  period = { from: start, to: new Date(start.getTime() + 3 * 86_400_000) };
  payouts = [await donePayout(41_000_00), await donePayout(42_000_00)];
  const p = payouts[0]!;
  expect(payouts[1]!.providerId).toBe(p.providerId);
  const accounts = await q<{ id: number }>(sql`SELECT id FROM provider_accounts WHERE provider_id = ${p.providerId}
    ORDER BY id`);
  provider = { id: p.providerId, code: p.code, accounts: accounts.map((a) => Number(a.id)) };
});

describe('a statement against the books', () => {
  let statementId = '';
  let csv = '';
  const at = (ms: number) => new Date(period.from.getTime() + ms);
  const r = { matched: '', differs: '', late: '', booksOnly: '', unknownIn: '', unknownOut: '' };

  it('every outcome: MATCHED, MISMATCH (amount, time, repeated), STATEMENT_ONLY (IN → suspense), BOOKS_ONLY', async () => {
    const acc = payouts[0]!.accountId;
    r.matched = ref('ST-M');
    r.differs = ref('ST-D');
    r.late = ref('ST-L');
    r.booksOnly = ref('ST-B');
    r.unknownIn = ref('ST-U');
    r.unknownOut = ref('ST-O');
    await report(provider.code, acc, 1_111_00, r.matched, at(60_000));
    await report(provider.code, acc, 2_222_00, r.differs, at(120_000));
    await report(provider.code, acc, 3_333_00, r.late, at(180_000));
    const booksOnly = await report(provider.code, acc, 4_444_00, r.booksOnly, at(240_000));
    const [w1, w2] = payouts;
    const [w1Invoice] = await q<{ amount: number }>(
      sql`SELECT amount::int AS amount FROM invoices WHERE id = ${w1!.invoiceId}`,
    );
    const w1Amount = w1Invoice!.amount;
    csv = csvOf([
      [at(61_000).toISOString(), acc, 1_111_00, 'IN', r.matched],
      [at(120_000).toISOString(), acc, 2_000_00, 'IN', r.differs],
      [at(2 * 86_400_000).toISOString(), acc, 3_333_00, 'IN', r.late],
      [at(300_000).toISOString(), acc, 5_555_00, 'IN', r.unknownIn],
      [at(301_000).toISOString(), acc, 6_666_00, 'OUT', r.unknownOut],
      [at(302_000).toISOString(), w1!.accountId, w1Amount, 'OUT', w1!.transactionId],
      [at(303_000).toISOString(), acc, 1_111_00, 'IN', r.matched],
    ]);
    const s0 = await suspense();
    const res = await upload('ops', provider.id, period, csv, 'silk-march.csv');
    expect(res.statusCode, res.body).toBe(201);
    const { statement, duplicate } = res.json().data;
    expect(duplicate).toBe(false);
    statementId = statement.id;
    expect(statement).toMatchObject({
      providerId: provider.id,
      filename: 'silk-march.csv',
      lineCount: 7,
      counts: { MATCHED: 2, MISMATCH: 3, STATEMENT_ONLY: 2, BOOKS_ONLY: 2 },
      open: 7,
      uploadedBy: 'ops',
    });
    expect(statement.contentHash).toMatch(/^[0-9a-f]{64}$/);

    const lines = await linesOf(statementId);
    expect(lines.map((l) => [l.lineNo, l.reference, l.outcome])).toEqual([
      [2, r.matched, 'MATCHED'],
      [3, r.differs, 'MISMATCH'],
      [4, r.late, 'MISMATCH'],
      [5, r.unknownIn, 'STATEMENT_ONLY'],
      [6, r.unknownOut, 'STATEMENT_ONLY'],
      [7, w1!.transactionId, 'MATCHED'],
      [8, r.matched, 'MISMATCH'],
      [null, r.booksOnly, 'BOOKS_ONLY'],
      [null, w2!.transactionId, 'BOOKS_ONLY'],
    ]);
    const byRef = (reference: string, lineNo?: number) =>
      lines.find((l) => l.reference === reference && (lineNo === undefined || l.lineNo === lineNo))!;
    expect(byRef(r.differs).detail).toMatch(/the books have the amount 2222.00 UZS/);
    expect(byRef(r.late).detail).toMatch(/the books have it at/);
    expect(byRef(r.matched, 8).detail).toMatch(/repeated: first on line 2/);
    expect(byRef(r.booksOnly).incomingId).toBe(booksOnly.id);
    expect(byRef(w2!.transactionId).transactionId).toBe(w2!.transactionId);
    expect(byRef(w1!.transactionId).transactionId).toBe(w1!.transactionId);
    // the bank saw money the books did not: on the books now, through the provider API's path (suspense)
    const unknown = byRef(r.unknownIn);
    expect(unknown.detail).toMatch(/unmatched money, in suspense/);
    const [item] = await q<{ status: string; in_suspense: boolean; amount: number; reference: string }>(sql`
      SELECT status, in_suspense, amount::int AS amount, reference FROM incoming_payments WHERE id = ${unknown.incomingId}`);
    expect(item).toEqual({ status: 'UNMATCHED', in_suspense: true, amount: 5_555_00, reference: r.unknownIn });
    expect(await suspense()).toBe(s0 + 5_555_00);
    // an OUT line the books did not have is flagged only
    expect(byRef(r.unknownOut).incomingId).toBeNull();
    expect(byRef(r.unknownOut).transactionId).toBeNull();
    await checkMoneyInvariants(t.ctx.db);

    const audit = await q<{ action: string; actor_username: string; after: { lineCount: number } }>(sql`
      SELECT action, actor_username, after FROM audit_log WHERE target_type = 'statement' AND target_id = ${statementId}`);
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'statement.uploaded',
        actor_username: 'ops',
        after: expect.objectContaining({ lineCount: 7 }),
      }),
    ]);

    // one outcome at a time, and the exceptions still open
    const mismatches = await linesOf(statementId, '&outcome=MISMATCH');
    expect(mismatches.map((l) => l.lineNo)).toEqual([3, 4, 8]);
    expect((await linesOf(statementId, '&open=true')).length).toBe(7);
    const list = await as('ops', 'GET', `/api/v1/statements?providerId=${provider.id}`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data[0]).toMatchObject({ id: statementId, open: 7 });
    const summary = await as('ops', 'GET', '/api/v1/exceptions/summary');
    expect(summary.json().data).toContainEqual(expect.objectContaining({ queue: 'statementExceptions', count: 7 }));
  });

  it('the same file again is recognised by its content and not counted twice', async () => {
    const before = await written();
    const again = await upload('ops', provider.id, period, csv, 'renamed.csv');
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data).toMatchObject({
      duplicate: true,
      statement: { id: statementId, filename: 'silk-march.csv' },
    });
    expect(await written()).toEqual(before);
  });

  it('exceptions are resolved by hand (match, accept), audited; a resolved or matched line is 409', async () => {
    const lines = await linesOf(statementId);
    const find = (reference: string, outcome: string) =>
      lines.find((l) => l.reference === reference && l.outcome === outcome)!;
    const [, w2] = payouts;
    // the bank's OUT line is the second payout, under another reference: its BOOKS_ONLY entry is explained with it
    const out = find(r.unknownOut, 'STATEMENT_ONLY');
    const match = await as('ops', 'POST', `/api/v1/statements/lines/${out.id}/resolve`, {
      resolution: 'MATCH',
      transactionId: w2!.transactionId,
      reason: 'the bank wrote its own reference',
    });
    expect(match.statusCode, match.body).toBe(200);
    expect(match.json().data).toMatchObject({
      resolution: 'MATCH',
      transactionId: w2!.transactionId,
      resolvedBy: 'ops',
      resolutionReason: 'the bank wrote its own reference',
    });
    const booksOnlyPayout = find(w2!.transactionId, 'BOOKS_ONLY');
    const after = await linesOf(statementId);
    expect(after.find((l) => l.id === booksOnlyPayout.id)).toMatchObject({ resolution: 'MATCH', resolvedBy: 'ops' });

    const accept = await as('ops', 'POST', `/api/v1/statements/lines/${find(r.differs, 'MISMATCH').id}/resolve`, {
      resolution: 'ACCEPT',
      reason: 'bank fee taken from the transfer',
    });
    expect(accept.statusCode, accept.body).toBe(200);
    expect(accept.json().data).toMatchObject({
      resolution: 'ACCEPT',
      resolutionReason: 'bank fee taken from the transfer',
    });

    const audit = await q<{ action: string; target_id: string; reason: string }>(sql`
      SELECT action, target_id, reason FROM audit_log WHERE action = 'statement.line_resolved' ORDER BY id`);
    expect(audit).toEqual([
      { action: 'statement.line_resolved', target_id: String(out.id), reason: 'the bank wrote its own reference' },
      {
        action: 'statement.line_resolved',
        target_id: String(find(r.differs, 'MISMATCH').id),
        reason: 'bank fee taken from the transfer',
      },
    ]);

    // matched lines have nothing to resolve: no id to resolve them by
    expect(find(r.matched, 'MATCHED').id).toBeNull();
    const before = await written();
    const refusals: [number | null, object, number][] = [
      // resolved already
      [out.id, { resolution: 'ACCEPT', reason: 'once more' }, 409],
      // the money of a reported line is on the books already: matching it elsewhere would count it twice
      [
        find(r.unknownIn, 'STATEMENT_ONLY').id,
        { resolution: 'MATCH', incomingId: find(r.booksOnly, 'BOOKS_ONLY').incomingId, reason: 'same money' },
        409,
      ],
      // a books-only entry has no line to match
      [
        find(r.booksOnly, 'BOOKS_ONLY').id,
        { resolution: 'MATCH', incomingId: find(r.booksOnly, 'BOOKS_ONLY').incomingId, reason: 'x-x-x' },
        400,
      ],
      // an IN line is an incoming payment, not a payout
      [
        find(r.late, 'MISMATCH').id,
        { resolution: 'MATCH', transactionId: w2!.transactionId, reason: 'wrong kind' },
        400,
      ],
      // MATCH names something; ACCEPT does not
      [find(r.late, 'MISMATCH').id, { resolution: 'MATCH', reason: 'nothing named' }, 400],
      [999_999_999, { resolution: 'ACCEPT', reason: 'no such line' }, 404],
    ];
    for (const [id, body, status] of refusals) {
      const res = await as('ops', 'POST', `/api/v1/statements/lines/${id}/resolve`, body);
      expect(res.statusCode, `${id} ${JSON.stringify(body)} ${res.body}`).toBe(status);
    }
    expect(await written()).toEqual(before);
    const detail = await as('ops', 'GET', `/api/v1/statements/${statementId}?limit=1`);
    expect(detail.json().data.statement.open).toBe(4);
  });

  it('books that are wrong: a correction asked for from the line, approved by a second person, through the engine', async () => {
    const w = await donePayout(7_700_00);
    const day = { from: new Date('2002-02-01T00:00:00Z'), to: new Date('2002-02-02T00:00:00Z') };
    const stray = ref('ST-X');
    const res = await upload(
      'ops',
      w.providerId,
      day,
      csvOf([
        ['2002-02-01T10:00:00Z', w.accountId, 7_500_00, 'OUT', w.transactionId],
        ['2002-02-01T11:00:00Z', w.accountId, 100_00, 'OUT', stray],
      ]),
    );
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.statement.id as string;
    const lines = await linesOf(id);
    const paid = lines.find((l) => l.reference === w.transactionId)!;
    expect(paid).toMatchObject({ outcome: 'MISMATCH', transactionId: w.transactionId });
    const amountOf = async () =>
      (await q<{ amount: number }>(sql`SELECT amount::int AS amount FROM invoices WHERE id = ${w.invoiceId}`))[0]!
        .amount;
    const resolve = (body: object, lineId = paid.id) =>
      as('ops', 'POST', `/api/v1/statements/lines/${lineId}/resolve`, body);

    // refused, nothing written: a line with no invoice behind it, a correction naming nothing or two things
    const before = await written();
    const stranger = lines.find((l) => l.reference === stray)!;
    for (const [lineId, body, status] of [
      [stranger.id, { resolution: 'APPROVAL', amount: 100_00, reason: 'no invoice' }, 400],
      [paid.id, { resolution: 'APPROVAL', reason: 'nothing asked' }, 400],
      [paid.id, { resolution: 'APPROVAL', amount: 1, statusId: 5, reason: 'both' }, 400],
      [paid.id, { resolution: 'ACCEPT', amount: 1, reason: 'a correction is APPROVAL' }, 400],
    ] as [number | null, object, number][]) {
      const r = await resolve(body, lineId);
      expect(r.statusCode, `${JSON.stringify(body)} ${r.body}`).toBe(status);
    }
    expect(await written()).toEqual(before);

    // asked for: held for a second person although no policy is on, and nothing moves yet
    const asked = await resolve({ resolution: 'APPROVAL', amount: 7_500_00, reason: 'the bank paid 7,500.00' });
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json().data).toMatchObject({ resolution: 'APPROVAL', approvalStatus: 'PENDING', resolvedBy: 'ops' });
    const first = asked.json().data.approvalId as string;
    expect(await amountOf()).toBe(7_700_00);
    expect((await as('ops', 'GET', `/api/v1/statements/${id}?limit=1`)).json().data.statement.open).toBe(1);
    expect((await resolve({ resolution: 'ACCEPT', reason: 'twice' })).statusCode).toBe(409);
    // the maker cannot approve it; rejected, the line is open again
    expect((await as('ops', 'POST', `/api/v1/approvals/${first}/approve`, {})).statusCode).toBeGreaterThanOrEqual(400);
    const rejected = await as('admin', 'POST', `/api/v1/approvals/${first}/reject`, { reason: 'ask the bank first' });
    expect(rejected.statusCode, rejected.body).toBe(200);
    const reopened = (await linesOf(id, '&open=true')).map((l) => l.id);
    expect(reopened).toContain(paid.id);
    expect(await amountOf()).toBe(7_700_00);

    const again = await resolve({ resolution: 'APPROVAL', amount: 7_500_00, reason: 'the bank confirmed 7,500.00' });
    expect(again.statusCode, again.body).toBe(200);
    const second = again.json().data.approvalId as string;
    expect(second).not.toBe(first);
    const ok = await as('admin', 'POST', `/api/v1/approvals/${second}/approve`, { reason: 'statement checked' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await amountOf()).toBe(7_500_00);
    const done = (await linesOf(id)).find((l) => l.id === paid.id)!;
    expect(done).toMatchObject({ resolution: 'APPROVAL', approvalId: second, approvalStatus: 'APPROVED' });
    expect((await linesOf(id, '&open=true')).map((l) => l.id)).not.toContain(paid.id);
    const [audit] = await q<{ after: { approvalId: string } }>(sql`SELECT after FROM audit_log
      WHERE action = 'statement.line_resolved' AND target_id = ${String(paid.id)} ORDER BY id DESC LIMIT 1`);
    expect(audit!.after.approvalId).toBe(second);
    await checkMoneyInvariants(t.ctx.db);
  });

  it('the daily summary downloads as CSV', async () => {
    const day = period.from.toISOString().slice(0, 10);
    const res = await as(
      'ops',
      'GET',
      `/api/v1/statements/summary.csv?providerId=${provider.id}&from=${day}&to=${day}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="Statements-/);
    const [header, ...rows] = res.body.trim().split('\n');
    expect(header).toBe('Day,Currency,Lines,Matched,Statement only,Books only,Mismatches,Amount in,Amount out');
    expect(rows.length).toBeGreaterThan(0);
    const cells = rows.map((row) => row.split(','));
    // what the statements' lines say, read through the API
    const statements = (await as('ops', 'GET', `/api/v1/statements?providerId=${provider.id}&limit=200`)).json()
      .data as { id: string }[];
    const expected = { lines: 0, matched: 0 };
    for (const st of statements) {
      for (const l of await linesOf(st.id)) {
        if (l.lineNo === null || l.occurredAt.slice(0, 10) !== day) continue;
        expected.lines++;
        if (l.outcome === 'MATCHED') expected.matched++;
      }
    }
    expect(cells.reduce((n, c) => n + Number(c[2]), 0)).toBe(expected.lines);
    expect(cells.reduce((n, c) => n + Number(c[3]), 0)).toBe(expected.matched);
    expect(expected.matched).toBeGreaterThan(0);
    expect(cells[0]![1]).toBe('UZS');
    const bad = await as(
      'ops',
      'GET',
      `/api/v1/statements/summary.csv?providerId=${provider.id}&from=${day}&to=2001-01-01`,
    );
    expect(bad.statusCode).toBe(400);
  });
});

describe('a bad file is refused whole, naming its line', () => {
  const line = (
    occurredAt: string,
    account: number | string,
    amount: number | string,
    dir: string,
    reference: string,
  ) => [occurredAt, account, amount, dir, reference];
  const now = () => new Date(period.from.getTime() + 3_600_000).toISOString();

  it.each([
    [
      'wrong column count',
      () => csvOf([line(now(), provider.accounts[0]!, 100_00, 'IN', ref('B')), [now(), 1, 2, 'IN']]),
      /^Line 3: 4 columns, the header has 5/,
    ],
    [
      'bad amount',
      () => csvOf([line(now(), provider.accounts[0]!, '12.50', 'IN', ref('B'))]),
      /^Line 2, column "amount": "12.50" is not an amount/,
    ],
    [
      'negative amount',
      () => csvOf([line(now(), provider.accounts[0]!, '-5', 'IN', ref('B'))]),
      /^Line 2, column "amount"/,
    ],
    [
      'bad date',
      () =>
        csvOf([
          line(now(), provider.accounts[0]!, 100, 'IN', ref('B')),
          line('2026-02-30T10:00:00Z', provider.accounts[0]!, 100, 'IN', ref('B')),
        ]),
      /^Line 3, column "occurredAt"/,
    ],
    [
      'date without offset',
      () => csvOf([line('2026-03-01T10:00:00', provider.accounts[0]!, 100, 'IN', ref('B'))]),
      /^Line 2, column "occurredAt"/,
    ],
    ['empty file', () => '', /^Line 1: the file is empty/],
    ['header only, wrong', () => 'date,amount\n', /^Line 1, column "occurredAt": the header has no such column/],
    [
      'bad direction',
      () => csvOf([line(now(), provider.accounts[0]!, 100, 'SIDEWAYS', ref('B'))]),
      /^Line 2, column "direction"/,
    ],
    [
      'unknown account of that provider',
      () => csvOf([line(now(), 999_999, 100, 'IN', ref('B'))]),
      /^Line 2, column "accountId": account 999999 is not an account of/,
    ],
    [
      'an unclosed quote',
      () => csvOf([line(now(), provider.accounts[0]!, 100, 'IN', '"open')]),
      /^Line 2: not valid CSV/,
    ],
  ])('%s', async (_name, build, message) => {
    const before = await written();
    const res = await upload('ops', provider.id, period, build());
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_ERROR');
    expect(res.json().error.message).toMatch(message);
    expect(res.json().error.fields.file).toBe(res.json().error.message);
    expect(await written()).toEqual(before);
  });

  it('a bad line far into a long file: nothing of the lines before it is kept', async () => {
    const rows = Array.from({ length: 12_000 }, (_, i) =>
      line(now(), provider.accounts[0]!, 100 + i, 'OUT', ref('BIG')),
    );
    rows.push(line(now(), provider.accounts[0]!, 'ten', 'OUT', ref('BIG')));
    const before = await written();
    const res = await upload('ops', provider.id, period, csvOf(rows));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.message).toMatch(/^Line 12002, column "amount"/);
    expect(await written()).toEqual(before);
  });

  it('a long file over several batches is read whole', async () => {
    const rows = Array.from({ length: 12_000 }, (_, i) =>
      line(now(), provider.accounts[0]!, 100 + i, 'OUT', ref('LONG')),
    );
    const res = await upload(
      'ops',
      provider.id,
      { from: new Date('2001-01-01T00:00:00Z'), to: new Date('2001-01-02T00:00:00Z') },
      csvOf(rows),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.statement).toMatchObject({
      lineCount: 12_000,
      counts: { STATEMENT_ONLY: 12_000, MATCHED: 0 },
    });
    const lines = await as('ops', 'GET', `/api/v1/statements/${res.json().data.statement.id}?limit=2`);
    expect(lines.json().data.lines.map((l: Line) => l.lineNo)).toEqual([2, 3]);
  });

  it('a form without its fields first, or without a file, is refused', async () => {
    const before = await written();
    const noFields = form({}, { name: 's.csv', content: csvOf([]) });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/statements',
      headers: { cookie: cookies.ops!, 'content-type': noFields.contentType },
      payload: noFields.payload,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.message).toMatch(/providerId/);
    const json = await as('ops', 'POST', '/api/v1/statements', { providerId: provider.id });
    expect(json.statusCode).toBe(400);
    const backwards = await upload('ops', provider.id, { from: period.to, to: period.from }, csvOf([]));
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().error.fields.periodTo).toMatch(/after periodFrom/);
    expect(await written()).toEqual(before);
  });
});

describe("a provider's own columns", () => {
  it('a mapping is set (audited) and its files are read with it', async () => {
    const other = (
      await q<{ id: number; code: string }>(sql`SELECT p.id, p.code FROM providers p
        WHERE p.id <> ${provider.id} AND NOT p.is_sandbox AND EXISTS (SELECT 1 FROM provider_accounts a WHERE a.provider_id = p.id)
        ORDER BY p.id LIMIT 1`)
    )[0]!;
    const [acc] = await q<{ id: number }>(
      sql`SELECT id FROM provider_accounts WHERE provider_id = ${other.id} ORDER BY id LIMIT 1`,
    );
    const initial = await as('ops', 'GET', `/api/v1/statements/mappings/${other.id}`);
    expect(initial.statusCode, initial.body).toBe(200);
    expect(initial.json().data).toMatchObject({ custom: false, mapping: { occurredAt: 'occurredAt' } });

    const mapping = { occurredAt: 'Value date', accountId: 'Acct', amount: 'Sum', direction: 'Type', reference: 'Ref' };
    const dup = await as('ops', 'PUT', `/api/v1/statements/mappings/${other.id}`, {
      mapping: { ...mapping, amount: 'Acct' },
      reason: 'their export',
    });
    expect(dup.statusCode).toBe(400);
    const set = await as('ops', 'PUT', `/api/v1/statements/mappings/${other.id}`, { mapping, reason: 'their export' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data).toMatchObject({ custom: true, mapping, updatedBy: 'ops' });
    const audit = await q<{ action: string; before: unknown; after: unknown; reason: string }>(sql`
      SELECT action, before, after, reason FROM audit_log WHERE action = 'statement.mapping_changed'
        AND target_id = ${String(other.id)}`);
    expect(audit).toEqual([
      { action: 'statement.mapping_changed', before: { mapping: null }, after: { mapping }, reason: 'their export' },
    ]);

    const day = { from: new Date('2002-03-01T00:00:00Z'), to: new Date('2002-03-02T00:00:00Z') };
    const theirs = [
      'Ref;Value date;Sum;Type;Acct;Note'.replaceAll(';', ','),
      `${ref('MAP')},2002-03-01T09:00:00+05:00,150000,out,${acc!.id},"a note, with a comma"`,
      `${ref('MAP')},2002-03-01T10:00:00+05:00,250000,OUT,${acc!.id},`,
    ].join('\r\n');
    const res = await upload('ops', other.id, day, theirs);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.statement).toMatchObject({ lineCount: 2, counts: { STATEMENT_ONLY: 2 } });
    // the default header no longer reads for that provider
    const plain = await upload('ops', other.id, day, csvOf([['2002-03-01T09:00:00Z', acc!.id, 1, 'OUT', 'x']]));
    expect(plain.statusCode).toBe(400);
    expect(plain.json().error.message).toMatch(
      /^Line 1, column "Value date": the header has no such column \(this provider's columns/,
    );

    const reset = await as('ops', 'PUT', `/api/v1/statements/mappings/${other.id}`, { mapping: null, reason: 'back' });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().data).toMatchObject({ custom: false, mapping: { amount: 'amount' } });
  });
});

describe('card and phone numbers on a statement', () => {
  const header = 'occurredAt,accountId,amount,direction,reference,counterparty';
  /** the withdrawals' card (validCard), as a bank may write it */
  const spaced = '4111 1111 1111 1111';
  const otherCard = '5555555555554444';
  const phone = '+998 90 123 45 67';
  /** the numbers, as they must never be found in what the statements keep */
  const plain = ['4111111111111111', otherCard, '998901234567'];

  /** Every row of the statements' tables and of their audit records, as text, separators dropped. */
  async function keptText() {
    const rows: string[] = [];
    for (const table of [
      'provider_statements',
      'statement_lines',
      'statement_matches',
      'statement_days',
      'statement_mappings',
    ]) {
      const res = await q<{ row: string }>(sql`SELECT x::text AS row FROM ${sql.raw(table)} x`);
      rows.push(...res.map((r) => r.row));
    }
    const audit = await q<{ row: string }>(sql`SELECT x::text AS row FROM audit_log x WHERE action LIKE 'statement.%'`);
    rows.push(...audit.map((r) => r.row));
    return rows.map((r) => r.replace(/[\s()-]/g, ''));
  }

  it('a counterparty is kept as its lookup hash and masked form only, and compared with the payout by hash', async () => {
    const same = await donePayout(43_000_00);
    const elsewhere = await donePayout(44_000_00);
    const amountOf = async (invoiceId: string) =>
      (await q<{ amount: number }>(sql`SELECT amount::int AS amount FROM invoices WHERE id = ${invoiceId}`))[0]!.amount;
    const now = t.clock.now().getTime();
    const at = (ms: number) => new Date(now + ms).toISOString();
    const acc = same.accountId;
    const inRef = ref('CP-IN');
    const cardRef = `${ref('CP-OUT')} to ${spaced}`;
    const phoneRef = `${ref('CP-PH')} +998901234567`;
    const csv = csvOf(
      [
        // the payout's own card, written with spaces: matched
        [at(1_000), same.accountId, await amountOf(same.invoiceId), 'OUT', same.transactionId, spaced],
        // another card than the one the books paid to: a mismatch, whatever else agrees
        [
          at(2_000),
          elsewhere.accountId,
          await amountOf(elsewhere.invoiceId),
          'OUT',
          elsewhere.transactionId,
          otherCard,
        ],
        // a payer's phone on money the books did not have
        [at(3_000), acc, 5_000_00, 'IN', inRef, phone],
        // a card in the reference too, and a plain one as the counterparty
        [at(4_000), acc, 6_000_00, 'OUT', cardRef, '4111111111111111'],
        // a phone in the reference, no counterparty
        [at(5_000), acc, 7_000_00, 'OUT', phoneRef, ''],
      ],
      header,
    );
    const res = await upload(
      'ops',
      provider.id,
      { from: new Date(now - 3_600_000), to: new Date(now + 86_400_000) },
      csv,
    );
    expect(res.statusCode, res.body).toBe(201);
    const statementId = res.json().data.statement.id as string;

    // the answers: masked numbers only
    const lines = (await linesOf(statementId)).filter((l) => l.lineNo !== null);
    expect(lines.map((l) => [l.lineNo, l.reference, l.counterparty, l.outcome])).toEqual([
      [2, same.transactionId, '411111******1111', 'MATCHED'],
      [3, elsewhere.transactionId, '555555******4444', 'MISMATCH'],
      [4, inRef, '+99890*****67', 'STATEMENT_ONLY'],
      [5, cardRef.replace(spaced, '4111 11** **** 1111'), '411111******1111', 'STATEMENT_ONLY'],
      [6, phoneRef.replace('+998901234567', '+99890*****67'), null, 'STATEMENT_ONLY'],
    ]);
    const mismatch = lines.find((l) => l.lineNo === 3)!;
    expect(mismatch.transactionId).toBe(elsewhere.transactionId);
    expect(mismatch.detail).toBe('the books paid it to another card or phone: 411111******1111');
    // the payer's money went on the books (suspense) under the bank's reference, as before
    expect(lines.find((l) => l.lineNo === 4)!.incomingId).not.toBeNull();
    const body = JSON.stringify(await linesOf(statementId));
    for (const n of plain) expect(body.replace(/[\s()-]/g, '')).not.toContain(n);

    // the columns: hashes the vault computes for invoices (the same one for the spaced card), masked forms
    const [invoice] = await q<{ credential_hash: string }>(
      sql`SELECT credential_hash FROM invoices WHERE id = ${same.invoiceId}`,
    );
    expect(invoice!.credential_hash).toBe(t.ctx.vault.hash(spaced));
    const stored = await q<{
      line_no: number;
      reference: string;
      counterparty_hash: string | null;
      counterparty_masked: string | null;
    }>(sql`
      SELECT line_no, reference, counterparty_hash, counterparty_masked FROM statement_lines
      WHERE statement_id = ${statementId}::uuid AND line_no IS NOT NULL ORDER BY line_no`);
    expect(stored).toEqual([
      {
        line_no: 3,
        reference: elsewhere.transactionId,
        counterparty_hash: t.ctx.vault.hash(otherCard),
        counterparty_masked: '555555******4444',
      },
      {
        line_no: 4,
        reference: inRef,
        counterparty_hash: t.ctx.vault.hash('998901234567'),
        counterparty_masked: '+99890*****67',
      },
      {
        line_no: 5,
        reference: lines[3]!.reference,
        counterparty_hash: invoice!.credential_hash,
        counterparty_masked: '411111******1111',
      },
      { line_no: 6, reference: lines[4]!.reference, counterparty_hash: null, counterparty_masked: null },
    ]);
    const [chunk] = await q<{ counterparties: string[]; counterparty_hashes: string[] }>(sql`
      SELECT counterparties, counterparty_hashes FROM statement_matches WHERE statement_id = ${statementId}::uuid`);
    expect(chunk).toEqual({ counterparties: ['411111******1111'], counterparty_hashes: [invoice!.credential_hash] });
    // and nowhere in what the statements keep, in any column
    for (const row of await keptText()) for (const n of plain) expect(row).not.toContain(n);
    await checkMoneyInvariants(t.ctx.db);
  });

  it('a card or phone number in a reference is stored masked, and the books are still found by the reference as written', async () => {
    const now = t.clock.now().getTime();
    const at = (ms: number) => new Date(now + ms);
    const acc = provider.accounts[0]!;
    // the provider reported these with a card in the reference (its own business): one is on the statement, one is not
    const onBoth = `${ref('RM-IN')} from 4111 1111 1111 1111`;
    const booksOnly = `${ref('RM-BO')} from 4111111111111111`;
    await report(provider.code, acc, 1_234_00, onBoth, at(0));
    await report(provider.code, acc, 2_345_00, booksOnly, at(1_000));
    const outRef = `${ref('RM-OUT')} to 4111-1111-1111-1111 ${phone}`;
    // the default columns: on PostgreSQL the file is copied as it is
    const csv = csvOf([
      [at(2_000).toISOString(), acc, 1_234_00, 'IN', onBoth],
      [at(3_000).toISOString(), acc, 3_456_00, 'OUT', outRef],
    ]);
    const res = await upload('ops', provider.id, { from: at(-1_000), to: at(60_000) }, csv);
    expect(res.statusCode, res.body).toBe(201);
    const statementId = res.json().data.statement.id as string;
    const lines = await linesOf(statementId);
    const masked = (text: string) =>
      text
        .replace('4111 1111 1111 1111', '4111 11** **** 1111')
        .replace('4111111111111111', '411111******1111')
        .replace('4111-1111-1111-1111', '4111-11**-****-1111')
        .replace(phone, '+99890*****67');
    expect(lines.find((l) => l.lineNo === 2)).toMatchObject({ outcome: 'MATCHED', reference: masked(onBoth) });
    expect(lines.find((l) => l.lineNo === 3)).toMatchObject({ outcome: 'STATEMENT_ONLY', reference: masked(outRef) });
    expect(lines.find((l) => l.lineNo === null && l.reference === masked(booksOnly))).toMatchObject({
      outcome: 'BOOKS_ONLY',
    });
    const stored = await q<{ reference: string }>(sql`SELECT reference FROM statement_lines
      WHERE statement_id = ${statementId}::uuid ORDER BY id`);
    expect(stored.map((r) => r.reference)).toEqual(expect.arrayContaining([masked(outRef), masked(booksOnly)]));
    for (const row of await keptText()) for (const n of plain) expect(row).not.toContain(n);
  });

  it.each([
    ['a card failing the Luhn check', '4111 1111 1111 1112'],
    ['a letter in a card', '4111-1111-1111-111x'],
    ['two spaces in a row', '4111  1111 1111 1111'],
    ['too few digits', '12345'],
    ['a phone too short', '+99 12'],
    ['words around a number', 'card 4111111111111111'],
  ])('a malformed counterparty (%s) refuses the file whole, naming its line', async (_name, cell) => {
    const now = new Date(period.from.getTime() + 3_600_000).toISOString();
    const csv = csvOf(
      [
        [now, provider.accounts[0]!, 100, 'OUT', ref('CPB'), spaced],
        [now, provider.accounts[0]!, 100, 'OUT', ref('CPB'), `"${cell}"`],
      ],
      header,
    );
    const before = await written();
    const res = await upload('ops', provider.id, period, csv);
    expect(res.statusCode, res.body).toBe(400);
    const error = res.json().error as { code: string; message: string; fields: Record<string, string> };
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.message).toMatch(/^Line 3, column "counterparty": the counterparty is neither a card number/);
    expect(error.fields).toEqual({ file: error.message });
    // the message never repeats the cell
    expect(error.message).not.toContain(cell);
    expect(await written()).toEqual(before);
  });

  it("a provider's mapping names its counterparty column; a column named twice is refused", async () => {
    const [other] = await q<{ id: number }>(sql`SELECT p.id FROM providers p
      WHERE p.id <> ${provider.id} AND NOT p.is_sandbox AND EXISTS (SELECT 1 FROM provider_accounts a WHERE a.provider_id = p.id)
      ORDER BY p.id LIMIT 1`);
    const [acc] = await q<{ id: number }>(
      sql`SELECT id FROM provider_accounts WHERE provider_id = ${other!.id} ORDER BY id LIMIT 1`,
    );
    const mapping = {
      occurredAt: 'Date',
      accountId: 'Acct',
      amount: 'Sum',
      direction: 'Type',
      reference: 'Ref',
      counterparty: 'Beneficiary card',
    };
    const url = `/api/v1/statements/mappings/${other!.id}`;
    const dup = await as('ops', 'PUT', url, { mapping: { ...mapping, counterparty: 'ref' }, reason: 'their export' });
    expect(dup.statusCode, dup.body).toBe(400);
    expect(dup.json().error.fields['mapping.counterparty']).toMatch(/The same column as reference/);
    const set = await as('ops', 'PUT', url, { mapping, reason: 'their export' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data).toMatchObject({ custom: true, mapping });
    const theirs = [
      'Ref,Date,Sum,Type,Acct,Beneficiary card',
      `${ref('CPM')},2002-05-01T09:00:00Z,150000,OUT,${acc!.id},${otherCard}`,
      `${ref('CPM')},2002-05-01T10:00:00Z,250000,OUT,${acc!.id},${phone}`,
    ].join('\n');
    const res = await upload(
      'ops',
      other!.id,
      { from: new Date('2002-05-01T00:00:00Z'), to: new Date('2002-05-02T00:00:00Z') },
      theirs,
    );
    expect(res.statusCode, res.body).toBe(201);
    const lines = await linesOf(res.json().data.statement.id as string);
    expect(lines.map((l) => l.counterparty)).toEqual(['555555******4444', '+99890*****67']);
    const reset = await as('ops', 'PUT', url, { mapping: null, reason: 'back' });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json().data.mapping).toMatchObject({ counterparty: 'counterparty' });
    for (const row of await keptText()) for (const n of plain) expect(row).not.toContain(n);
  });
});

describe('merchant users', () => {
  it('get 403 on every route, and nothing changes', async () => {
    const [line] = await q<{ id: string; statement_id: string }>(sql`SELECT id, statement_id FROM statement_lines
      WHERE outcome <> 'MATCHED' AND resolved_at IS NULL ORDER BY id LIMIT 1`);
    const before = await written();
    for (const who of ['owner', 'finance', 'viewer']) {
      const body = form(
        { providerId: String(provider.id), periodFrom: period.from.toISOString(), periodTo: period.to.toISOString() },
        { name: 's.csv', content: csvOf([[period.from.toISOString(), provider.accounts[0]!, 100, 'OUT', ref('M')]]) },
      );
      const calls = [
        t.app.inject({
          method: 'POST',
          url: '/api/v1/statements',
          headers: { cookie: cookies[who]!, 'content-type': body.contentType },
          payload: body.payload,
        }),
        as(who, 'GET', '/api/v1/statements'),
        as(who, 'GET', `/api/v1/statements/${line!.statement_id}`),
        as(who, 'GET', `/api/v1/statements/summary.csv?providerId=${provider.id}&from=2026-01-01&to=2026-01-02`),
        as(who, 'GET', `/api/v1/statements/mappings/${provider.id}`),
        as(who, 'PUT', `/api/v1/statements/mappings/${provider.id}`, {
          mapping: { occurredAt: 'a', accountId: 'b', amount: 'c', direction: 'd', reference: 'e' },
          reason: 'merchant tries',
        }),
        as(who, 'POST', `/api/v1/statements/lines/${line!.id}/resolve`, {
          resolution: 'ACCEPT',
          reason: 'merchant tries',
        }),
      ];
      for (const res of await Promise.all(calls)) {
        expect(res.statusCode, `${who}: ${res.body}`).toBe(403);
        expect(res.json().error.code).toBe('FORBIDDEN');
      }
    }
    expect(await written()).toEqual(before);
  });
});

describe('a counterparty cell', () => {
  const hash = (v: string) => `h:${v}`;
  it('is hashed over its digits when it can be compared with the books; a local phone keeps its mask only', () => {
    expect(counterpartyOf('4111 1111 1111 1111', hash)).toEqual({
      hash: 'h:4111111111111111',
      masked: '411111******1111',
    });
    expect(counterpartyOf('+998 90 123 45 67', hash)).toEqual({ hash: 'h:998901234567', masked: '+99890*****67' });
    expect(counterpartyOf('901234567', hash)).toEqual({ hash: null, masked: '*******67' });
    expect(counterpartyOf('  ', hash)).toBeNull();
    expect(counterpartyOf('4111 1111 1111 1112', hash)).toMatch(/neither a card number/);
  });
});
