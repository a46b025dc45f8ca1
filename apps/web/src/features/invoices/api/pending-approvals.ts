import { useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api';
import { invoiceKey } from './invoice';

/**
 * The invoice's requests waiting for a second person's approval (a status or amount change a policy held back). Under
 * the invoice's key, so every action on it reads them again; a person who may not see approvals gets an empty list.
 */
export const usePendingApprovals = (invoiceId: string) =>
  useQuery({
    queryKey: [...invoiceKey(invoiceId), 'approvals'] as const,
    queryFn: ({ signal }) =>
      call('GET /api/v1/approvals', {
        signal,
        scoped: false,
        query: { status: 'PENDING', targetId: invoiceId },
      }).then((r) => r.data),
  });
