import { queryOptions, useQuery } from '@tanstack/react-query';
import { TERMINAL_ATTRIBUTE_TYPE_HEADER, type ReferenceHeaderId } from '@paydesk/contracts/reference-headers';
import { call } from './api';
import { useCurrentMerchantId } from './merchant';

/** Reference lists change with a deployment, not during a session. */
const REFERENCE_STALE_MS = 60 * 60_000;

/** A reference list by header id; terminal attribute types (105) are cached for good. */
const referenceQuery = (refHeaderId: ReferenceHeaderId) =>
  queryOptions({
    queryKey: ['reference', refHeaderId] as const,
    queryFn: ({ signal }) =>
      call('GET /api/v1/reference', { signal, scoped: false, query: { refHeaderId } }).then((r) => r.data),
    staleTime: refHeaderId === TERMINAL_ATTRIBUTE_TYPE_HEADER ? Infinity : REFERENCE_STALE_MS,
    gcTime: refHeaderId === TERMINAL_ATTRIBUTE_TYPE_HEADER ? Infinity : undefined,
    refetchOnWindowFocus: false,
  });

export const useReference = (refHeaderId: ReferenceHeaderId) => useQuery(referenceQuery(refHeaderId));

export const currenciesQuery = queryOptions({
  queryKey: ['reference', 'currency'] as const,
  queryFn: ({ signal }) => call('GET /api/v1/reference/currency', { signal, scoped: false }).then((r) => r.data),
  staleTime: REFERENCE_STALE_MS,
  refetchOnWindowFocus: false,
});
export const useCurrencies = () => useQuery(currenciesQuery);

const providersQuery = queryOptions({
  queryKey: ['reference', 'provider'] as const,
  queryFn: ({ signal }) => call('GET /api/v1/provider', { signal, scoped: false }).then((r) => r.data),
  staleTime: REFERENCE_STALE_MS,
  refetchOnWindowFocus: false,
});
export const useProviders = () => useQuery(providersQuery);

/** The current merchant's terminal pools (merchant-scoped, so keyed by merchant). */
const terminalPoolsQuery = (merchantId: string | null) =>
  queryOptions({
    queryKey: ['terminal-pools', merchantId ?? 'own'] as const,
    queryFn: ({ signal }) => call('GET /api/v1/terminal/pool', { signal }).then((r) => r.data),
    staleTime: REFERENCE_STALE_MS,
    refetchOnWindowFocus: false,
  });
export const useTerminalPools = () => useQuery(terminalPoolsQuery(useCurrentMerchantId()));

const paymentMethodsQuery = queryOptions({
  queryKey: ['reference', 'payment-method'] as const,
  queryFn: ({ signal }) => call('GET /api/v1/payment-method', { signal, scoped: false }).then((r) => r.data),
  staleTime: REFERENCE_STALE_MS,
  refetchOnWindowFocus: false,
});
export const usePaymentMethods = () => useQuery(paymentMethodsQuery);
