import {
  APPROVAL_ACTIONS,
  APPROVAL_STATUSES,
  approvalListQuery,
  type ApprovalAction,
  type ApprovalItem,
  type ApprovalStatus,
} from '@paydesk/contracts/approvals';
import { durationText } from '@paydesk/contracts/notifications';
import type { QueryParams } from '../../../lib/api';
import { PAGES } from '../../../lib/pages';

/** What the Approvals page shows, as its URL says it: a bookmark or a shared link opens the same list. */
export type ApprovalsState = {
  /** the tab: the requests waiting (the default), or those decided or expired */
  status: ApprovalStatus;
  /** one covered action only, or all of them */
  action: ApprovalAction | null;
  /** keyset position of the page shown (the previous page's `next`) */
  after: string | null;
};

export const DEFAULT_APPROVALS_STATE: ApprovalsState = { status: 'PENDING', action: null, after: null };

const isOneOf = <T extends string>(list: readonly T[], v: string | null): v is T =>
  v !== null && (list as readonly string[]).includes(v);

/** The page's state from its URL; a value the API would refuse is dropped, never sent. */
export function parseApprovalsState(sp: URLSearchParams): ApprovalsState {
  const status = sp.get('status');
  const action = sp.get('action');
  const after = sp.get('after');
  return {
    status: isOneOf(APPROVAL_STATUSES, status) ? status : 'PENDING',
    action: isOneOf(APPROVAL_ACTIONS, action) ? action : null,
    after: after && approvalListQuery.shape.after.safeParse(after).success ? after : null,
  };
}

/** The URL of a state: the defaults are left out, so the page's plain address is its first tab. */
export function toApprovalsSearchParams(s: ApprovalsState): URLSearchParams {
  const sp = new URLSearchParams();
  if (s.status !== 'PENDING') sp.set('status', s.status);
  if (s.action) sp.set('action', s.action);
  if (s.after) sp.set('after', s.after);
  return sp;
}

/** A change of tab or filter: the list starts again from its first page. */
export const withApprovalsFilter = (
  s: ApprovalsState,
  next: Partial<Pick<ApprovalsState, 'status' | 'action'>>,
): ApprovalsState => ({ ...s, ...next, after: null });

/** The list call's query for a state. */
export function approvalsListQuery(s: ApprovalsState): QueryParams {
  return { status: s.status, action: s.action, after: s.after };
}

/** How long a waiting request has left, the way people say it ("Expires in 23 h 59 min"), or that it has none. */
export function expiryText(expiresAt: string, now: number): string {
  const left = new Date(expiresAt).getTime() - now;
  return left > 0 ? `Expires in ${durationText(left)}` : 'Expired';
}

/** How long ago something happened, the way an operator says it: "45 s", "12 min", "3 h 5 min", "2 d 4 h". */
export const formatAge = (sinceIso: string, now: number): string => durationText(now - new Date(sinceIso).getTime());

/** The screen of what a request changes, when the back-office has one: the invoice, the provider account. */
export function targetPath(item: Pick<ApprovalItem, 'targetType' | 'targetId'>): string | null {
  if (item.targetType === 'invoice') return PAGES.InvoiceDetails(item.targetId);
  if (item.targetType === 'account') return PAGES.AccountDetails(item.targetId);
  return null;
}
