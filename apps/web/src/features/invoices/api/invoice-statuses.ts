import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api';

/** The invoice-status reference, fetched by dictionary name and cached forever. */
const invoiceStatusesQuery = queryOptions({
  queryKey: ['dictionary', 'InvoiceStatus'] as const,
  queryFn: ({ signal }) =>
    call('GET /api/v1/dictionary/:name', { params: { name: 'InvoiceStatus' }, signal, scoped: false }).then(
      (r) => r.data,
    ),
  staleTime: Infinity,
  gcTime: Infinity,
  refetchOnWindowFocus: false,
});

export const useInvoiceStatuses = () => useQuery(invoiceStatusesQuery);
