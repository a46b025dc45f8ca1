import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ChangeInvoiceAmountBody, ChangeInvoiceStatusBody, ticketDecisionBody } from '@paydesk/contracts/invoices';
import { call } from '../../../lib/api';
import { invoicesKey } from './invoice-list';
import { invoiceKey } from './invoice';

/** Every action refreshes the whole invoice (card, history, sections) and the list it appears in. */
function useInvoiceMutation<TVars>(invoiceId: string, fn: (vars: TVars) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: invoiceKey(invoiceId) });
      await queryClient.invalidateQueries({ queryKey: [...invoicesKey, 'list'] });
    },
  });
}

export const useChangeStatus = (invoiceId: string) =>
  useInvoiceMutation(invoiceId, (v: Omit<ChangeInvoiceStatusBody, 'invoiceId'>) =>
    call('PATCH /api/v1/invoice/status', { body: { invoiceId, ...v } }),
  );

export const useChangeAmount = (invoiceId: string) =>
  useInvoiceMutation(invoiceId, (v: Omit<ChangeInvoiceAmountBody, 'invoiceId'>) =>
    call('PATCH /api/v1/invoice/amount', { body: { invoiceId, ...v } }),
  );

export const useRetry = (invoiceId: string) =>
  useInvoiceMutation<void>(invoiceId, () => call('POST /api/v1/invoice/retry', { body: { invoiceId } }));

export const useSendCallback = (invoiceId: string) =>
  useInvoiceMutation<void>(invoiceId, () => call('POST /api/v1/merchant/callback', { body: { invoiceId } }));

/** The body of POST /api/v1/merchant/support/{approve,reject}: the ticket, and for an approval of a never-routed deposit the account the money arrived on. */
export type TicketDecisionBody = z.infer<typeof ticketDecisionBody>;
export type TicketDecision = 'approve' | 'reject';

export const useDecideTicket = (invoiceId: string) =>
  useInvoiceMutation(invoiceId, ({ decision, ...body }: TicketDecisionBody & { decision: TicketDecision }) =>
    call(`POST /api/v1/merchant/support/${decision}`, { body }),
  );
