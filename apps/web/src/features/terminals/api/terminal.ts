import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TerminalCreateBody, TerminalDetails, TerminalPatchBody, TerminalPutBody } from '@paydesk/contracts';
import { call } from '../../../lib/api';
import { useCurrentMerchantId } from '../../../lib/merchant';
import { terminalsQueryKey } from '../../../lib/terminals';

const detailsKey = (merchantId: string | null, id: string) => ['terminal', merchantId ?? 'own', id] as const;

const terminalQuery = (merchantId: string | null, id: string) =>
  queryOptions({
    queryKey: detailsKey(merchantId, id),
    queryFn: ({ signal }) => call('GET /api/v1/terminal/:id', { params: { id }, signal }).then((r) => r.data),
    refetchOnWindowFocus: false,
  });

export function useTerminal(id: string) {
  return useQuery(terminalQuery(useCurrentMerchantId(), id));
}

/** After a change: the details hold the server's answer; the list (cached forever) is refetched. */
function useApplyTerminal() {
  const queryClient = useQueryClient();
  const merchantId = useCurrentMerchantId();
  return (t: TerminalDetails) => {
    queryClient.setQueryData(detailsKey(merchantId, t.id), t);
    void queryClient.invalidateQueries({ queryKey: terminalsQueryKey });
  };
}

export type SaveTerminal = { id: string } & (
  { method: 'PUT'; body: TerminalPutBody } | { method: 'PATCH'; body: TerminalPatchBody }
);

export function useSaveTerminal() {
  const apply = useApplyTerminal();
  return useMutation({
    mutationFn: (s: SaveTerminal) =>
      (s.method === 'PUT'
        ? call('PUT /api/v1/terminal/:id', { params: { id: s.id }, body: s.body })
        : call('PATCH /api/v1/terminal/:id', { params: { id: s.id }, body: s.body })
      ).then((r) => r.data),
    onSuccess: apply,
  });
}

export function useRemoveAttribute(terminalId: string) {
  const queryClient = useQueryClient();
  const merchantId = useCurrentMerchantId();
  return useMutation({
    mutationFn: (attributeId: number) =>
      call('DELETE /api/v1/terminal/:id', { params: { id: terminalId }, query: { attributeId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: detailsKey(merchantId, terminalId) }),
  });
}

export function useCreateTerminal() {
  const apply = useApplyTerminal();
  const merchantId = useCurrentMerchantId();
  return useMutation({
    mutationFn: (body: TerminalCreateBody) => {
      if (!merchantId) throw new Error('No merchant is selected');
      return call('POST /api/v1/merchant/:merchantId/terminal', { params: { merchantId }, body }).then((r) => r.data);
    },
    onSuccess: apply,
  });
}

/** Test → production; the web offers no way back. */
export function useSwitchToProduction() {
  const queryClient = useQueryClient();
  const merchantId = useCurrentMerchantId();
  return useMutation({
    mutationFn: (terminalId: string) =>
      call('PATCH /api/v1/people/me/testDashboard', { body: { terminalId } }).then((r) => r.data),
    onSuccess: (t) => {
      void queryClient.invalidateQueries({ queryKey: detailsKey(merchantId, t.id) });
      void queryClient.invalidateQueries({ queryKey: terminalsQueryKey });
    },
  });
}
