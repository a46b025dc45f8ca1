import { queryOptions } from '@tanstack/react-query';
import { MERCHANT_PICKER_QUERY } from '@paydesk/contracts/first-calls';
import { call } from './api';
import { scopedMerchantStore } from './merchant-scope';
import { useStore } from './persisted-store';
import { useCurrentUser } from './session';

/** All merchants (first 50), for merchant.rw.all users. Not itself merchant-scoped. */
export const merchantsQuery = queryOptions({
  queryKey: ['merchants', 'list'] as const,
  queryFn: ({ signal }) =>
    call('GET /api/v1/merchant', {
      signal,
      scoped: false,
      // the server names this call in index.html for such a user (first-calls.ts): the same URL takes its answer
      query: MERCHANT_PICKER_QUERY,
    }),
  staleTime: Infinity,
  refetchOnWindowFocus: false,
});

/** The merchant the user works on (merchant.read), keyed by the picked merchant. */
export const currentMerchantQuery = (merchantId: string | null) =>
  queryOptions({
    queryKey: ['merchant', 'me', merchantId ?? 'own'] as const,
    queryFn: ({ signal }) => call('GET /api/v1/merchant/me', { signal }).then((r) => r.data),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

/** The merchant back-office calls work on: the picked one for merchant.rw.all users, otherwise the user's own. */
export function useCurrentMerchantId(): string | null {
  const scoped = useStore(scopedMerchantStore);
  const me = useCurrentUser();
  return scoped ?? me.merchantId;
}
