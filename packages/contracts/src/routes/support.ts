import { merchantScopeQuery } from '../common';
import { supportInvoiceParams, supportTicketResponse, supportTicketsResponse, ticketDecisionBody } from '../invoices';
import { routeSpec } from '../route-spec';

const common = {
  api: 'back-office',
  tags: ['Support'],
  query: merchantScopeQuery.strict(),
} as const;

/** Routes of the support module (see route-spec.ts). */
export const supportRouteSpecs = {
  'GET /api/v1/merchant/support/:invoiceId': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/merchant/support/:invoiceId',
    operationId: 'listInvoiceSupportTickets',
    summary: "List an invoice's support tickets",
    description:
      "The support history of one invoice of the merchant, oldest first; another merchant's invoice is not found.",
    access: 'session',
    params: supportInvoiceParams,
    responses: { 200: supportTicketsResponse },
  }),
  'POST /api/v1/merchant/support/approve': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/merchant/support/approve',
    operationId: 'approveSupportTicket',
    summary: 'Approve a support ticket',
    description:
      'Solves the ticket and sets its invoice DONE (a never-routed deposit names the account its money arrived on). A ticket already SOLVED or REJECTED is refused.',
    access: { all: ['ticket.decision'] },
    body: ticketDecisionBody,
    responses: { 200: supportTicketResponse },
    // the invoice set DONE passes the engine's rules: status, account and the merchant's balance
    errors: ['INVALID_STATE', 'INSUFFICIENT_BALANCE'],
  }),
  'POST /api/v1/merchant/support/reject': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/merchant/support/reject',
    operationId: 'rejectSupportTicket',
    summary: 'Reject a support ticket',
    description: 'Rejects the ticket; its invoice keeps its status. A ticket already SOLVED or REJECTED is refused.',
    access: { all: ['ticket.decision'] },
    body: ticketDecisionBody,
    responses: { 200: supportTicketResponse },
    errors: ['INVALID_STATE'],
  }),
};
