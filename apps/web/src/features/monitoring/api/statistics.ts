import { queryOptions, useQuery } from '@tanstack/react-query';
import { MONITORING_REFRESH_MS, periodMinutes } from '@paydesk/contracts/monitoring';
import { call } from '../../../lib/api';

/** Merchants the user may monitor, with their terminals (terminal.statistic.settings). */
const statisticMerchantsQuery = queryOptions({
  queryKey: ['monitoring', 'merchants'] as const,
  queryFn: ({ signal }) => call('GET /api/v1/terminal/statistic', { signal, scoped: false }).then((r) => r.data),
  staleTime: 5 * 60_000,
  refetchOnWindowFocus: false,
});
export const useStatisticMerchants = () => useQuery(statisticMerchantsQuery);

/**
 * Per-terminal statistics of one merchant for the period (0 = from UTC day start), refreshed every 60 s.
 * The minutes for "from day start" are computed at each fetch, so the window grows with the day.
 */
export function useTerminalStatistics(merchantId: string, period: number, enabled: boolean) {
  return useQuery({
    queryKey: ['monitoring', 'terminals', merchantId, period] as const,
    queryFn: ({ signal }) =>
      call('GET /api/data/v1/terminal', {
        signal,
        scoped: false,
        query: { minutes: periodMinutes(period, new Date()), merchantId },
      }).then((r) => r.data),
    enabled,
    refetchInterval: MONITORING_REFRESH_MS,
    refetchIntervalInBackground: false,
    staleTime: MONITORING_REFRESH_MS,
    placeholderData: (prev) => prev,
  });
}

/** The books proven now (platform staff who monitor): balance rows = entries, every book sums to zero. */
export function useLedgerReconciliation(enabled: boolean) {
  return useQuery({
    queryKey: ['monitoring', 'ledger-reconciliation'] as const,
    queryFn: ({ signal }) => call('GET /api/v1/ledger/reconciliation', { signal, scoped: false }).then((r) => r.data),
    enabled,
    refetchInterval: 5 * 60_000,
    refetchOnWindowFocus: false,
  });
}
