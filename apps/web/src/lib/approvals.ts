import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApprovalAction, ApprovalHeld } from '@paydesk/contracts/approvals';
import { call } from './api';
import { useCurrentUser } from './session';

/*
 * Two-person control, the parts several screens share: who may decide requests, the navigation's count, and how a
 * covered action's "held for approval" answer (202) is told apart from its ordinary one. (Types only from the
 * contracts' approvals module: the signed-in layout, which shows the count, loads no schemas.)
 */

/** Every query of approval requests and policies starts with this key: invalidating it refreshes them all. */
export const approvalsKey = ['approvals'] as const;

/** The permissions that let a person decide some request: each covered action is named by the one it needs. */
const DECIDING: Record<ApprovalAction, true> = {
  'invoice.status.change': true,
  'invoice.amount.change': true,
  'settlement.create': true,
  'people.account.edit': true,
  'incoming.resolve': true,
  'merchant.key.edit': true,
};

/** Whether a person holds any permission a request may need (the Approvals page and its navigation entry). */
export const mayDecideApprovals = (perms: readonly string[]) => perms.some((p) => Object.hasOwn(DECIDING, p));

/** How often the navigation's count is read again while the back-office is open. */
const APPROVAL_COUNT_REFRESH_MS = 30_000;

const approvalCountQuery = queryOptions({
  queryKey: [...approvalsKey, 'count'] as const,
  queryFn: ({ signal }) => call('GET /api/v1/approvals/count', { signal, scoped: false }).then((r) => r.data.pending),
  refetchInterval: APPROVAL_COUNT_REFRESH_MS,
  staleTime: 10_000,
});

/** Pending requests this person may decide; undefined while unknown or when they may decide none. */
export function useApprovalCount(): number | undefined {
  const me = useCurrentUser();
  const enabled = !me.mustChangePassword && mayDecideApprovals(me.permissions);
  const { data } = useQuery({ ...approvalCountQuery, enabled });
  return enabled ? data : undefined;
}

/** A covered action's answer when a policy held it back (202): nothing changed yet, a request waits. */
export function heldForApproval(body: unknown): ApprovalHeld | null {
  if (typeof body !== 'object' || body === null || !('data' in body)) return null;
  const data = (body as { data: unknown }).data;
  return typeof data === 'object' && data !== null && 'approvalRequestId' in data ? (data as ApprovalHeld) : null;
}

/** What the person who asked is told when their action waits for a second person. */
export const SENT_FOR_APPROVAL = 'Sent for approval: another person must approve it';
