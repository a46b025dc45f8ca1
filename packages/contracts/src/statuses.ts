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

export const FINAL_STATUSES: readonly InvoiceStatus[] = ['DONE', 'DECLINED', 'CANCELED'];
/** Statuses in which an invoice still holds requisites (deposit) or funds (withdrawal). */
export const ACTIVE_STATUSES: readonly InvoiceStatus[] = ['NEW', 'IN_PROGRESS', 'PAYED'];
export const isFinal = (s: string) => (FINAL_STATUSES as readonly string[]).includes(s);

/**
 * Transitions the engine itself makes (customer, provider, workers, merchant).
 * Operators with invoice.status.change may set any status (SPEC §4); that path is separate.
 */
const FLOW_TRANSITIONS: Record<FlowType, Partial<Record<InvoiceStatus, readonly InvoiceStatus[]>>> = {
  DEPOSIT: {
    NEW: ['IN_PROGRESS', 'CANCELED', 'DECLINED'],
    IN_PROGRESS: ['PAYED', 'DONE', 'DECLINED', 'CANCELED'],
    PAYED: ['DONE', 'DECLINED', 'CANCELED'],
  },
  WITHDRAWAL: {
    NEW: ['IN_PROGRESS', 'CANCELED', 'DECLINED'],
    IN_PROGRESS: ['DONE', 'DECLINED', 'CANCELED'],
    // A declined payout may be retried (manually or automatically): back in progress.
    DECLINED: ['IN_PROGRESS'],
  },
};

export function canTransition(flow: FlowType, from: InvoiceStatus, to: InvoiceStatus): boolean {
  return FLOW_TRANSITIONS[flow][from]?.includes(to) ?? false;
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
