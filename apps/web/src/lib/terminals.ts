import { useCallback } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from './api';
import { useCurrentMerchantId } from './merchant';
import { createStore, useStore } from './persisted-store';

export const terminalsQueryKey = ['terminals'] as const;

/** The merchant's terminals: fetched once and cached for good, one entry per merchant. */
export const terminalsQuery = (merchantId: string | null) =>
  queryOptions({
    queryKey: [...terminalsQueryKey, 'list', merchantId ?? 'own'] as const,
    queryFn: ({ signal }) => call('GET /api/v1/terminal', { signal }).then((r) => r.data),
    staleTime: Infinity,
    gcTime: Infinity,
    refetchOnWindowFocus: false,
  });

export function useTerminals() {
  return useQuery(terminalsQuery(useCurrentMerchantId()));
}

/** '' means ALL TERMINALS (no filter). Remembered locally. */
export const selectedTerminalStore = createStore<string>('', 'paydesk.terminalId');

/**
 * The terminal chosen in the top bar for the invoices and reports screens; '' = all terminals.
 * A remembered id that is not among the current merchant's terminals counts as ''.
 */
export function useSelectedTerminal(): [terminalId: string, setTerminalId: (id: string) => void] {
  const stored = useStore(selectedTerminalStore);
  const { data: terminals } = useTerminals();
  const terminalId = stored && terminals && !terminals.some((t) => t.id === stored) ? '' : stored;
  const set = useCallback((id: string) => selectedTerminalStore.set(id), []);
  return [terminalId, set];
}
