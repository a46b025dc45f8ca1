import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from './api';

/**
 * The operations desk's queue sizes: shown by its page's tabs and summed beside its navigation entry, read again every
 * SUMMARY_REFRESH_MS while the back-office is open, by platform staff who may see the desk only.
 */
const SUMMARY_REFRESH_MS = 30_000;

export const exceptionSummaryQuery = queryOptions({
  queryKey: ['exceptions', 'summary'] as const,
  queryFn: ({ signal }) => call('GET /api/v1/exceptions/summary', { signal, scoped: false }).then((r) => r.data),
  refetchInterval: SUMMARY_REFRESH_MS,
  staleTime: 10_000,
});

/** Everything waiting for a person on the desk, all queues together. */
export function useDeskCount(): number | undefined {
  const { data } = useQuery(exceptionSummaryQuery);
  return data?.reduce((n, q) => n + q.count, 0);
}
