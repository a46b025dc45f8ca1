import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SavedViewCreateBody, SavedViewUpdateBody } from '@paydesk/contracts/saved-views';
import { call } from '../../../lib/api';
import { useCurrentMerchantId } from '../../../lib/merchant';

const savedViewsKey = ['saved-views'] as const;

export const savedViewsQuery = (merchantId: string | null) =>
  queryOptions({
    queryKey: [...savedViewsKey, merchantId ?? 'own'] as const,
    queryFn: ({ signal }) => call('GET /api/v1/saved-views', { signal }).then((r) => r.data),
    refetchOnWindowFocus: false,
  });

/** The caller's views of the Transactions list on the current merchant, then the team's shared ones. */
export const useSavedViews = () => useQuery(savedViewsQuery(useCurrentMerchantId()));

function useViewMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: savedViewsKey }),
  });
}

export const useCreateView = () =>
  useViewMutation((body: SavedViewCreateBody) => call('POST /api/v1/saved-views', { body }).then((r) => r.data));

export const useUpdateView = () =>
  useViewMutation(({ id, ...body }: SavedViewUpdateBody & { id: string }) =>
    call('PATCH /api/v1/saved-views/:id', { params: { id }, body }).then((r) => r.data),
  );

export const useDeleteView = () =>
  useViewMutation((id: string) => call('DELETE /api/v1/saved-views/:id', { params: { id } }));
