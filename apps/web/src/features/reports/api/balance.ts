import { useQuery } from '@tanstack/react-query';
import type { BalanceItem } from '@paydesk/contracts/engine';
import { api } from '../../../lib/api';
import { useCurrentMerchantId } from '../../../lib/merchant';

/**
 * The merchant balance (merchant.read.finance) of the chosen terminal, or of the merchant when none is chosen.
 * Same key and shape as the invoices finance strip, so both tiles share one cache entry and a settlement refreshes both.
 */
export function useBalance(terminalId: string, enabled: boolean) {
  const merchantId = useCurrentMerchantId();
  return useQuery({
    queryKey: ['finance', 'balance', merchantId ?? 'own', terminalId] as const,
    queryFn: ({ signal }) =>
      api
        .get<{ data: BalanceItem[] }>('/api/v1/merchant/balance', { signal, query: { terminalId } })
        .then((r) => r.data[0] ?? null),
    enabled,
  });
}
