import { useQuery } from '@tanstack/react-query';
import type { BalanceItem } from '@paydesk/contracts/engine';
import { api } from '../../../lib/api';
import { useCurrentMerchantId } from '../../../lib/merchant';

export type FinanceKind = 'balance' | 'deposit' | 'withdrawal';

/** Balance, deposit or withdrawal sums (merchant.read.finance); the first element is shown (SPEC §3). */
export function useFinance(kind: FinanceKind, terminalId: string) {
  const merchantId = useCurrentMerchantId();
  return useQuery({
    queryKey: ['finance', kind, merchantId ?? 'own', terminalId] as const,
    queryFn: ({ signal }) =>
      api
        .get<{ data: BalanceItem[] }>(`/api/v1/merchant/${kind}`, { signal, query: { terminalId } })
        .then((r) => r.data[0] ?? null),
  });
}

type Currency = { code: string; dimension: number };

/** Currency dimensions for formatting sums; cached for good. */
export function useCurrencies() {
  return useQuery({
    queryKey: ['reference', 'currency'] as const,
    queryFn: ({ signal }) =>
      api.get<{ data: Currency[] }>('/api/v1/reference/currency', { signal, scoped: false }).then((r) => r.data),
    staleTime: Infinity,
    gcTime: Infinity,
    refetchOnWindowFocus: false,
  });
}
