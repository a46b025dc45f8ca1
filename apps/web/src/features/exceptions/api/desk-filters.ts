import { useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api';

/**
 * Provider accounts for the unmatched money's account filter (people.account; the whole platform's, never scoped by
 * the top bar's merchant). Not under the desk's key: a resolution does not change them.
 */
export const useDeskAccounts = (enabled: boolean) =>
  useQuery({
    queryKey: ['desk-filters', 'accounts'] as const,
    queryFn: ({ signal }) => call('GET /api/v1/people/account', { signal, scoped: false }).then((r) => r.data),
    enabled,
    staleTime: 60_000,
  });
