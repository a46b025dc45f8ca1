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
