import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ChangeInvoiceAmountBody, ChangeInvoiceStatusBody, ticketDecisionBody } from '@paydesk/contracts/invoices';
import { call } from '../../../lib/api';
import { approvalsKey, heldForApproval } from '../../../lib/approvals';
import { invoicesKey } from './invoice-list';
import { invoiceKey } from './invoice';

/**
 * Every action refreshes the whole invoice (card, history, sections and its requests waiting for approval) and the
 * list it appears in.
 */
function useInvoiceMutation<TVars, TOut = unknown>(invoiceId: string, fn: (vars: TVars) => Promise<TOut>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: invoiceKey(invoiceId) });
      await queryClient.invalidateQueries({ queryKey: [...invoicesKey, 'list'] });
    },
  });
}

/**
 * A correction a two-person policy covers is answered 202 and changes nothing yet: `held` is its request then (the
 * screen says it was sent for approval), null when the change was made.
 */
type CorrectionOutcome = { held: ReturnType<typeof heldForApproval> };

function useCorrection<TVars>(invoiceId: string, send: (vars: TVars) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useInvoiceMutation(invoiceId, async (vars: TVars): Promise<CorrectionOutcome> => {
    const held = heldForApproval(await send(vars));
    // a new request waits: the Approvals page and the navigation's count are read again
    if (held) void queryClient.invalidateQueries({ queryKey: approvalsKey });
    return { held };
  });
}

export const useChangeStatus = (invoiceId: string) =>
  useCorrection(invoiceId, (v: Omit<ChangeInvoiceStatusBody, 'invoiceId'>) =>
    call('PATCH /api/v1/invoice/status', { body: { invoiceId, ...v } }),
  );

export const useChangeAmount = (invoiceId: string) =>
  useCorrection(invoiceId, (v: Omit<ChangeInvoiceAmountBody, 'invoiceId'>) =>
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
