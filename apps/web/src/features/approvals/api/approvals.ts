import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, type QueryParams } from '../../../lib/api';
import { approvalsKey } from '../../../lib/approvals';
import { meQueryKey } from '../../../lib/session';

/** The requests this person may see (the server decides: those of the actions they may carry out, and their own). */
export const useApprovalList = (query: QueryParams) =>
  useQuery({
    queryKey: [...approvalsKey, 'list', query] as const,
    queryFn: ({ signal }) => call('GET /api/v1/approvals', { signal, scoped: false, query }),
    placeholderData: keepPreviousData,
  });

/**
 * A decision changes the queue and its count; an approval also carries the action out (an invoice's status, an
 * account's limit, a merchant's key…): whatever is cached may be out of date, so everything is read again but the user.
 */
function useDecision<TVars>(fn: (vars: TVars) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== meQueryKey[0] }),
  });
}

export const useApprove = () =>
  useDecision(({ id, reason }: { id: string; reason?: string }) =>
    call('POST /api/v1/approvals/:id/approve', {
      params: { id },
      body: reason ? { reason } : {},
      scoped: false,
    }),
  );

export const useReject = () =>
  useDecision(({ id, reason }: { id: string; reason: string }) =>
    call('POST /api/v1/approvals/:id/reject', { params: { id }, body: { reason }, scoped: false }),
  );
