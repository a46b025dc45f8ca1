import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { call, type QueryParams } from '../../../lib/api';
import { useCurrentMerchantId } from '../../../lib/merchant';

export const invoicesKey = ['invoices'] as const;

export const invoiceListQuery = (merchantId: string | null, params: QueryParams) =>
  queryOptions({
    queryKey: [...invoicesKey, 'list', merchantId ?? 'own', params] as const,
    queryFn: ({ signal }) => call('GET /api/v1/invoice', { signal, query: params }),
    placeholderData: keepPreviousData,
  });

/** One page of the list; the previous page stays on screen while the next loads. */
export function useInvoiceList(params: QueryParams) {
  return useQuery(invoiceListQuery(useCurrentMerchantId(), params));
}

/**
 * The exact number of invoices a filter matches ("Count exactly", past the list's capped total): asked for only on
 * request (it reads every match), then kept per filter; another filter has its own (none until asked).
 */
const invoiceCountQuery = (merchantId: string | null, filters: QueryParams) =>
  queryOptions({
    queryKey: [...invoicesKey, 'count', merchantId ?? 'own', filters] as const,
    queryFn: ({ signal }) => call('GET /api/v1/invoice/count', { signal, query: filters }),
    enabled: false,
    // a refusal or a time limit hit is shown at once: the operator asks again if they want
    retry: false,
    staleTime: Infinity,
  });

export function useInvoiceCount(filters: QueryParams) {
  return useQuery(invoiceCountQuery(useCurrentMerchantId(), filters));
}
