import { and, desc, eq, sql } from 'drizzle-orm';
import {
  awaitsProvider,
  amountChangeRefusal,
  canTransition,
  feeFor,
  isFinal,
  retryRefusal,
  type FlowType,
  type InvoiceStatus,
  type WebhookType,
} from '@paydesk/contracts';
import type { Tx } from '../../db/create-db';
import { rowSql } from '../../db/row-sql';
import { invoices, providerTransactions, supportTickets, terminals } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { AppError, badRequest, invalidState, notFound } from '../../lib/errors';
import { callbackInsert, enqueueCallback } from '../callbacks/service';
import { postInvoiceDelta } from '../ledger/service';
import { getSetting } from '../settings/service';
import { recordAudit, staffActor, type AuditActor, type AuditRecord } from '../audit/service';
import { enforceInvariants, moneyFormatter } from './guards';
import { invoiceProcessing } from './lifecycle';
import { settleSuspenseFunding, type SuspenseMatch } from './suspense';

// the provider API books incoming money through the engine's suspense rules
export { accountBooking, holdInSuspense } from './suspense';
export { holdForApproval, type ApprovalGrant, type HoldSpec } from './approvals';
import { keepLateMoney, openContradiction } from './contradictions';
import { flagOverLimit } from '../routing/service';
import type { SessionUser } from '../../plugins/auth';

/**
 * The invoice state machine's single writer. Every change runs in one transaction that locks the
 * invoice row, checks the rule (contracts/statuses.ts), updates it, and writes the status event,
 * the event-log entry, the ledger delta and the callback outbox row.
 */
export type Actor = {
  kind: 'system' | 'customer' | 'merchant' | 'provider' | 'operator';
  userId?: string;
  /** staff actions carry who and from where, for the audit trail */
  audit?: AuditActor;
};

/** A back-office user acting on invoices. */
export type StaffActor = Actor & { kind: 'operator'; userId: string; audit: AuditActor };
export const operatorActor = (user: SessionUser, ip: string): StaffActor => ({
  kind: 'operator',
  userId: user.id,
  audit: staffActor(user, ip),
});

/** Records a staff action in the audit trail, in the action's transaction. Engine actors need none. */
async function auditStaff(ctx: AppContext, tx: Tx, actor: Actor, r: AuditRecord) {
  if (actor.audit) await recordAudit(tx, actor.audit, r, ctx.now());
}
export type InvoiceRow = typeof invoices.$inferSelect;
export type TicketRow = typeof supportTickets.$inferSelect;

/** The invoice's whole row as SQL (db/row-sql.ts): every change locks, updates and returns it. */
const invoiceRow = rowSql(invoices);

/** Payouts are attempted at most this many times per invoice when retried automatically. */
const AUTO_RETRY_MAX_ATTEMPTS = 3;

const ACTOR_NAME: Record<Actor['kind'], string> = {
  system: 'system',
  customer: 'customer',
  merchant: 'merchant',
  provider: 'provider',
  operator: 'operator',
};

export async function lockInvoice(
  tx: Tx,
  by: { id: string; merchantId?: string } | { formId: string },
  opts: { skipLocked?: boolean } = {},
): Promise<InvoiceRow | undefined> {
  const where =
    'formId' in by
      ? sql`form_id = ${by.formId}`
      : by.merchantId
        ? sql`id = ${by.id} AND merchant_id = ${by.merchantId}`
        : sql`id = ${by.id}`;
  const { rows } = await tx.execute<Record<string, unknown>>(
    sql`SELECT ${invoiceRow.columns} FROM invoices WHERE ${where} FOR UPDATE${opts.skipLocked ? sql` SKIP LOCKED` : sql``}`,
  );
  return rows[0] && invoiceRow.from(rows[0]);
}

export async function logEvent(
  tx: Tx,
  inv: Pick<InvoiceRow, 'id' | 'merchantId'>,
  at: Date,
  actor: Actor,
  code: string,
  description: string,
  data?: Record<string, unknown>,
) {
  await tx.execute(eventLogInsert(inv, at, actor, [{ code, description, data }]));
}

/** The event-log rows of one invoice's change, in their order, as one INSERT (logEvent alone, writeTrail with more). */
function eventLogInsert(inv: Pick<InvoiceRow, 'id' | 'merchantId'>, at: Date, actor: Actor, events: LoggedEvent[]) {
  const userId = actor.userId ?? null;
  return sql`INSERT INTO event_log (merchant_id, invoice_id, code, description, data, event_time, user_id)
    VALUES ${sql.join(
      events.map(
        (e) =>
          sql`(${inv.merchantId}, ${inv.id}, ${e.code}, ${e.description},
               ${JSON.stringify({ actor: actor.kind, ...e.data })}::jsonb, ${at.toISOString()}::timestamptz, ${userId})`,
      ),
      sql`, `,
    )}`;
}

export type TransitionOptions = {
  reason?: string;
  /** Extra columns written with the status (amount, account…). */
  patch?: InvoicePatch;
  /** the requisite given with it (a deposit's account number, a withdrawal's card or phone), plain: sealed here */
  requisite?: Requisite;
  code?: string;
  description?: string;
  /** Skip the engine rule (operator corrections and ticket approvals). */
  force?: boolean;
  /** staff match unmatched money to this deposit (exceptions/service.ts) */
  match?: SuspenseMatch;
  /** more for the event-log entry's data (e.g. how routing chose the account) */
  data?: Record<string, unknown>;
};

/** Columns a change writes besides the status (which only a transition writes). */
type InvoiceColumns = Partial<Omit<InvoiceRow, 'id' | 'status' | 'statusDate'>>;
/** What callers may patch: the requisite's columns are written only from a `Requisite`, encrypted (writeInvoice). */
type InvoicePatch = Omit<InvoiceColumns, 'credentialValue' | 'credentialHash' | 'credentialMasked'>;

/** A requisite value as given (CARD, PHONE…), before the engine encrypts it (lib/data-vault.ts). */
export type Requisite = { type: string; value: string };

/** One change of an invoice, whoever makes it (see writeInvoice). */
type InvoiceWrite = {
  /** the status after the change; omitted: it keeps its status */
  to?: InvoiceStatus;
  patch?: InvoicePatch;
  requisite?: Requisite;
  actor: Actor;
  /** the event-log entry that says what happened, in words */
  event: { code: string; description: string; data?: Record<string, unknown> };
  /** the ledger entries' kind, should the change move money */
  ledgerKind: string;
  /** staff match an unmatched incoming payment to this deposit */
  match?: SuspenseMatch;
};

/**
 * The one write path of an invoice (docs/engine.md): every change — a status transition, re-issued requisites, an
 * amount correction, the customer's payout choice, a match of unmatched money — runs these steps in this order, in
 * the caller's transaction, on a LOCKED invoice:
 * 1. the invariants (guards.ts), before anything is written;
 * 2. money that arrived unmatched: a deposit staff set DONE takes it from suspense instead of counting it twice, and a
 *    deposit paid from suspense that leaves DONE gives the money back to suspense (suspense.ts);
 * 3. the row;
 * 4. the ledger: the difference between the invoice's effect before and after (and a DONE deposit's over-limit flag);
 * 5. the trail, in one statement (writeTrail): the status event (a status change), the event-log entries, and the
 *    merchant's callback: invoice.status when the status moved, invoice.amount_changed when only the amount did.
 */
export async function writeInvoice(ctx: AppContext, tx: Tx, inv: InvoiceRow, w: InvoiceWrite): Promise<InvoiceRow> {
  const now = ctx.now();
  const to = w.to ?? (inv.status as InvoiceStatus);
  const moved = to !== inv.status;
  let patch: InvoiceColumns = { ...w.patch };
  if (w.requisite) {
    // the only place an invoice's requisite is written: encrypted, with its lookup hash and masked form
    const sealed = ctx.vault.seal('invoice.credential', w.requisite.type, w.requisite.value);
    patch = { ...patch, credentialValue: sealed.value, credentialHash: sealed.hash, credentialMasked: sealed.masked };
  }
  let next: InvoiceRow = { ...inv, ...patch, status: to, statusDate: moved ? now : inv.statusDate };
  await enforceInvariants(tx, inv, next);
  const staff = w.actor.kind === 'operator';
  const funding = await settleSuspenseFunding(tx, inv, next, { staff, userId: w.actor.userId ?? null }, now, w.match);
  if (funding) {
    patch = { ...patch, ...funding.patch };
    next = { ...next, ...funding.patch };
  }
  // what staff, expiry or the merchant decided is recorded beside the provider's open transaction, which stays open
  // until the provider answers (its answer is never overwritten: provider-answers.ts)
  if (moved && isFinal(to)) await recordDecision(tx, inv.id, to, w.actor, now);
  const {
    rows: [row],
  } = await tx.execute<Record<string, unknown>>(
    sql`UPDATE invoices SET ${invoiceRow.set({ ...patch, status: to, ...(moved ? { statusDate: now } : {}) })}
        WHERE id = ${inv.id} RETURNING ${invoiceRow.columns}`,
  );
  const updated = row && invoiceRow.from(row);
  const logged = [w.event, ...(funding?.event ? [funding.event] : [])];
  await postInvoiceDelta(tx, inv, updated!, w.ledgerKind, now);
  if (moved && (await flagsOverLimit(tx, updated!, now))) logged.push(overLimitEvent(updated!.accountId!));
  await writeTrail(tx, updated!, now, w.actor, {
    statusEvent: moved,
    logged,
    callback: moved ? 'invoice.status' : updated!.amount !== inv.amount ? 'invoice.amount_changed' : null,
  });
  return updated!;
}

/** A DONE deposit may take its account past the limit (the money is there): flags it; true when it did. */
async function flagsOverLimit(tx: Tx, row: InvoiceRow, at: Date) {
  if (row.flowType !== 'DEPOSIT' || row.status !== 'DONE' || row.accountId === null) return false;
  return flagOverLimit(tx, row.accountId, row.isTest, at);
}

const overLimitEvent = (accountId: number): LoggedEvent => ({
  code: 'ACCOUNT_OVER_LIMIT',
  description: `Account ${accountId} is over its limit after this deposit; it gets no requisites until the limit is raised`,
  data: { accountId },
});

type LoggedEvent = InvoiceWrite['event'];

/**
 * The rows that record a change (steps 3 and 5 of writeInvoice) in one statement, one round trip: the status event
 * when the status moved, the event-log entries in their order, and the merchant's callback when there is one. The
 * invoice row itself was written first, as the callback reports it.
 */
async function writeTrail(
  tx: Tx,
  inv: InvoiceRow,
  at: Date,
  actor: Actor,
  trail: { statusEvent: boolean; logged: LoggedEvent[]; callback: WebhookType | null },
) {
  const inserts = [
    ...(trail.statusEvent
      ? [
          sql`status_event AS (INSERT INTO invoice_status_events (invoice_id, status, status_date, user_id)
              VALUES (${inv.id}, ${inv.status}, ${at.toISOString()}::timestamptz, ${actor.userId ?? null}))`,
        ]
      : []),
    sql`logged AS (${eventLogInsert(inv, at, actor, trail.logged)})`,
  ];
  const last = trail.callback ? await callbackInsert(tx, inv, at, trail.callback) : sql`SELECT 1`;
  await tx.execute(sql`WITH ${sql.join(inserts, sql`, `)} ${last}`);
}

/**
 * A final status set while a provider transaction is open (staff, expiry, the merchant): the decision is recorded
 * beside the transaction, whose own status only the provider's answer writes (resolveProviderTransactionLocked).
 */
async function recordDecision(tx: Tx, invoiceId: string, status: InvoiceStatus, actor: Actor, at: Date) {
  await tx
    .update(providerTransactions)
    .set({ decidedStatus: status, decidedAt: at, decidedBy: actor.userId ?? null })
    .where(and(eq(providerTransactions.invoiceId, invoiceId), eq(providerTransactions.status, 'PENDING')));
}

/** Moves a LOCKED invoice to `to` inside the caller's transaction. */
export async function applyTransition(
  ctx: AppContext,
  tx: Tx,
  inv: InvoiceRow,
  to: InvoiceStatus,
  actor: Actor,
  opts: TransitionOptions = {},
): Promise<InvoiceRow> {
  const from = inv.status as InvoiceStatus;
  if (from === to) throw invalidState(`The invoice is already ${to}`);
  const operator = actor.kind === 'operator' || opts.force;
  if (!operator && !canTransition(inv.flowType as FlowType, from, to)) {
    throw invalidState(`The invoice is ${from}; it cannot move to ${to}`);
  }
  return writeInvoice(ctx, tx, inv, {
    to,
    patch: opts.patch,
    requisite: opts.requisite,
    match: opts.match,
    actor,
    event: {
      code: opts.code ?? (actor.kind === 'operator' ? 'STATUS_CHANGED_BY_OPERATOR' : 'STATUS_CHANGED'),
      description:
        opts.description ??
        `Status changed from ${from} to ${to} by ${ACTOR_NAME[actor.kind]}${opts.reason ? `: ${opts.reason}` : ''}`,
      data: { before: from, after: to, ...(opts.reason ? { reason: opts.reason } : {}), ...opts.data },
    },
    ledgerKind: actor.kind === 'operator' ? 'operator_status' : 'invoice_status',
  });
}

/**
 * New requisites for a deposit that keeps its status (the customer changed the amount or method
 * before paying): the same guards as any change, an event, and an amount callback when it moved.
 */
export async function reissue(
  ctx: AppContext,
  tx: Tx,
  inv: InvoiceRow,
  actor: Actor,
  patch: Pick<InvoiceRow, 'paymentMethodId' | 'amount' | 'fee' | 'accountId'>,
  requisite: Requisite,
  routing?: unknown,
) {
  const money = await moneyFormatter(tx, inv.currencyId);
  return writeInvoice(ctx, tx, inv, {
    patch,
    requisite,
    actor,
    event: {
      code: 'REQUISITES_REISSUED',
      description: `Customer changed the payment from ${money(inv.amount)} to ${money(patch.amount)}: requisites of account ${patch.accountId} given instead of ${inv.accountId}`,
      data: {
        before: { amount: inv.amount, accountId: inv.accountId },
        after: { amount: patch.amount, accountId: patch.accountId },
        ...(routing ? { routing } : {}),
      },
    },
    ledgerKind: 'invoice_amount',
  });
}

/** The customer chose how a withdrawal is paid out (method, and the amount where the form lets them change it). */
export async function choosePayoutMethod(
  ctx: AppContext,
  tx: Tx,
  inv: InvoiceRow,
  actor: Actor,
  choice: { paymentMethodId: number; methodName: string; amount: number; fee: number },
) {
  const money = await moneyFormatter(tx, inv.currencyId);
  return writeInvoice(ctx, tx, inv, {
    patch: { paymentMethodId: choice.paymentMethodId, amount: choice.amount, fee: choice.fee },
    actor,
    event: {
      code: 'PAYOUT_METHOD_CHOSEN',
      description: `Customer chose ${choice.methodName} for ${money(choice.amount)}`,
      data: { paymentMethodId: choice.paymentMethodId, amount: choice.amount },
    },
    ledgerKind: 'invoice_amount',
  });
}

/**
 * The one place a provider transaction is issued, under the invoice lock. Never twice: while one of
 * the invoice is pending, a deposit confirmation request is that one (the customer pressed "Have paid"
 * again) and a payout is refused; a withdrawal already paid out gets no new payout. Attempts count up.
 */
export async function createProviderTransaction(ctx: AppContext, tx: Tx, inv: InvoiceRow, type: 'DEPOSIT' | 'PAYOUT') {
  const issued = await tx
    .select()
    .from(providerTransactions)
    .where(and(eq(providerTransactions.invoiceId, inv.id), eq(providerTransactions.type, type)))
    .orderBy(desc(providerTransactions.attempt));
  const pending = issued.find((t) => t.status === 'PENDING');
  if (pending && type === 'DEPOSIT') return pending;
  if (pending) {
    throw invalidState(
      `Payout attempt ${pending.attempt} is still with the provider; a second one is never sent beside it`,
    );
  }
  if (type === 'PAYOUT' && issued.some((t) => t.status === 'DONE')) {
    throw invalidState('This withdrawal was already paid out by the provider; no second payout is sent');
  }
  const attempt = (issued[0]?.attempt ?? 0) + 1;
  const now = ctx.now();
  const [row] = await tx
    .insert(providerTransactions)
    .values({
      invoiceId: inv.id,
      accountId: inv.accountId,
      type,
      status: 'PENDING',
      attempt,
      sandboxDueAt: inv.isTest ? new Date(now.getTime() + ctx.config.sandboxDelayMs) : null,
      createDate: now,
      statusDate: now,
    })
    .returning();
  return row!;
}

async function inTx<T>(ctx: AppContext, fn: (tx: Tx) => Promise<T>) {
  return ctx.db.transaction(fn);
}

async function lockOwned(tx: Tx, invoiceId: string, merchantId: string) {
  const inv = await lockInvoice(tx, { id: invoiceId, merchantId });
  if (!inv) throw notFound('Invoice');
  return inv;
}

/**
 * Status change by any actor. Engine actors follow canTransition; operators may set any other
 * status (same status → 409) and the event log records before/after, user and reason.
 */
export function changeStatus(
  ctx: AppContext,
  args: {
    invoiceId: string;
    merchantId: string;
    to: InvoiceStatus;
    actor: Actor;
    reason?: string;
    /** a deposit set DONE that no account was routed to: the account the money arrived on */
    accountId?: number;
  },
): Promise<InvoiceRow> {
  return inTx(ctx, async (tx) => {
    const inv = await lockOwned(tx, args.invoiceId, args.merchantId);
    const patch =
      args.accountId === undefined ? undefined : { accountId: await arrivalAccount(tx, inv, args.accountId) };
    const updated = await applyTransition(ctx, tx, inv, args.to, args.actor, { reason: args.reason, patch });
    await auditStaff(ctx, tx, args.actor, {
      action: 'invoice.status_changed',
      merchantId: inv.merchantId,
      targetType: 'invoice',
      targetId: inv.id,
      before: { status: inv.status, test: inv.isTest },
      after: { status: updated.status },
      reason: args.reason,
    });
    return updated;
  });
}

/** The account an operator names for a deposit's money: one that could have received it. */
async function arrivalAccount(tx: Tx, inv: InvoiceRow, accountId: number) {
  if (inv.flowType !== 'DEPOSIT') throw badRequest('Only a deposit takes the account the money arrived on');
  if (inv.accountId !== null && inv.accountId !== accountId) {
    throw invalidState(`This deposit was routed to account ${inv.accountId}; its money arrives there`);
  }
  const res = await tx.execute<{ currency_id: number; is_sandbox: boolean }>(sql`
    SELECT m.currency_id, p.is_sandbox FROM provider_accounts a
    JOIN payment_methods m ON m.id = a.payment_method_id JOIN providers p ON p.id = a.provider_id
    WHERE a.id = ${accountId}`);
  const acc = res.rows[0];
  const field = { peopleAccountId: 'Choose an account of this currency' };
  if (!acc) throw badRequest(`Account ${accountId} does not exist`, field);
  if (Number(acc.currency_id) !== inv.currencyId)
    throw badRequest(`Account ${accountId} takes another currency`, field);
  if (acc.is_sandbox !== inv.isTest) {
    throw badRequest(
      inv.isTest ? 'A test deposit arrives on a sandbox account' : 'A live deposit cannot arrive on a sandbox account',
      field,
    );
  }
  return accountId;
}

/** The terminal's fee in basis points (a typed, checked column: contracts/fees.ts). */
export async function terminalFeeBps(tx: Tx, terminalId: string): Promise<number> {
  const [t] = await tx.select({ feeBps: terminals.feeBps }).from(terminals).where(eq(terminals.id, terminalId));
  return t?.feeBps ?? 0;
}

/** Operator amount correction: the ledger moves by the delta of the effect, the fee is recomputed. */
export function changeAmount(
  ctx: AppContext,
  args: { invoiceId: string; merchantId: string; amount: number; actor: Actor; reason?: string },
): Promise<InvoiceRow> {
  if (!Number.isSafeInteger(args.amount) || args.amount <= 0) {
    throw new AppError('VALIDATION_ERROR', 'Amount must be a positive integer in minor units', {
      amount: 'Must be a positive integer',
    });
  }
  return inTx(ctx, async (tx) => {
    const inv = await lockOwned(tx, args.invoiceId, args.merchantId);
    const money = await moneyFormatter(tx, inv.currencyId);
    const refusal = amountChangeRefusal(inv, args.amount, money);
    if (refusal) throw invalidState(refusal);
    const fee = feeFor(args.amount, await terminalFeeBps(tx, inv.terminalId));
    const updated = await writeInvoice(ctx, tx, inv, {
      patch: { amount: args.amount, fee },
      actor: args.actor,
      event: {
        code: 'AMOUNT_CHANGED',
        description: `Amount changed from ${money(inv.amount)} to ${money(args.amount)}${args.reason ? `: ${args.reason}` : ''}`,
        data: {
          before: inv.amount,
          after: args.amount,
          feeBefore: inv.fee,
          feeAfter: fee,
          ...(args.reason ? { reason: args.reason } : {}),
        },
      },
      ledgerKind: 'operator_amount',
    });
    await auditStaff(ctx, tx, args.actor, {
      action: 'invoice.amount_changed',
      merchantId: inv.merchantId,
      targetType: 'invoice',
      targetId: inv.id,
      before: { amount: inv.amount, fee: inv.fee },
      after: { amount: args.amount, fee },
      reason: args.reason,
    });
    return updated;
  });
}

/** Starts a new payout attempt for a LOCKED withdrawal (DECLINED → IN_PROGRESS with the hold re-applied). */
async function retryLocked(ctx: AppContext, tx: Tx, inv: InvoiceRow, actor: Actor, auto: boolean) {
  // the rule the back-office disables Retry with: a new payout only once the previous one is final and not paid,
  // never beside it (the invoice is locked, so what it reads holds until the payout is written)
  const refusal = retryRefusal({ ...inv, processing: await invoiceProcessing(tx, inv.id) });
  if (refusal) throw invalidState(refusal);
  const now = ctx.now();
  let updated = inv;
  if (!awaitsProvider(inv)) {
    // the hold is taken again: the engine's funds guard refuses it when the balance does not cover it
    updated = await applyTransition(ctx, tx, inv, 'IN_PROGRESS', actor, { force: actor.kind === 'operator' });
  }
  const txn = await createProviderTransaction(ctx, tx, updated, 'PAYOUT');
  const attempt = txn.attempt;
  await logEvent(
    tx,
    inv,
    now,
    actor,
    'PAYOUT_RETRY',
    `${auto ? 'Automatic' : 'Manual'} payout retry: attempt ${attempt}`,
    { transactionId: txn.id, attempt },
  );
  return { invoice: updated, transaction: txn };
}

export function retryWithdrawal(
  ctx: AppContext,
  args: { invoiceId: string; merchantId: string; actor: Actor },
): Promise<InvoiceRow & { transactionId: string; attempt: number }> {
  return inTx(ctx, async (tx) => {
    const inv = await lockOwned(tx, args.invoiceId, args.merchantId);
    const { invoice, transaction } = await retryLocked(ctx, tx, inv, args.actor, false);
    await auditStaff(ctx, tx, args.actor, {
      action: 'invoice.payout_retried',
      merchantId: inv.merchantId,
      targetType: 'invoice',
      targetId: inv.id,
      before: { status: inv.status },
      after: { status: invoice.status, attempt: transaction.attempt, transactionId: transaction.id },
    });
    return { ...invoice, transactionId: transaction.id, attempt: transaction.attempt };
  });
}

export function enqueueManualCallback(
  ctx: AppContext,
  args: { invoiceId: string; merchantId: string; actor: Actor },
): Promise<InvoiceRow & { callbackId: string; callbackStatus: string }> {
  return inTx(ctx, async (tx) => {
    const inv = await lockOwned(tx, args.invoiceId, args.merchantId);
    const now = ctx.now();
    const cb = await enqueueCallback(tx, inv, now, 'invoice.manual');
    await logEvent(tx, inv, now, args.actor, 'CALLBACK_MANUAL', `Manual callback queued (status ${inv.status})`, {
      callbackId: cb.id,
    });
    await auditStaff(ctx, tx, args.actor, {
      action: 'invoice.callback_sent',
      merchantId: inv.merchantId,
      targetType: 'invoice',
      targetId: inv.id,
      after: { callbackId: cb.id, status: inv.status },
    });
    return { ...inv, callbackId: cb.id, callbackStatus: cb.status };
  });
}

/** Approve (ticket SOLVED, invoice → DONE) or reject a support ticket that is neither REJECTED nor SOLVED. */
export function decideTicket(
  ctx: AppContext,
  args: {
    ticketId: number;
    merchantId: string;
    decision: 'approve' | 'reject';
    actor: Actor;
    /** approve: a never-routed deposit names the account its money arrived on */
    accountId?: number;
  },
): Promise<TicketRow> {
  return inTx(ctx, async (tx) => {
    const [ticket] = await tx
      .select()
      .from(supportTickets)
      .where(and(eq(supportTickets.id, args.ticketId), eq(supportTickets.merchantId, args.merchantId)))
      .for('update');
    if (!ticket) throw notFound('Ticket');
    if (ticket.status === 'REJECTED' || ticket.status === 'SOLVED') {
      throw invalidState(`The ticket is already ${ticket.status}`);
    }
    const now = ctx.now();
    const inv = await lockOwned(tx, ticket.invoiceId, args.merchantId);
    if (args.accountId !== undefined && args.decision !== 'approve') {
      throw badRequest('Only an approval names the account the money arrived on', {
        peopleAccountId: 'Leave empty when rejecting',
      });
    }
    if (args.decision === 'approve' && inv.status !== 'DONE') {
      const patch =
        args.accountId === undefined ? undefined : { accountId: await arrivalAccount(tx, inv, args.accountId) };
      await applyTransition(ctx, tx, inv, 'DONE', args.actor, {
        force: true,
        reason: `support ticket ${ticket.id} approved`,
        patch,
      });
    }
    const [updated] = await tx
      .update(supportTickets)
      .set({
        status: args.decision === 'approve' ? 'SOLVED' : 'REJECTED',
        decidedBy: args.actor.userId ?? null,
        decidedAt: now,
      })
      .where(eq(supportTickets.id, ticket.id))
      .returning();
    await logEvent(
      tx,
      inv,
      now,
      args.actor,
      'TICKET_DECIDED',
      `Support ticket ${ticket.id} ${args.decision === 'approve' ? 'approved' : 'rejected'}`,
      { ticketId: ticket.id },
    );
    await auditStaff(ctx, tx, args.actor, {
      action: args.decision === 'approve' ? 'ticket.approved' : 'ticket.rejected',
      merchantId: inv.merchantId,
      targetType: 'ticket',
      targetId: ticket.id,
      before: { ticket: ticket.status, invoiceId: inv.id, invoice: inv.status },
      after: {
        ticket: updated!.status,
        invoice: args.decision === 'approve' ? 'DONE' : inv.status,
        // the account an operator named for a never-routed deposit's money
        ...(args.accountId !== undefined ? { accountId: args.accountId } : {}),
      },
    });
    return updated!;
  });
}

/**
 * A provider's (or the sandbox's) answer to a provider transaction, under the invoice lock. The answer is the provider's
 * and is always stored as given (docs/engine.md, "provider answers"):
 * - while the invoice waits for it: deposits DONE credit the merchant; payouts DONE settle, DECLINED is retried
 *   automatically when the setting is on (at most AUTO_RETRY_MAX_ATTEMPTS attempts), else the invoice is DECLINED;
 *   should the engine refuse what the answer implies, the answer is kept and becomes a contradiction for staff;
 * - after staff (or expiry, or the merchant) already decided: an answer that agrees is recorded; money confirmed for a
 *   deposit that is no longer waiting goes on the books as unmatched money (suspense), offered to staff against this
 *   deposit; any other disagreement is a contradiction for staff (contradictions.ts).
 * Idempotent: a transaction already answered the same way is returned unchanged; a different second answer is 409.
 */
export async function resolveProviderTransactionLocked(
  ctx: AppContext,
  tx: Tx,
  inv: InvoiceRow,
  transactionId: string,
  result: 'DONE' | 'DECLINED',
  actor: Actor,
  opts: { reason?: string; providerInvoiceId?: string } = {},
) {
  const [txn] = await tx.select().from(providerTransactions).where(eq(providerTransactions.id, transactionId));
  if (!txn || txn.invoiceId !== inv.id) throw notFound('Transaction');
  if (txn.status !== 'PENDING') {
    if (txn.status === result) return { invoice: inv, transaction: txn, replay: true };
    throw invalidState(`The provider already answered ${txn.status} for this transaction`);
  }
  const now = ctx.now();
  const [closed] = await tx
    .update(providerTransactions)
    .set({ status: result, statusDate: now, externalRef: opts.providerInvoiceId ?? txn.externalRef })
    .where(eq(providerTransactions.id, txn.id))
    .returning();
  if (!awaitsProvider(inv)) {
    await answerAfterDecision(ctx, tx, inv, closed!, result, actor, opts);
    return { invoice: inv, transaction: closed!, replay: false };
  }
  try {
    // a savepoint: should the engine refuse what the answer implies, the answer itself is still kept
    const invoice = await tx.transaction((sp) => applyProviderAnswer(ctx, sp, inv, txn, result, actor, opts));
    return { invoice, transaction: closed!, replay: false };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    await openContradiction(tx, inv, closed!, result, now, `the engine refused it: ${err.message}`);
    await logEvent(
      tx,
      inv,
      now,
      actor,
      'PROVIDER_CONTRADICTS',
      `Provider answered ${result}; the books could not follow: ${err.message}`,
      {
        transactionId: txn.id,
      },
    );
    return { invoice: inv, transaction: closed!, replay: false };
  }
}

async function applyProviderAnswer(
  ctx: AppContext,
  tx: Tx,
  inv: InvoiceRow,
  txn: typeof providerTransactions.$inferSelect,
  result: 'DONE' | 'DECLINED',
  actor: Actor,
  opts: { reason?: string; providerInvoiceId?: string },
) {
  if (result === 'DONE') {
    return applyTransition(ctx, tx, inv, 'DONE', actor, {
      reason: opts.reason,
      patch: opts.providerInvoiceId ? { providerInvoiceId: opts.providerInvoiceId } : undefined,
    });
  }
  if (
    inv.flowType === 'WITHDRAWAL' &&
    txn.attempt < AUTO_RETRY_MAX_ATTEMPTS &&
    (await getSetting(tx, inv.merchantId, 'settings.withdrawal.retry.auto.enable')) === 'true'
  ) {
    await logEvent(
      tx,
      inv,
      ctx.now(),
      actor,
      'PAYOUT_DECLINED',
      `Payout attempt ${txn.attempt} declined${opts.reason ? `: ${opts.reason}` : ''}`,
      { transactionId: txn.id },
    );
    return (await retryLocked(ctx, tx, inv, { kind: 'system' }, true)).invoice;
  }
  return applyTransition(ctx, tx, inv, 'DECLINED', actor, { reason: opts.reason });
}

/** The provider answered a transaction of an invoice that no longer waited for it (see resolveProviderTransactionLocked). */
async function answerAfterDecision(
  ctx: AppContext,
  tx: Tx,
  inv: InvoiceRow,
  txn: typeof providerTransactions.$inferSelect,
  result: 'DONE' | 'DECLINED',
  actor: Actor,
  opts: { providerInvoiceId?: string },
) {
  const now = ctx.now();
  const paid = inv.status === 'DONE';
  if (paid === (result === 'DONE')) {
    await logEvent(
      tx,
      inv,
      now,
      actor,
      'PROVIDER_AGREES',
      `Provider answered ${result}; the invoice was already ${inv.status}`,
      {
        transactionId: txn.id,
      },
    );
    return;
  }
  if (inv.flowType === 'DEPOSIT' && result === 'DONE' && txn.accountId !== null) {
    // the money is on the account although the deposit is closed: on the books in suspense, for staff to match
    const item = await keepLateMoney(tx, inv, txn.accountId, opts.providerInvoiceId ?? `transaction ${txn.id}`, now);
    await logEvent(
      tx,
      inv,
      now,
      actor,
      'LATE_PAYMENT_IN_SUSPENSE',
      `Provider confirmed the money after the deposit became ${inv.status}: held as unmatched money (${item.reference}) for staff to match or return`,
      { transactionId: txn.id, incomingId: item.id },
    );
    return;
  }
  await openContradiction(tx, inv, txn, result, now);
  await logEvent(
    tx,
    inv,
    now,
    actor,
    'PROVIDER_CONTRADICTS',
    `Provider answered ${result}, but the invoice is ${inv.status}${txn.decidedStatus ? ` (set by staff)` : ''}: queued for staff`,
    { transactionId: txn.id },
  );
}

export function resolveProviderTransaction(
  ctx: AppContext,
  args: {
    transactionId: string;
    result: 'DONE' | 'DECLINED';
    actor: Actor;
    reason?: string;
    providerId?: number;
    type?: 'PAYOUT' | 'DEPOSIT';
  },
) {
  return inTx(ctx, async (tx) => {
    const res = await tx.execute<{ invoice_id: string; provider_id: number | null; type: string }>(sql`
      SELECT pt.invoice_id, a.provider_id, pt.type FROM provider_transactions pt
      LEFT JOIN provider_accounts a ON a.id = pt.account_id WHERE pt.id = ${args.transactionId}`);
    const row = res.rows[0];
    if (
      !row ||
      (args.providerId !== undefined && Number(row.provider_id) !== args.providerId) ||
      (args.type !== undefined && row.type !== args.type)
    ) {
      throw notFound('Transaction');
    }
    const inv = await lockInvoice(tx, { id: row.invoice_id });
    if (!inv) throw notFound('Transaction');
    return resolveProviderTransactionLocked(ctx, tx, inv, args.transactionId, args.result, args.actor, {
      reason: args.reason,
    });
  });
}
