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

/** The statuses each flow has (DESIGN §3): PAYED ("Have paid") is a deposit status only. */
export const FLOW_STATUSES: Record<FlowType, readonly InvoiceStatus[]> = {
  DEPOSIT: ['NEW', 'IN_PROGRESS', 'PAYED', 'DONE', 'DECLINED', 'CANCELED'],
  WITHDRAWAL: ['NEW', 'IN_PROGRESS', 'DONE', 'DECLINED', 'CANCELED'],
};
export const statusExistsInFlow = (flow: FlowType, status: string) =>
  (FLOW_STATUSES[flow] as readonly string[]).includes(status);

/* ---- The invoice lifecycle's rules (DESIGN §3). The engine applies them; nothing else lists statuses. ---- */

/** Every invoice starts here (the merchant API creates it). */
export const INITIAL_STATUS = 'NEW' satisfies InvoiceStatus;
export const FINAL_STATUSES: readonly InvoiceStatus[] = ['DONE', 'DECLINED', 'CANCELED'];
export const isFinal = (s: string) => (FINAL_STATUSES as readonly string[]).includes(s);

/**
 * Transitions the engine itself makes (customer, provider, workers, merchant). Operators with
 * invoice.status.change may set any other status of the flow (SPEC §4), under the same guards.
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
/** SPEC §4 status colours. */
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
export type TicketStatus = (typeof TICKET_STATUSES)[number]['code'];

/* ---- Action visibility rules: the server refuses with these, the web hides with them. ---- */

type InvoiceLike = { flowType: string; status: string; isTest?: boolean };
const has = (perms: readonly string[], p: Permission) => perms.includes(p);

export const canRetry = (inv: InvoiceLike) =>
  inv.flowType === 'WITHDRAWAL' && inv.status !== 'CANCELED' && inv.status !== 'DONE';
/** The Retry button: the state rule above plus invoice.retry (a platform permission, DESIGN §1a). */
export const canRequestRetry = (inv: InvoiceLike, perms: readonly string[]) =>
  canRetry(inv) && has(perms, 'invoice.retry');
export const canChangeStatus = (inv: InvoiceLike, perms: readonly string[]) =>
  Boolean(inv.isTest) || has(perms, 'invoice.status.change');
export const canChangeAmount = (_inv: InvoiceLike, perms: readonly string[]) => has(perms, 'invoice.amount.change');
export const canSendCallback = (perms: readonly string[]) => has(perms, 'merchant.callback.edit');
export const canDecideTicket = (ticket: { status: string }, perms: readonly string[]) =>
  has(perms, 'ticket.decision') && ticket.status !== 'REJECTED' && ticket.status !== 'SOLVED';
