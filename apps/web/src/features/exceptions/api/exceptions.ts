import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ContradictionResolveBody,
  IncomingMatchBody,
  IncomingReturnBody,
  StuckKind,
} from '@paydesk/contracts/exceptions';
import type { AccountPauseRuleBody } from '@paydesk/contracts/account-health';
import { call, type QueryParams } from '../../../lib/api';
import { exceptionSummaryQuery } from '../../../lib/desk-count';

/** The operations desk's calls: the whole platform's queues, never scoped by the top bar's merchant picker. */
export const exceptionsKey = ['exceptions'] as const;

export const useExceptionSummary = () => useQuery(exceptionSummaryQuery);

export const useIncomingList = (query: QueryParams) =>
  useQuery({
    queryKey: [...exceptionsKey, 'incoming', query] as const,
    queryFn: ({ signal }) => call('GET /api/v1/incoming', { signal, scoped: false, query }),
    placeholderData: keepPreviousData,
  });

export const useIncomingDetail = (id: string | null) =>
  useQuery({
    queryKey: [...exceptionsKey, 'incoming', 'detail', id] as const,
    queryFn: ({ signal }) =>
      call('GET /api/v1/incoming/:id', { signal, scoped: false, params: { id: id! } }).then((r) => r.data),
    enabled: id !== null,
  });

export const useStuckList = (kind: StuckKind, query: QueryParams) =>
  useQuery({
    queryKey: [...exceptionsKey, 'stuck', kind, query] as const,
    queryFn: ({ signal }) => call('GET /api/v1/exceptions/stuck', { signal, scoped: false, query: { ...query, kind } }),
    placeholderData: keepPreviousData,
  });

export const useContradictions = (query: QueryParams) =>
  useQuery({
    queryKey: [...exceptionsKey, 'contradictions', query] as const,
    queryFn: ({ signal }) => call('GET /api/v1/contradictions', { signal, scoped: false, query }),
    placeholderData: keepPreviousData,
  });

/** Every resolution changes the queues and their counts (and the invoices it touched): read them all again. */
function useDeskMutation<TVars, TOut>(fn: (vars: TVars) => Promise<TOut>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: exceptionsKey });
      await queryClient.invalidateQueries({ queryKey: ['invoices'] });
    },
  });
}

export const useMatchIncoming = () =>
  useDeskMutation((v: { id: string } & IncomingMatchBody) =>
    call('POST /api/v1/incoming/:id/match', {
      scoped: false,
      params: { id: v.id },
      body: { invoiceId: v.invoiceId, reason: v.reason },
    }),
  );

export const useReturnIncoming = () =>
  useDeskMutation((v: { id: string } & IncomingReturnBody) =>
    call('POST /api/v1/incoming/:id/return', {
      scoped: false,
      params: { id: v.id },
      body: { reference: v.reference, reason: v.reason },
    }),
  );

export const useResolveContradiction = () =>
  useDeskMutation((v: { id: number } & ContradictionResolveBody) =>
    call('POST /api/v1/contradictions/:id/resolve', {
      scoped: false,
      params: { id: v.id },
      body: { resolution: v.resolution, reason: v.reason },
    }),
  );

export const useResumeAccount = () =>
  useDeskMutation((v: { id: number; reason: string }) =>
    call('POST /api/v1/people/account/:id/resume', { scoped: false, params: { id: v.id }, body: { reason: v.reason } }),
  );

export const usePauseRule = (enabled: boolean) =>
  useQuery({
    queryKey: [...exceptionsKey, 'pause-rule'] as const,
    queryFn: ({ signal }) =>
      call('GET /api/v1/people/account/pause-rule', { signal, scoped: false }).then((r) => r.data),
    enabled,
  });

export const useSetPauseRule = () =>
  useDeskMutation((v: AccountPauseRuleBody) =>
    call('PUT /api/v1/people/account/pause-rule', { scoped: false, body: v }),
  );
