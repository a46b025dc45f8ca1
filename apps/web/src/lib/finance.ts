import { useQuery } from '@tanstack/react-query';
import type { BalanceItem, LedgerBook } from '@paydesk/contracts/engine';
import { api } from './api';
import { useCurrentMerchantId } from './merchant';

export type FinanceKind = 'balance' | 'deposit' | 'withdrawal';

/** Every finance sum's query key starts with this: a settlement invalidates them all. */
export const FINANCE_KEY = ['finance'] as const;

/**
 * Balance, deposit or withdrawal sums from the ledger (merchant.read.finance) of a terminal, or of the merchant
 * when terminalId is ''; the first element is shown (SPEC §3). One cache entry per tile, shared by every screen.
 */
export function useFinance(kind: FinanceKind, terminalId: string, enabled = true, book: LedgerBook = 'live') {
  const merchantId = useCurrentMerchantId();
  return useQuery({
    queryKey: [...FINANCE_KEY, kind, merchantId ?? 'own', terminalId, book] as const,
    queryFn: ({ signal }) =>
      api
        .get<{ data: BalanceItem[] }>(`/api/v1/merchant/${kind}`, { signal, query: { terminalId, book } })
        .then((r) => r.data[0] ?? null),
    enabled,
  });
}
