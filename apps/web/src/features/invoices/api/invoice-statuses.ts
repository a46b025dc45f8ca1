import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InvoiceStatusRef } from '@paydesk/contracts/invoices';
import { api } from '../../../lib/api';

/** The invoice-status reference, fetched by dictionary name and cached forever (SPEC §7). */
const invoiceStatusesQuery = queryOptions({
  queryKey: ['dictionary', 'InvoiceStatus'] as const,
  queryFn: ({ signal }) =>
    api
      .get<{ data: InvoiceStatusRef[] }>('/api/v1/dictionary/InvoiceStatus', { signal, scoped: false })
      .then((r) => r.data),
  staleTime: Infinity,
  gcTime: Infinity,
  refetchOnWindowFocus: false,
});

export const useInvoiceStatuses = () => useQuery(invoiceStatusesQuery);
