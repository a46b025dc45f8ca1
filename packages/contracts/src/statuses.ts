import type { Permission } from './permissions';

export const INVOICE_STATUSES = [
  { id: 1, code: 'NEW', value: 'New' },
  { id: 2, code: 'IN_PROGRESS', value: 'In progress' },
  { id: 3, code: 'PAYED', value: 'Payed' },
  { id: 4, code: 'DONE', value: 'Done' },
  { id: 5, code: 'DECLINED', value: 'Declined' },
  { id: 6, code: 'CANCELED', value: 'Canceled' },
] as const;

export type InvoiceStatus = (typeof INVOICE_STATUSES)[number]['code'];
export const INVOICE_STATUS_CODES = INVOICE_STATUSES.map((s) => s.code) as unknown as readonly [
  InvoiceStatus,
  ...InvoiceStatus[],
];
export const statusById = (id: number) => INVOICE_STATUSES.find((s) => s.id === id);
export const statusByCode = (code: string) => INVOICE_STATUSES.find((s) => s.code === code);

export const FLOW_TYPES = ['DEPOSIT', 'WITHDRAWAL'] as const;
export type FlowType = (typeof FLOW_TYPES)[number];

/** The statuses each flow has: PAYED ("Have paid") is a deposit status only. */
export const FLOW_STATUSES: Record<FlowType, readonly InvoiceStatus[]> = {
  DEPOSIT: ['NEW', 'IN_PROGRESS', 'PAYED', 'DONE', 'DECLINED', 'CANCELED'],
  WITHDRAWAL: ['NEW', 'IN_PROGRESS', 'DONE', 'DECLINED', 'CANCELED'],
};
export const statusExistsInFlow = (flow: FlowType, status: string) =>
  (FLOW_STATUSES[flow] as readonly string[]).includes(status);

/* ---- The invoice lifecycle's rules (docs/engine.md). The engine applies them; nothing else lists statuses. ---- */

/** Every invoice starts here (the merchant API creates it). */
export const INITIAL_STATUS = 'NEW' satisfies InvoiceStatus;
export const FINAL_STATUSES: readonly InvoiceStatus[] = ['DONE', 'DECLINED', 'CANCELED'];
export const isFinal = (s: string) => (FINAL_STATUSES as readonly string[]).includes(s);

/**
 * Transitions the engine itself makes (customer, provider, workers, merchant). Operators with
 * invoice.status.change may set any other status of the flow, under the same guards.
 */
const FLOW_TRANSITIONS: Record<FlowType, Partial<Record<InvoiceStatus, readonly InvoiceStatus[]>>> = {
  DEPOSIT: {
    NEW: ['IN_PROGRESS', 'CANCELED', 'DECLINED'],
    IN_PROGRESS: ['PAYED', 'DONE', 'DECLINED', 'CANCELED'],
    PAYED: ['DONE', 'DECLINED', 'CANCELED'],
  },
  WITHDRAWAL: {
    NEW: ['IN_PROGRESS', 'CANCELED', 'DECLINED'],
    // once the payout is with the provider only its answer ends it (an operator may still correct)
    IN_PROGRESS: ['DONE', 'DECLINED'],
    // A declined payout may be retried (manually or automatically): back in progress.
    DECLINED: ['IN_PROGRESS'],
  },
};

export function canTransition(flow: FlowType, from: InvoiceStatus, to: InvoiceStatus): boolean {
  return FLOW_TRANSITIONS[flow][from]?.includes(to) ?? false;
}

/** Merchant cancel and expiry: deposits until the money arrived, withdrawals only before the payout started. */
export const isCancellable = (inv: { flowType: string; status: string }) =>
  canTransition(inv.flowType as FlowType, inv.status as InvoiceStatus, 'CANCELED');

/** Deposit statuses in which the customer holds an account's requisites (and room under its limit is reserved). */
export const REQUISITE_STATUSES: readonly InvoiceStatus[] = ['IN_PROGRESS', 'PAYED'];
export const holdsRequisites = (inv: { flowType: string; status: string }) =>
  inv.flowType === 'DEPOSIT' && (REQUISITE_STATUSES as readonly string[]).includes(inv.status);

/** Statuses in which a provider's answer (deposit confirmation, payout result) moves the invoice. */
const AWAITING_PROVIDER: Record<FlowType, readonly InvoiceStatus[]> = {
  DEPOSIT: REQUISITE_STATUSES,
  WITHDRAWAL: ['IN_PROGRESS'],
};
export const awaitsProvider = (inv: { flowType: string; status: string }) =>
  (AWAITING_PROVIDER[inv.flowType as FlowType] as readonly string[] | undefined)?.includes(inv.status) ?? false;

/**
 * What the engine asks a provider for: a deposit's confirmation (the customer pressed "Have paid"), or a
 * withdrawal's payout, one transaction per attempt. Nothing else is ever written as a transaction's type.
 */
export const PROVIDER_TRANSACTION_TYPES = ['DEPOSIT', 'PAYOUT'] as const;
export type ProviderTransactionType = (typeof PROVIDER_TRANSACTION_TYPES)[number];
export const providerTransactionType = (flow: FlowType): ProviderTransactionType =>
  flow === 'WITHDRAWAL' ? 'PAYOUT' : 'DEPOSIT';
/**
 * A provider transaction is PENDING until the provider answers DONE or DECLINED, and only the provider's answer
 * closes it: what staff, expiry or the merchant decided meanwhile is recorded beside it, never as its status.
 */
export const PROVIDER_TRANSACTION_STATUSES = ['PENDING', 'DONE', 'DECLINED'] as const;

/**
 * Expiry: which statuses of each flow are canceled once the form expires, and after what grace.
 * A PAYED deposit (the customer says the money is sent) keeps its requisites for a day after the
 * form expires, so a late provider confirmation still matches it.
 */
export const PAYED_GRACE_MS = 24 * 3600_000;
export const EXPIRY_GRACE_MS: Record<FlowType, Partial<Record<InvoiceStatus, number>>> = {
  DEPOSIT: { NEW: 0, IN_PROGRESS: 0, PAYED: PAYED_GRACE_MS },
  WITHDRAWAL: { NEW: 0 },
};
/** When an invoice in its current status is canceled by expiry (ms since epoch), or null if it never is. */
export function expiryDeadline(inv: { flowType: string; status: string; expiresAt: Date | string }): number | null {
  const grace = EXPIRY_GRACE_MS[inv.flowType as FlowType]?.[inv.status as InvoiceStatus];
  return grace === undefined ? null : new Date(inv.expiresAt).getTime() + grace;
}

export type StatusColor = 'error' | 'success' | 'neutral' | 'primary' | 'warning';
/** Status colours. */
export function statusColor(code: string): StatusColor {
  switch (code) {
    case 'DECLINED':
    case 'CANCELED':
    case 'REJECTED':
      return 'error';
    case 'DONE':
    case 'PAYED':
    case 'SOLVED':
      return 'success';
    case 'NEW':
      return 'neutral';
    case 'IN_PROGRESS':
    case 'IN_WORK':
      return 'primary';
    default:
      return 'warning';
  }
}

export const TICKET_STATUSES = [
  { id: 1, code: 'NEW', value: 'New' },
  { id: 2, code: 'IN_WORK', value: 'In work' },
  { id: 3, code: 'PENDING', value: 'Pending' },
  { id: 4, code: 'SOLVED', value: 'Solved' },
  { id: 5, code: 'REJECTED', value: 'Rejected' },
] as const;

/* ---- Invoice actions: the server refuses with these rules, the web hides or disables with them. ---- */

/**
 * What the action rules know of an invoice's dealings with its provider, beyond its flow and status: the engine
 * reads it under the invoice's lock, the invoice details carry it (`processing`) so that the page disables what the
 * server would refuse and says why. Without it a rule judges by flow and status alone.
 */
export type InvoiceProcessing = {
  /** the attempt of the provider transaction still open for the invoice (a payout, a deposit's confirmation) */
  pendingAttempt: number | null;
  /** the customer gave the withdrawal's payout details (card or phone) */
  payoutDetailsGiven: boolean;
  /** a payout of the withdrawal was paid by the provider */
  paidOut: boolean;
  /** a provider account is named on the invoice (the deposit's requisites, the account paying the withdrawal) */
  accountAssigned: boolean;
};

type InvoiceLike = { flowType: string; status: string; isTest?: boolean; processing?: InvoiceProcessing | null };
const has = (perms: readonly string[], p: Permission) => perms.includes(p);

/**
 * Why no new payout is sent for this invoice (a manual or an automatic retry), or null when one is. A payout is
 * never sent twice: not beside a pending one, and not after one was paid.
 */
export function retryRefusal(inv: InvoiceLike): string | null {
  if (inv.flowType !== 'WITHDRAWAL' || inv.status === 'CANCELED' || inv.status === 'DONE') {
    return `A ${inv.flowType.toLowerCase()} in status ${inv.status} cannot be retried`;
  }
  const p = inv.processing;
  if (!p) return null;
  if (!p.payoutDetailsGiven) return 'The customer has not given payout details yet; there is nothing to retry';
  if (p.pendingAttempt !== null) {
    return `Payout attempt ${p.pendingAttempt} is still with the provider; retry only after it is declined`;
  }
  if (p.paidOut) return 'This withdrawal was already paid out by the provider; no second payout is sent';
  return null;
}
/** The state part of the retry rule: a withdrawal neither CANCELED nor DONE (where Retry is offered at all). */
export const canRetry = (inv: InvoiceLike) => retryRefusal({ flowType: inv.flowType, status: inv.status }) === null;
/**
 * The Retry button: the state rule above plus invoice.retry (a platform permission: docs/architecture.md, "Who is
 * who").
 */
export const canRequestRetry = (inv: InvoiceLike, perms: readonly string[]) =>
  canRetry(inv) && has(perms, 'invoice.retry');

/**
 * Nothing is issued twice to a provider: while a provider transaction of the invoice is pending, the invoice leaves
 * the statuses that wait for the provider only by its answer, or (staff correcting) to a final status: DONE for a
 * withdrawal (it was paid), any final one for a deposit. True when moving to `to` is what a pending transaction
 * forbids: back to NEW, or a withdrawal to DECLINED or CANCELED, would let a second payout or confirmation start
 * beside the first.
 */
export const pendingProviderForbids = (inv: { flowType: string; status: string }, to: string) =>
  to !== inv.status &&
  !awaitsProvider({ flowType: inv.flowType, status: to }) &&
  !(inv.flowType === 'WITHDRAWAL' ? to === 'DONE' : isFinal(to));

/**
 * Why the engine refuses an operator's change of this invoice to status `to`, as far as the invoice's own state tells
 * (the funds, limit and unique-amount guards read other rows and answer only when asked), or null.
 */
export function statusChangeRefusal(inv: InvoiceLike, to: string): string | null {
  const flow = inv.flowType as FlowType;
  if (to === inv.status) return `The invoice is already ${to}`;
  if (!statusExistsInFlow(flow, to)) return `${to} is not a status of a ${flow.toLowerCase()}`;
  const p = inv.processing;
  if (!p) return null;
  if (p.pendingAttempt !== null && pendingProviderForbids(inv, to)) {
    return flow === 'WITHDRAWAL'
      ? `Payout attempt ${p.pendingAttempt} is still with the provider: until it answers, the withdrawal can only be set DONE (if it was paid)`
      : `The provider is still confirming this deposit: it goes back to ${to} only after the provider answered`;
  }
  if (!p.accountAssigned && holdsRequisites({ flowType: flow, status: to })) {
    return `A deposit is ${to} only once requisites of a provider account were given`;
  }
  // a withdrawal's DONE pays out from a provider account: none was ever named for this one
  if (!p.accountAssigned && flow === 'WITHDRAWAL' && to === 'DONE') {
    return 'A withdrawal becomes DONE only once its payout was sent from a provider account; this one never was';
  }
  return null;
}

export const canChangeStatus = (inv: InvoiceLike, perms: readonly string[]) =>
  Boolean(inv.isTest) || has(perms, 'invoice.status.change');
export const canChangeAmount = (_inv: InvoiceLike, perms: readonly string[]) => has(perms, 'invoice.amount.change');
/**
 * Why the engine refuses to set an invoice's amount (minor units) to `amount`, or null; `money` words an amount for
 * people (formatMoney with the invoice's currency).
 */
export function amountChangeRefusal(
  inv: { amount: number },
  amount: number,
  money: (minor: number) => string,
): string | null {
  if (amount === inv.amount) return `The amount is already ${money(amount)}`;
  return null;
}
export const canSendCallback = (perms: readonly string[]) => has(perms, 'merchant.callback.edit');
export const canDecideTicket = (ticket: { status: string }, perms: readonly string[]) =>
  has(perms, 'ticket.decision') && ticket.status !== 'REJECTED' && ticket.status !== 'SOLVED';
