import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CallbackDeliveryFilter } from '@paydesk/contracts/callbacks';
import { call } from '../../../lib/api';

/**
 * Callback deliveries and endpoint health. Not scoped by the top bar's picker through `merchantId`: the merchant is
 * named explicitly (`merchant`, platform staff); merchant staff always get their own merchant's.
 */
const callbacksKey = ['callbacks'] as const;

export const useEndpointHealth = (merchant: string | null) =>
  useQuery({
    queryKey: [...callbacksKey, 'health', merchant] as const,
    queryFn: ({ signal }) =>
      call('GET /api/v1/callbacks/health', { signal, scoped: false, query: { merchant } }).then(
        (r) => r.data[0] ?? null,
      ),
    // the figures move with every attempt: read again while the page is open
    refetchInterval: 30_000,
  });

export type DeliveryQuery = Omit<CallbackDeliveryFilter, 'merchant'> & { after?: string };

export const useDeliveries = (merchant: string | null, query: DeliveryQuery) =>
  useQuery({
    queryKey: [...callbacksKey, 'list', merchant, query] as const,
    queryFn: ({ signal }) =>
      call('GET /api/v1/callbacks', { signal, scoped: false, query: { ...query, merchant, limit: 50 } }),
    placeholderData: keepPreviousData,
  });

type ReplayFilter = Omit<CallbackDeliveryFilter, 'merchant'>;
const replayBody = (merchant: string | null, filter: ReplayFilter, preview: boolean) => ({
  ...filter,
  ...(merchant ? { merchant } : {}),
  ...(preview ? { preview: true } : {}),
});

/** What a replay of the filter would send, counted by the server (a preview sends nothing); read when `enabled`. */
export const useReplayPreview = (merchant: string | null, filter: ReplayFilter, enabled: boolean) =>
  useQuery({
    queryKey: [...callbacksKey, 'replay-preview', merchant, filter] as const,
    queryFn: () =>
      call('POST /api/v1/callbacks/replay', { scoped: false, body: replayBody(merchant, filter, true) }).then(
        (r) => r.data,
      ),
    enabled,
    // a count for the moment the dialog opens, never one from before
    staleTime: 0,
    gcTime: 0,
  });

/** Queues a replay of the deliveries a filter picks; the list and the health are read again. */
export function useReplay() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { merchant: string | null; filter: ReplayFilter }) =>
      call('POST /api/v1/callbacks/replay', { scoped: false, body: replayBody(v.merchant, v.filter, false) }).then(
        (r) => r.data,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: callbacksKey }),
  });
}
