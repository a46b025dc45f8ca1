import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { minorToMajorString, statusByCode, INVOICE_STATUSES } from '@paydesk/contracts';
import { createTestApp, loginAs, type TestApp } from '../../../test/harness';
import { injectSigned, invoiceBody, merchantSigner, startReceiver, type Signer } from '../../../test/merchant-client';
import { reconcileLedger } from '../ledger/reconcile';
import { tickSandbox } from '../sandbox/service';
import { tickExpiry } from './expiry';
import { pauseUnpaidAccounts } from '../routing/account-health';
import { checkMoneyInvariants } from './invariants.testkit';
import { tickCallbacks } from '../callbacks/service';
import { checkCallbackInvariants } from '../callbacks/invariants.testkit';

/**
 * Model-based test of the money invariants (docs/architecture.md, "The engine"; the idea of Jepsen's bank test):
 * random sequences of every action by every actor — merchant API, customers on the payment form,
 * providers (money that matches, money that matches nothing, answers that contradict staff, answers raced with an
 * operator's decision on the same invoice; every report acknowledged with a 2xx), the sandbox, workers,
 * operators (status, amount, retry, matching or returning unmatched money, resolving contradictions), settlements — on live and
 * test terminals, with every invariant checked after each step. MODEL_RUNS / MODEL_STEPS make it
 * longer (CI on PostgreSQL).
 */
const RUNS = Number(process.env.MODEL_RUNS ?? 15);
const STEPS = Number(process.env.MODEL_STEPS ?? 40);
/** With MODEL_CONCURRENCY > 1 (CI on PostgreSQL), actions also run that many at a time. */
const CONCURRENCY = Number(process.env.MODEL_CONCURRENCY ?? 1);

let t: TestApp;
let sign: Signer;
let ops = '';
let admin = '';

beforeAll(async () => {
  t = await createTestApp();
  sign = merchantSigner(t.demo.merchantId, t.demo.privateKeyPem, t.clock.now);
  ops = await loginAs(t.app, 'ops');
  admin = await loginAs(t.app, 'admin');
});
afterAll(async () => t?.close());

type Model = { invoices: { id: string; formId: string; flow: 'DEPOSIT' | 'WITHDRAWAL'; test: boolean }[] };
type Real = { log: string[] };

const q = async <T extends Record<string, unknown>>(s: ReturnType<typeof sql>) => (await t.ctx.db.execute<T>(s)).rows;

/** Any answer but a server error is acceptable for an action; the invariants decide the rest. */
function expectNoServerError(what: string, res: { statusCode: number; body: string }, real: Real) {
  real.log.push(`${what} → ${res.statusCode}`);
  if (res.statusCode >= 500) throw new Error(`${what}: ${res.statusCode} ${res.body}\n${real.log.join('\n')}`);
}

async function checkInvariants(real: Real) {
  await checkMoneyInvariants(t.ctx.db, real.log);
}

/** An account the invoice's money could have arrived on (same currency, sandbox for test invoices). */
async function arrivalAccountFor(invoiceId: string) {
  const [acc] = await q<{ id: number }>(sql`SELECT a.id FROM provider_accounts a
    JOIN payment_methods pm ON pm.id = a.payment_method_id JOIN providers p ON p.id = a.provider_id
    JOIN invoices i ON i.id = ${invoiceId} AND pm.currency_id = i.currency_id AND p.is_sandbox = i.is_test
    ORDER BY a.id LIMIT 1`);
  return acc?.id;
}

const pick = <T>(xs: T[], i: number) => (xs.length ? xs[i % xs.length] : undefined);

class Create implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly flow: 'DEPOSIT' | 'WITHDRAWAL',
    readonly test: boolean,
    readonly amount: number,
  ) {}
  check = () => true;
  async run(m: Model, real: Real) {
    const terminal = t.demo.terminals.find(
      (x) => x.flowType === this.flow && x.isTest === this.test && x.currency === 'UZS',
    )!;
    const res = await injectSigned(
      t.app,
      sign,
      'POST',
      '/api/merchant/v1/invoices',
      // the customer may change the amount on the form: re-issued requisites are part of the run
      invoiceBody(terminal, { amount: this.amount, canChangeAmount: true }),
    );
    expectNoServerError(`create ${this.flow} ${this.test ? 'test' : 'live'} ${this.amount}`, res, real);
    if (res.statusCode === 201) {
      const { invoiceId, formId } = res.json().data as { invoiceId: string; formId: string };
      m.invoices.push({ id: invoiceId, formId, flow: this.flow, test: this.test });
    }
    await checkInvariants(real);
  }
  toString = () => `Create(${this.flow},${this.test},${this.amount})`;
}

class Customer implements fc.AsyncCommand<Model, Real> {
  constructor(readonly i: number) {}
  check = (m: Readonly<Model>) => m.invoices.length > 0;
  async run(m: Model, real: Real) {
    const inv = pick(m.invoices, this.i)!;
    const form = `/api/payments/form/${inv.formId}`;
    const init = await t.app.inject({ method: 'POST', url: `${form}/init` });
    expectNoServerError(`init ${inv.id}`, init, real);
    if (init.statusCode !== 200) return checkInvariants(real);
    const { methods, amount } = init.json().data;
    const cred = await t.app.inject({
      method: 'POST',
      url: `${form}/credential`,
      payload: { amount, paymentMethodId: methods[0].id },
    });
    expectNoServerError(`credential ${inv.id}`, cred, real);
    const done = await t.app.inject({
      method: 'POST',
      url: `${form}/complete`,
      payload: inv.flow === 'WITHDRAWAL' ? { credential: '8600123456789012' } : {},
    });
    expectNoServerError(`complete ${inv.id}`, done, real);
    await checkInvariants(real);
  }
  toString = () => `Customer(${this.i})`;
}

/** The customer went Back and asks again with another amount: requisites re-issued (or refused). */
class NewAmount implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly i: number,
    readonly amount: number,
  ) {}
  check = (m: Readonly<Model>) => m.invoices.length > 0;
  async run(m: Model, real: Real) {
    const inv = pick(m.invoices, this.i)!;
    const form = `/api/payments/form/${inv.formId}`;
    const init = await t.app.inject({ method: 'POST', url: `${form}/init` });
    expectNoServerError(`init ${inv.id}`, init, real);
    if (init.statusCode !== 200) return checkInvariants(real);
    const { methods } = init.json().data;
    const cred = await t.app.inject({
      method: 'POST',
      url: `${form}/credential`,
      payload: { amount: this.amount, paymentMethodId: methods[0].id },
    });
    expectNoServerError(`new amount ${inv.id} ${this.amount}`, cred, real);
    if (cred.statusCode === 200) {
      // the amount the customer sees is the amount the server holds
      const [row] = await q<{ amount: string }>(sql`SELECT amount::text FROM invoices WHERE id = ${inv.id}`);
      if (cred.json().data.amount !== Number(row!.amount)) {
        throw new Error(
          `customer shown ${cred.json().data.amount}, server holds ${row!.amount}\n${real.log.join('\n')}`,
        );
      }
    }
    await checkInvariants(real);
  }
  toString = () => `NewAmount(${this.i},${this.amount})`;
}

/** The merchant cancels through its API (deposits until DONE, withdrawals while NEW). */
class MerchantCancel implements fc.AsyncCommand<Model, Real> {
  constructor(readonly i: number) {}
  check = (m: Readonly<Model>) => m.invoices.length > 0;
  async run(m: Model, real: Real) {
    const inv = pick(m.invoices, this.i)!;
    const res = await injectSigned(t.app, sign, 'POST', `/api/merchant/v1/invoices/${inv.id}/cancel`, {});
    expectNoServerError(`merchant cancel ${inv.id}`, res, real);
    await checkInvariants(real);
  }
  toString = () => `MerchantCancel(${this.i})`;
}

/** The customer opens a support ticket; staff approve it (invoice → DONE, naming the account if never routed) or reject it. */
class Ticket implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly i: number,
    readonly approve: boolean,
    readonly withAccount: boolean,
  ) {}
  check = (m: Readonly<Model>) => m.invoices.length > 0;
  async run(m: Model, real: Real) {
    const inv = pick(m.invoices, this.i)!;
    const opened = await t.app.inject({
      method: 'POST',
      url: `/api/payments/form/${inv.formId}/support`,
      payload: { description: 'model run' },
    });
    expectNoServerError(`ticket ${inv.id}`, opened, real);
    const [ticket] = await q<{ id: number }>(sql`SELECT id FROM support_tickets
      WHERE invoice_id = ${inv.id} AND status NOT IN ('SOLVED', 'REJECTED') ORDER BY id DESC LIMIT 1`);
    if (!ticket) return checkInvariants(real);
    const peopleAccountId = this.withAccount ? await arrivalAccountFor(inv.id) : undefined;
    const decision = this.approve ? 'approve' : 'reject';
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/merchant/support/${decision}?merchantId=${t.demo.merchantId}`,
      headers: { cookie: ops },
      payload: { ticketId: Number(ticket.id), ...(this.approve && peopleAccountId ? { peopleAccountId } : {}) },
    });
    expectNoServerError(`ticket ${decision} ${inv.id}`, res, real);
    await checkInvariants(real);
  }
  toString = () => `Ticket(${this.i},${this.approve},${this.withAccount})`;
}

type Reply = { statusCode: number; body: string };

/**
 * What the provider reports for an invoice, ready to send: money arrived on its account (a deposit), or the result of
 * its pending payout (a withdrawal). Undefined when the provider has nothing to report: no account, no open payout.
 */
async function providerReportFor(inv: Model['invoices'][number], paid: boolean, tag: string) {
  const [row] = await q<{ account_id: number | null; amount: string; code: string; txn: string | null }>(sql`
    SELECT i.account_id, i.amount::text, p.code,
      (SELECT pt.id FROM provider_transactions pt WHERE pt.invoice_id = i.id AND pt.status = 'PENDING' LIMIT 1) AS txn
    FROM invoices i LEFT JOIN provider_accounts a ON a.id = i.account_id LEFT JOIN providers p ON p.id = a.provider_id
    WHERE i.id = ${inv.id}`);
  if (!row?.account_id || !row.code) return undefined;
  const auth = { authorization: `Bearer dev:${row.code}` };
  if (inv.flow === 'DEPOSIT') {
    return {
      what: `provider money ${inv.id} ${row.amount}`,
      txn: null,
      send: () =>
        t.app.inject({
          method: 'POST',
          url: '/api/provider/v1/incoming',
          headers: auth,
          payload: {
            accountId: row.account_id,
            amount: Number(row.amount),
            occurredAt: t.clock.now().toISOString(),
            reference: `ref-${inv.id}-${tag}`,
          },
        }),
    };
  }
  const txn = row.txn;
  if (!txn) return undefined;
  return {
    what: `provider payout ${inv.id} ${paid ? 'DONE' : 'DECLINED'}`,
    txn,
    send: () =>
      t.app.inject({
        method: 'POST',
        url: `/api/provider/v1/payouts/${txn}`,
        headers: auth,
        payload: { status: paid ? 'DONE' : 'DECLINED' },
      }),
  };
}

/**
 * A provider's report is never lost: whatever staff, workers or other actors did meanwhile, it is acknowledged with a
 * 2xx (kept, and queued for staff where it contradicts the books). The one refusal is a payout's second, different
 * result, once another answer of the provider's to that same transaction (one raced in, or the sandbox's) was stored.
 */
async function expectAcknowledged(what: string, res: Reply, txn: string | null, paid: boolean, real: Real) {
  expectNoServerError(what, res, real);
  if (res.statusCode >= 200 && res.statusCode < 300) return;
  if (txn && res.statusCode === 409) {
    const [now] = await q<{ status: string }>(sql`SELECT status FROM provider_transactions WHERE id = ${txn}`);
    if (now && now.status !== 'PENDING' && now.status !== (paid ? 'DONE' : 'DECLINED')) return;
  }
  throw new Error(
    `${what}: the provider's report was not acknowledged: ${res.statusCode} ${res.body}\n${real.log.join('\n')}`,
  );
}

class ProviderReport implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly i: number,
    readonly paid: boolean,
  ) {}
  check = (m: Readonly<Model>) => m.invoices.length > 0;
  async run(m: Model, real: Real) {
    const inv = pick(m.invoices, this.i)!;
    const report = await providerReportFor(inv, this.paid, String(real.log.length));
    if (report) await expectAcknowledged(report.what, await report.send(), report.txn, this.paid, real);
    await checkInvariants(real);
  }
  toString = () => `ProviderReport(${this.i},${this.paid})`;
}

/** An operator's status change, as the back-office sends it. */
async function operatorSets(inv: Model['invoices'][number], statusId: number, withAccount: boolean) {
  const peopleAccountId = withAccount ? await arrivalAccountFor(inv.id) : undefined;
  return t.app.inject({
    method: 'PATCH',
    url: `/api/v1/invoice/status?merchantId=${t.demo.merchantId}`,
    headers: { cookie: ops },
    payload: { invoiceId: inv.id, statusId, reason: 'model run', peopleAccountId },
  });
}
const statusName = (statusId: number) => statusByCode(INVOICE_STATUSES[statusId - 1]!.code)!.code;

/**
 * An operator's decision and the provider's report on the same invoice, sent at the same moment: whichever the engine
 * takes first, the provider's report is acknowledged, and the invariants hold.
 */
class OperatorRacesProvider implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly i: number,
    readonly statusId: number,
    readonly paid: boolean,
  ) {}
  check = (m: Readonly<Model>) => m.invoices.length > 0;
  async run(m: Model, real: Real) {
    const inv = pick(m.invoices, this.i)!;
    const report = await providerReportFor(inv, this.paid, `race-${real.log.length}`);
    if (!report) return checkInvariants(real);
    const [decided, answered] = await Promise.all([operatorSets(inv, this.statusId, false), report.send()]);
    expectNoServerError(`operator ${inv.id} → ${statusName(this.statusId)} (raced)`, decided, real);
    await expectAcknowledged(`${report.what} (raced)`, answered, report.txn, this.paid, real);
    await checkInvariants(real);
  }
  toString = () => `OperatorRacesProvider(${this.i},${this.statusId},${this.paid})`;
}

class Operator implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly i: number,
    readonly statusId: number,
    readonly withAccount: boolean,
  ) {}
  check = (m: Readonly<Model>) => m.invoices.length > 0;
  async run(m: Model, real: Real) {
    const inv = pick(m.invoices, this.i)!;
    const res = await operatorSets(inv, this.statusId, this.withAccount);
    expectNoServerError(`operator ${inv.id} → ${statusName(this.statusId)}`, res, real);
    await checkInvariants(real);
  }
  toString = () => `Operator(${this.i},${this.statusId},${this.withAccount})`;
}

class Amount implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly i: number,
    readonly amount: number,
  ) {}
  check = (m: Readonly<Model>) => m.invoices.length > 0;
  async run(m: Model, real: Real) {
    const inv = pick(m.invoices, this.i)!;
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/invoice/amount?merchantId=${t.demo.merchantId}`,
      headers: { cookie: ops },
      payload: { invoiceId: inv.id, amount: this.amount, reason: 'model run' },
    });
    expectNoServerError(`amount ${inv.id} ${this.amount}`, res, real);
    await checkInvariants(real);
  }
  toString = () => `Amount(${this.i},${this.amount})`;
}

class Retry implements fc.AsyncCommand<Model, Real> {
  constructor(readonly i: number) {}
  check = (m: Readonly<Model>) => m.invoices.length > 0;
  async run(m: Model, real: Real) {
    const inv = pick(m.invoices, this.i)!;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/invoice/retry?merchantId=${t.demo.merchantId}`,
      headers: { cookie: ops },
      payload: { invoiceId: inv.id },
    });
    expectNoServerError(`retry ${inv.id}`, res, real);
    const pending = await q<{ n: number }>(sql`SELECT count(*)::int AS n FROM provider_transactions
      WHERE invoice_id = ${inv.id} AND status = 'PENDING'`);
    if (pending[0]!.n > 1) throw new Error(`two payouts pending at once for ${inv.id}\n${real.log.join('\n')}`);
    await checkInvariants(real);
  }
  toString = () => `Retry(${this.i})`;
}

class Settle implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly share: number,
    readonly test: boolean,
  ) {}
  check = () => true;
  async run(_m: Model, real: Real) {
    const terminal = t.demo.terminals.find((x) => x.currency === 'UZS' && x.isTest === this.test)!;
    const [b] = await q<{ v: string }>(sql`SELECT coalesce(-sum(balance), 0)::text AS v FROM ledger_balances
      WHERE merchant_id = ${t.demo.merchantId} AND account = 'merchant' AND book = 'live'
        AND currency_id = (SELECT currency_id FROM terminals WHERE id = ${terminal.id})`);
    const amount = Math.max(1, Math.floor((Number(b!.v) * this.share) / 100));
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/settlement?merchantId=${t.demo.merchantId}`,
      headers: { cookie: admin },
      payload: { terminalId: terminal.id, baseAmount: Number(minorToMajorString(amount, 2)), settlementAmount: 1 },
    });
    expectNoServerError(`settle ${this.share}% ${this.test ? 'test' : 'live'}`, res, real);
    // a well-formed settlement is refused only by the funds rule: anything else means the run stopped exercising it
    if (res.statusCode === 400) throw new Error(`settlement refused as malformed: ${res.body}\n${real.log.join('\n')}`);
    await checkInvariants(real);
  }
  toString = () => `Settle(${this.share},${this.test})`;
}

/** A provider reports money that no invoice was waiting for (or that one was, by chance): suspense or a match. */
class Unmatched implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly account: number,
    readonly amount: number,
  ) {}
  check = () => true;
  async run(_m: Model, real: Real) {
    const accounts = await q<{ id: number; code: string }>(sql`SELECT a.id, p.code FROM provider_accounts a
      JOIN providers p ON p.id = a.provider_id JOIN payment_methods pm ON pm.id = a.payment_method_id
      JOIN currencies c ON c.id = pm.currency_id WHERE c.code = 'UZS' ORDER BY a.id`);
    const acc = pick(accounts, this.account)!;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/provider/v1/incoming',
      headers: { authorization: `Bearer dev:${acc.code}` },
      payload: {
        accountId: Number(acc.id),
        amount: this.amount,
        occurredAt: t.clock.now().toISOString(),
        reference: `stray-${acc.id}-${real.log.length}-${this.amount}`,
      },
    });
    await expectAcknowledged(`unmatched money ${this.amount} on account ${acc.id}`, res, null, true, real);
    await checkInvariants(real);
  }
  toString = () => `Unmatched(${this.account},${this.amount})`;
}

const unmatchedItems = () =>
  q<{ id: string }>(sql`SELECT id FROM incoming_payments WHERE status = 'UNMATCHED' ORDER BY created_at, id`);

/** Staff match unmatched money to one of the run's invoices (any of them: the engine decides what is allowed). */
class Match implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly item: number,
    readonly i: number,
  ) {}
  check = (m: Readonly<Model>) => m.invoices.length > 0;
  async run(m: Model, real: Real) {
    const item = pick(await unmatchedItems(), this.item);
    if (!item) return checkInvariants(real);
    const inv = pick(m.invoices, this.i)!;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/incoming/${item.id}/match`,
      headers: { cookie: ops },
      payload: { invoiceId: inv.id, reason: 'model run' },
    });
    expectNoServerError(`match ${item.id} → ${inv.id}`, res, real);
    await checkInvariants(real);
  }
  toString = () => `Match(${this.item},${this.i})`;
}

class Return implements fc.AsyncCommand<Model, Real> {
  constructor(readonly item: number) {}
  check = () => true;
  async run(_m: Model, real: Real) {
    const item = pick(await unmatchedItems(), this.item);
    if (!item) return checkInvariants(real);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/incoming/${item.id}/return`,
      headers: { cookie: ops },
      payload: { reference: `ret-${real.log.length}`, reason: 'model run' },
    });
    expectNoServerError(`return ${item.id}`, res, real);
    await checkInvariants(real);
  }
  toString = () => `Return(${this.item})`;
}

/** Staff resolve a contradiction between a provider's answer and the books, either way. */
class Resolve implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly n: number,
    readonly accept: boolean,
  ) {}
  check = () => true;
  async run(_m: Model, real: Real) {
    const open = await q<{ id: number }>(sql`SELECT id FROM provider_contradictions WHERE status = 'OPEN' ORDER BY id`);
    const c = pick(open, this.n);
    if (!c) return checkInvariants(real);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/contradictions/${c.id}/resolve`,
      headers: { cookie: ops },
      payload: { resolution: this.accept ? 'ACCEPT_PROVIDER' : 'KEEP_BOOKS', reason: 'model run' },
    });
    expectNoServerError(`resolve contradiction ${c.id} ${this.accept}`, res, real);
    await checkInvariants(real);
  }
  toString = () => `Resolve(${this.n},${this.accept})`;
}

/** Staff pause or resume a provider account by hand (routing must then skip it, or use it again). */
class PauseResume implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly account: number,
    readonly pause: boolean,
  ) {}
  check = () => true;
  async run(_m: Model, real: Real) {
    const accounts = await q<{ id: number }>(sql`SELECT account_id AS id FROM account_limits ORDER BY account_id`);
    const acc = pick(accounts, this.account)!;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/people/account/${acc.id}/${this.pause ? 'pause' : 'resume'}`,
      headers: { cookie: ops },
      payload: { reason: 'model run' },
    });
    expectNoServerError(`${this.pause ? 'pause' : 'resume'} account ${acc.id}`, res, real);
    await checkInvariants(real);
  }
  toString = () => `PauseResume(${this.account},${this.pause})`;
}

/**
 * The merchant's endpoint answers (or not) while hours pass and the callback worker runs; then staff replay the run's
 * failed or delivered callbacks (or preview it): each event once more under its own webhook-id, none beside a
 * delivery of it still in flight, every replay audited with its count (callbacks/invariants.testkit.ts).
 */
let endpoint: Awaited<ReturnType<typeof startReceiver>> | undefined;
let endpointUp = true;
let runStart = new Date();
let owner = '';
beforeAll(async () => {
  // the demo terminals call back to an endpoint of the run's own, which checks every signature (afterAll)
  endpoint = await startReceiver(
    () => (endpointUp ? 204 : 503),
    () => [t.demo.webhookSecret],
  );
  await t.ctx.db.execute(
    sql`UPDATE terminals SET callback_url = ${endpoint.url} WHERE merchant_id = ${t.demo.merchantId}`,
  );
  owner = await loginAs(t.app, 'owner');
  runStart = t.clock.now();
});
afterAll(async () => endpoint?.close());

class Replay implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly up: boolean,
    readonly hours: number,
    readonly status: 'FAILED' | 'DELIVERED' | undefined,
    readonly preview: boolean,
    readonly byOps: boolean,
  ) {}
  check = () => true;
  async run(_m: Model, real: Real) {
    endpointUp = this.up;
    t.clock.advance(this.hours * 3600_000);
    for (let k = 0; k < 10 && (await tickCallbacks(t.ctx, { limit: 200 })) > 0; k++);
    real.log.push(`callbacks worked off after ${this.hours} h, endpoint ${this.up ? 'up' : 'down'}`);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/callbacks/replay',
      headers: { cookie: this.byOps ? ops : owner },
      payload: {
        ...(this.status ? { status: this.status } : {}),
        from: runStart.toISOString(),
        ...(this.preview ? { preview: true } : {}),
        ...(this.byOps ? { merchant: t.demo.merchantId } : {}),
      },
    });
    expectNoServerError(`replay ${this.status ?? 'all'}${this.preview ? ' (preview)' : ''}`, res, real);
    if (res.statusCode !== (this.preview ? 200 : 202)) {
      throw new Error(`replay: ${res.statusCode} ${res.body}\n${real.log.join('\n')}`);
    }
    if (!this.preview) {
      const { count, replayId } = res.json().data as { count: number; replayId: string };
      real.log.push(`replayed ${count} (${replayId})`);
    }
    await checkCallbackInvariants(t.ctx.db, real.log);
    await checkInvariants(real);
  }
  toString = () => `Replay(${this.up},${this.hours},${this.status},${this.preview},${this.byOps})`;
}

/* ---- Statement: a provider's statement uploaded and reconciled (modules/statements) ---- */

/** A multipart body: the form fields, then the file (as the back-office sends a statement). */
function statementForm(fields: Record<string, string>, csv: string) {
  const b = `----model${Math.random().toString(16).slice(2)}`;
  const parts = Object.entries(fields).map(
    ([k, v]) => `--${b}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
  );
  parts.push(
    `--${b}\r\nContent-Disposition: form-data; name="file"; filename="model.csv"\r\n\r\n${csv}\r\n--${b}--\r\n`,
  );
  return { payload: parts.join(''), contentType: `multipart/form-data; boundary=${b}` };
}

/**
 * Staff upload a small statement for a provider: an IN line the books never saw (it goes on the books through the
 * provider API's path: suspense, or the deposit waiting for it) and lines repeating incoming payments the books have
 * (they must come out MATCHED, nothing posted for them).
 */
class Statement implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly provider: number,
    readonly account: number,
    readonly amount: number,
    readonly known: number,
  ) {}
  check = () => true;
  async run(_m: Model, real: Real) {
    const providers = await q<{ id: number; accounts: number[] }>(sql`SELECT a.provider_id AS id,
      array_agg(a.id ORDER BY a.id) AS accounts FROM provider_accounts a GROUP BY a.provider_id ORDER BY a.provider_id`);
    const p = pick(providers, this.provider)!;
    const now = t.clock.now();
    const known = await q<{ account_id: number; amount: string; occurred_at: Date | string; reference: string }>(sql`
      SELECT account_id, amount::text, occurred_at, reference FROM incoming_payments WHERE provider_id = ${p.id}
      ORDER BY created_at DESC, id LIMIT ${this.known}`);
    const stray = `stmt-${p.id}-${real.log.length}-${this.amount}-${Math.random().toString(36).slice(2, 8)}`;
    const csv = [
      'occurredAt,accountId,amount,direction,reference',
      `${now.toISOString()},${pick(p.accounts, this.account)},${this.amount},IN,${stray}`,
      ...known.map((k) => `${new Date(k.occurred_at).toISOString()},${k.account_id},${k.amount},IN,${k.reference}`),
    ].join('\n');
    const body = statementForm(
      {
        providerId: String(p.id),
        periodFrom: new Date(now.getTime() - 3_600_000).toISOString(),
        periodTo: new Date(now.getTime() + 3_600_000).toISOString(),
      },
      csv,
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/statements',
      headers: { cookie: ops, 'content-type': body.contentType },
      payload: body.payload,
    });
    expectNoServerError(`statement of provider ${p.id}: 1 new line, ${known.length} known`, res, real);
    if (res.statusCode !== 201) throw new Error(`statement: ${res.statusCode} ${res.body}\n${real.log.join('\n')}`);
    const { id } = res.json().data.statement as { id: string };
    const lines = await q<{ reference: string; outcome: string; incoming_id: string | null }>(sql`
      SELECT reference, outcome, incoming_id FROM statement_lines WHERE statement_id = ${id} AND line_no IS NOT NULL`);
    const strayLine = lines.find((l) => l.reference === stray);
    const [item] = strayLine?.incoming_id
      ? await q<{ reference: string }>(sql`SELECT reference FROM incoming_payments WHERE id = ${strayLine.incoming_id}`)
      : [];
    if (strayLine?.outcome !== 'STATEMENT_ONLY' || item?.reference !== stray) {
      throw new Error(
        `the statement's new line did not reach the books: ${JSON.stringify(strayLine)}\n${real.log.join('\n')}`,
      );
    }
    const unmatched = lines.filter((l) => l.reference !== stray && l.outcome !== 'MATCHED');
    if (unmatched.length)
      throw new Error(`known payments did not match: ${JSON.stringify(unmatched)}\n${real.log.join('\n')}`);
    await checkInvariants(real);
  }
  toString = () => `Statement(${this.provider},${this.account},${this.amount},${this.known})`;
}

/* ---- end of Statement ---- */

/* ---- Two-person control (modules/approvals): policies on and off, requests approved or rejected later ---- */

/** Admin turns the policies on status corrections and amount changes on (with a threshold) or off. */
class Policy implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly on: boolean,
    readonly threshold: number | null,
  ) {}
  check = () => true;
  async run(_m: Model, real: Real) {
    for (const action of ['invoice.status.change', 'invoice.amount.change']) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/approval-policies/${action}`,
        headers: { cookie: admin },
        payload: { enabled: this.on, thresholds: this.threshold === null ? {} : { UZS: this.threshold } },
      });
      expectNoServerError(`policy ${action} ${this.on} ${this.threshold}`, res, real);
    }
    await checkInvariants(real);
  }
  toString = () => `Policy(${this.on},${this.threshold})`;
}

/** Admin decides a request ops made (an Operator or Amount action held by a policy), whatever moved since. */
class Decide implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly n: number,
    readonly approve: boolean,
  ) {}
  check = () => true;
  async run(_m: Model, real: Real) {
    const pending = await q<{ id: string }>(sql`SELECT id FROM approval_requests WHERE status = 'PENDING'
      ORDER BY created_at, id`);
    const req = pick(pending, this.n);
    if (!req) return checkInvariants(real);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/approvals/${req.id}/${this.approve ? 'approve' : 'reject'}`,
      headers: { cookie: admin },
      payload: this.approve ? {} : { reason: 'model run' },
    });
    expectNoServerError(`${this.approve ? 'approve' : 'reject'} ${req.id}`, res, real);
    await checkInvariants(real);
  }
  toString = () => `Decide(${this.n},${this.approve})`;
}

/* ---- end of two-person control ---- */

class Workers implements fc.AsyncCommand<Model, Real> {
  constructor(readonly minutes: number) {}
  check = () => true;
  async run(_m: Model, real: Real) {
    t.clock.advance(this.minutes * 60_000);
    await tickSandbox(t.ctx);
    await tickExpiry(t.ctx);
    await pauseUnpaidAccounts(t.ctx);
    real.log.push(`workers after ${this.minutes} min`);
    await checkInvariants(real);
  }
  toString = () => `Workers(${this.minutes})`;
}

function commandArbitraries() {
  const i = fc.nat(50);
  const amount = fc.constantFrom(1_000_00, 5_000_00, 50_000_00, 123_456_00, 1_500_000_00, 25_000_000_00);
  const commands = [
    fc
      .tuple(fc.constantFrom('DEPOSIT' as const, 'WITHDRAWAL' as const), fc.boolean(), amount)
      .map(([f, test, a]) => new Create(f, test, a)),
    i.map((x) => new Customer(x)),
    fc.tuple(i, amount).map(([x, a]) => new NewAmount(x, a)),
    i.map((x) => new MerchantCancel(x)),
    fc.tuple(i, fc.boolean(), fc.boolean()).map(([x, ok, acc]) => new Ticket(x, ok, acc)),
    fc.tuple(i, fc.boolean()).map(([x, paid]) => new ProviderReport(x, paid)),
    fc.tuple(i, fc.integer({ min: 1, max: 6 }), fc.boolean()).map(([x, s, acc]) => new Operator(x, s, acc)),
    // operator decisions raced with the provider's answers on the same invoice
    fc
      .tuple(i, fc.integer({ min: 1, max: 6 }), fc.boolean())
      .map(([x, s, paid]) => new OperatorRacesProvider(x, s, paid)),
    fc.tuple(i, amount).map(([x, a]) => new Amount(x, a)),
    i.map((x) => new Retry(x)),
    fc.tuple(fc.integer({ min: 1, max: 120 }), fc.boolean()).map(([s, test]) => new Settle(s, test)),
    fc.integer({ min: 1, max: 90 }).map((mins) => new Workers(mins)),
    fc.tuple(fc.nat(10), amount).map(([a, x]) => new Unmatched(a, x)),
    fc.tuple(fc.nat(10), i).map(([item, x]) => new Match(item, x)),
    fc.nat(10).map((item) => new Return(item)),
    fc.tuple(fc.nat(10), fc.boolean()).map(([n, accept]) => new Resolve(n, accept)),
    fc.tuple(fc.nat(30), fc.boolean()).map(([a, pause]) => new PauseResume(a, pause)),
    fc
      .tuple(
        fc.boolean(),
        fc.integer({ min: 1, max: 80 }),
        fc.constantFrom('FAILED' as const, 'DELIVERED' as const, undefined),
        fc.boolean(),
        fc.boolean(),
      )
      .map(([up, hours, status, preview, byOps]) => new Replay(up, hours, status, preview, byOps)),
    // two-person control: ops's corrections become requests while a policy is on; admin decides them later
    fc
      .tuple(fc.boolean(), fc.constantFrom(null, 0, 1_000_000_00, 20_000_000_00))
      .map(([on, threshold]) => new Policy(on, threshold)),
    fc.tuple(fc.nat(10), fc.boolean()).map(([n, ok]) => new Decide(n, ok)),
    // Statement (modules/statements): a provider's statement with a line the books never saw
    fc
      .tuple(fc.nat(10), fc.nat(10), amount, fc.integer({ min: 0, max: 3 }))
      .map(([p, a, x, known]) => new Statement(p, a, x, known)),
  ];
  // creations weigh more: most actions need invoices to act on
  return [commands[0]!, commands[0]!, commands[1]!, ...commands];
}

describe('money invariants under random interleavings of every actor', () => {
  // first, on the demo's own data: the random runs below may settle the merchant's balance away or pause accounts,
  // and a withdrawal refused for that would leave no provider transaction to race
  it("every operator decision raced with the provider's answer on the same invoice: the answer is acknowledged", async () => {
    const real: Real = { log: [] };
    let k = 0;
    for (const flow of ['WITHDRAWAL', 'DEPOSIT'] as const) {
      for (let statusId = 1; statusId <= INVOICE_STATUSES.length; statusId++) {
        // a deposit's provider reports money that arrived; a payout's answers DONE or DECLINED
        for (const paid of flow === 'DEPOSIT' ? [true] : [true, false]) {
          const model: Model = { invoices: [] };
          // amounts of their own: no two deposits of the run share (account, amount)
          await new Create(flow, false, 1_000_00 + ++k * 100 + 7).run(model, real);
          await new Customer(0).run(model, real);
          const [open] = await q<{ n: number }>(sql`SELECT count(*)::int AS n FROM provider_transactions
            WHERE invoice_id = ${model.invoices[0]!.id} AND status = 'PENDING'`);
          // the provider is still to answer when the operator decides: the race this is about
          expect(open!.n, `${flow} has its provider transaction open\n${real.log.join('\n')}`).toBe(1);
          await new OperatorRacesProvider(0, statusId, paid).run(model, real);
        }
      }
    }
    expect(real.log.filter((l) => l.startsWith('provider ') && l.includes('(raced)'))).toHaveLength(18);
    expect(await reconcileLedger(t.ctx.db)).toEqual({ drift: [], unbalanced: [] });
  });

  it(`hold after every step (${RUNS} runs × up to ${STEPS} steps)`, async () => {
    const commands = commandArbitraries();
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: STEPS, size: 'max' }), async (cmds) => {
        const real: Real = { log: [] };
        await fc.asyncModelRun(() => ({ model: { invoices: [] }, real }), cmds);
        if (process.env.MODEL_VERBOSE) console.log(real.log.join('\n'));
      }),
      // MODEL_SEED replays a run fast-check reported (its `seed`)
      { numRuns: RUNS, ...(process.env.MODEL_SEED ? { seed: Number(process.env.MODEL_SEED) } : {}) },
    );
    expect(await reconcileLedger(t.ctx.db)).toEqual({ drift: [], unbalanced: [] });
  });

  it.runIf(CONCURRENCY > 1)(`hold when actions run ${CONCURRENCY} at a time`, async () => {
    const model: Model = { invoices: [] };
    const real: Real = { log: [] };
    const batches = fc.sample(
      fc.array(fc.oneof(...commandArbitraries()), { minLength: CONCURRENCY, maxLength: CONCURRENCY }),
      {
        numRuns: RUNS * 4,
        seed: Number(process.env.MODEL_SEED ?? 20261123),
      },
    );
    for (const batch of batches) {
      // each action checks the invariants after itself too, while the others are still running
      await Promise.all(batch.filter((c) => c.check(model)).map((c) => c.run(model, real)));
      await checkInvariants(real);
    }
    expect(await reconcileLedger(t.ctx.db)).toEqual({ drift: [], unbalanced: [] });
  });
});
