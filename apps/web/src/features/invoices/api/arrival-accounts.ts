import { useQuery } from '@tanstack/react-query';
import type { AccountListItem } from '@paydesk/contracts/accounts';
import { api } from '../../../lib/api';

/**
 * Provider accounts an operator may name as the one a deposit's money arrived on (DESIGN §3: a deposit
 * is DONE only against an account). Platform staff only (people.account); the server checks the currency.
 */
export function useArrivalAccounts(enabled: boolean) {
  return useQuery({
    queryKey: ['invoices', 'arrival-accounts'] as const,
    queryFn: ({ signal }) =>
      api.get<{ data: AccountListItem[] }>('/api/v1/people/account', { signal, scoped: false }).then((r) => r.data),
    enabled,
    staleTime: 60_000,
  });
}
