import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api';
import { invoicesKey } from './invoice-list';

/** Keys of one invoice: ['invoices', 'detail', id, <part>]; invalidating ['invoices', 'detail', id] refreshes them all. */
export const invoiceKey = (id: string) => [...invoicesKey, 'detail', id] as const;

const invoiceQuery = (id: string) =>
  queryOptions({
    queryKey: [...invoiceKey(id), 'invoice'] as const,
    queryFn: ({ signal }) => call('GET /api/v1/invoice/:id', { params: { id }, signal }).then((r) => r.data),
  });

/** The invoice's history sections: each one a list fetched with ?invoiceId=. */
type SectionQuery = { invoiceId: string };
const section = <T>(
  id: string,
  part: string,
  list: (query: SectionQuery, signal: AbortSignal) => Promise<{ data: T[] }>,
  enabled = true,
) =>
  queryOptions({
    queryKey: [...invoiceKey(id), part] as const,
    queryFn: ({ signal }) => list({ invoiceId: id }, signal).then((r) => r.data),
    enabled,
  });

export const useInvoice = (id: string) => useQuery(invoiceQuery(id));

/**
 * The invoice's full requisite (every other answer masks it): audited and limited per person and hour by the server.
 * Called from a mutation, never a query, so the full number is not cached (components/revealable-number.tsx).
 */
export const revealInvoiceRequisite = (id: string) =>
  call('POST /api/v1/invoice/:id/credentials/reveal', { params: { id } }).then((r) => r.data.value);
export const useStatusHistory = (id: string) =>
  useQuery(section(id, 'status', (query, signal) => call('GET /api/v1/event/status', { query, signal })));
export const useInvoiceErrors = (id: string, enabled: boolean) =>
  useQuery(section(id, 'errors', (query, signal) => call('GET /api/v1/event/error', { query, signal }), enabled));
export const useInvoiceEvents = (id: string, enabled: boolean) =>
  useQuery(section(id, 'events', (query, signal) => call('GET /api/v1/event/invoice', { query, signal }), enabled));
export const useInvoiceTransactions = (id: string, enabled: boolean) =>
  useQuery(
    section(id, 'transactions', (query, signal) => call('GET /api/v1/transaction/invoice', { query, signal }), enabled),
  );
/** Refreshed every few seconds while a callback is still waiting for delivery, so new attempts show up. */
export const useInvoiceCallbacks = (id: string, enabled: boolean) =>
  useQuery({
    ...section(id, 'callbacks', (query, signal) => call('GET /api/v1/merchant/callback', { query, signal }), enabled),
    refetchInterval: (q) => (q.state.data?.some((c) => c.status === 'PENDING') ? 3000 : false),
  });

export const useSupportTickets = (id: string) =>
  useQuery({
    queryKey: [...invoiceKey(id), 'support'] as const,
    queryFn: ({ signal }) =>
      call('GET /api/v1/merchant/support/:invoiceId', { params: { invoiceId: id }, signal }).then((r) => r.data),
  });
