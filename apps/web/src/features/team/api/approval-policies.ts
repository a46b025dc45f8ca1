import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApprovalAction, ApprovalPolicy, ApprovalPolicyBody } from '@paydesk/contracts/approvals';
import { call } from '../../../lib/api';

/** Under the team's key: not the picked merchant's (the server decides whose policies the caller sees). */
const policiesKey = ['team', 'approval-policies'] as const;

/** Which actions need a second person: every platform policy, or for a merchant's staff their own key policy. */
export const useApprovalPolicies = () =>
  useQuery({
    queryKey: policiesKey,
    queryFn: ({ signal }) => call('GET /api/v1/approval-policies', { signal, scoped: false }).then((r) => r.data),
  });

/** Turns a policy on or off with its thresholds; the answer (who changed it, when) replaces it in the list. */
export function useSetApprovalPolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ action, ...body }: ApprovalPolicyBody & { action: ApprovalAction }) =>
      call('PUT /api/v1/approval-policies/:action', { params: { action }, body, scoped: false }).then((r) => r.data),
    onSuccess: (saved) =>
      queryClient.setQueryData<ApprovalPolicy[]>(policiesKey, (list) =>
        list?.map((p) => (p.action === saved.action && p.merchantId === saved.merchantId ? saved : p)),
      ),
  });
}
