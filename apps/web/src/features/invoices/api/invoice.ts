import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CallbackItem } from '@paydesk/contracts/engine';
import type {
  Invoice,
  InvoiceErrorItem,
  InvoiceEventItem,
  InvoiceStatusEvent,
  InvoiceTransactionItem,
  SupportTicketItem,
} from '@paydesk/contracts/invoices';
import { api } from '../../../lib/api';
import { invoicesKey } from './invoice-list';

/** Keys of one invoice: ['invoices', 'detail', id, <part>]; invalidating ['invoices', 'detail', id] refreshes them all. */
export const invoiceKey = (id: string) => [...invoicesKey, 'detail', id] as const;

const invoiceQuery = (id: string) =>
  queryOptions({
    queryKey: [...invoiceKey(id), 'invoice'] as const,
    queryFn: ({ signal }) =>
      api.get<{ data: Invoice }>(`/api/v1/invoice/${encodeURIComponent(id)}`, { signal }).then((r) => r.data),
  });

const section = <T>(id: string, part: string, path: string, enabled = true) =>
  queryOptions({
    queryKey: [...invoiceKey(id), part] as const,
    queryFn: ({ signal }) => api.get<{ data: T[] }>(path, { signal, query: { invoiceId: id } }).then((r) => r.data),
    enabled,
  });

export const useInvoice = (id: string) => useQuery(invoiceQuery(id));
export const useStatusHistory = (id: string) =>
  useQuery(section<InvoiceStatusEvent>(id, 'status', '/api/v1/event/status'));
export const useInvoiceErrors = (id: string, enabled: boolean) =>
  useQuery(section<InvoiceErrorItem>(id, 'errors', '/api/v1/event/error', enabled));
export const useInvoiceEvents = (id: string, enabled: boolean) =>
  useQuery(section<InvoiceEventItem>(id, 'events', '/api/v1/event/invoice', enabled));
export const useInvoiceTransactions = (id: string, enabled: boolean) =>
  useQuery(section<InvoiceTransactionItem>(id, 'transactions', '/api/v1/transaction/invoice', enabled));
/** Refreshed every few seconds while a callback is still waiting for delivery, so new attempts show up. */
export const useInvoiceCallbacks = (id: string, enabled: boolean) =>
  useQuery({
    ...section<CallbackItem>(id, 'callbacks', '/api/v1/merchant/callback', enabled),
    refetchInterval: (q) => (q.state.data?.some((c) => c.status === 'PENDING') ? 3000 : false),
  });

export const useSupportTickets = (id: string) =>
  useQuery({
    queryKey: [...invoiceKey(id), 'support'] as const,
    queryFn: ({ signal }) =>
      api
        .get<{ data: SupportTicketItem[] }>(`/api/v1/merchant/support/${encodeURIComponent(id)}`, { signal })
        .then((r) => r.data),
  });
