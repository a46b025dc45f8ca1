import { merchantScopeQuery, uuidParam } from '../common';
import { invoiceIdQuery } from '../engine';
import {
  INVOICE_CSV_FILENAME,
  changeInvoiceAmountBody,
  changeInvoiceStatusBody,
  dictionaryParams,
  invoiceCountResponse,
  invoiceCsvQuery,
  invoiceErrorsResponse,
  invoiceEventsResponse,
  invoiceListQuery,
  invoiceListResponse,
  invoiceDetailsResponse,
  invoiceStatusDictionaryResponse,
  invoiceStatusEventsResponse,
  invoiceTransactionsResponse,
  invoiceRevealResponse,
} from '../invoices';
import { approvalHeldResponse } from '../approvals';
import { routeSpec } from '../route-spec';

const common = {
  api: 'back-office',
  tags: ['Invoices'],
} as const;

const scoped = merchantScopeQuery.strict();

/**
 * The engine's refusals of an operator correction (engine/guards.ts): the invoice is already there
 * or cannot be moved (INVALID_STATE), the merchant's balance would go below zero (INSUFFICIENT_BALANCE),
 * an account's requisites are not free for this amount or a concurrent change met the same rows (CONFLICT).
 */
const correctionErrors = ['INVALID_STATE', 'INSUFFICIENT_BALANCE', 'CONFLICT'] as const;

/** Routes of the invoices module (see route-spec.ts). */
export const invoiceRouteSpecs = {
  'GET /api/v1/invoice': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/invoice',
    operationId: 'listInvoices',
    summary: 'List invoices',
    description:
      "A page of the merchant's invoices matching the search and filters, newest first; `total` is exact up to 10,000 matches, then capped (`totalIsCapped`; GET /api/v1/invoice/count counts exactly). Pages by number reach the first 10,000 matches; `nextCursor`/`prevCursor` (keyset: pass as `after`/`before`) reach every row at the same cost. Requisites and provider are sent only to callers allowed to read them.",
    access: 'session',
    query: invoiceListQuery,
    responses: { 200: invoiceListResponse },
    // a search past the 16 KB URL limit is refused before it reaches the route
    errors: ['HEADERS_TOO_LARGE'],
  }),
  'GET /api/v1/invoice/csv': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/invoice/csv',
    operationId: 'exportInvoicesCsv',
    summary: 'Export invoices as CSV',
    description: `All invoices matching the filters as ${INVOICE_CSV_FILENAME}, streamed (no row cap).`,
    access: 'session',
    query: invoiceCsvQuery,
    responses: {
      200: { file: 'text/csv', description: `${INVOICE_CSV_FILENAME}: one row per invoice matching the filters` },
    },
    errors: ['HEADERS_TOO_LARGE'],
  }),
  'GET /api/v1/invoice/count': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/invoice/count',
    operationId: 'countInvoices',
    summary: 'Count invoices exactly',
    description:
      'The exact number of invoices matching the filters, for when the list says its total is capped ("Count exactly"). ' +
      'Reads every match: on a very large merchant it may take seconds, or answer 503 when it exceeds the time limit.',
    access: 'session',
    query: invoiceCsvQuery,
    responses: { 200: invoiceCountResponse },
    errors: ['HEADERS_TOO_LARGE'],
  }),
  'GET /api/v1/invoice/:id': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/invoice/:id',
    operationId: 'getInvoice',
    summary: 'Get an invoice',
    description:
      "One invoice of the merchant with what its actions depend on (`processing`); another merchant's invoice is not found.",
    access: 'session',
    params: uuidParam,
    query: scoped,
    responses: { 200: invoiceDetailsResponse },
  }),
  'POST /api/v1/invoice/:id/credentials/reveal': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/invoice/:id/credentials/reveal',
    operationId: 'revealInvoiceCredentials',
    summary: "Show an invoice's full requisite",
    description:
      'The full card or phone number of a withdrawal, or the account number of a deposit, which every other answer ' +
      'masks. Each call writes an audit record (credentials.revealed: who, which invoice, when); at most 30 an hour ' +
      'per person (429).',
    access: { all: ['invoice.credentials.read'] },
    params: uuidParam,
    query: scoped,
    responses: { 200: invoiceRevealResponse },
    errors: ['TOO_MANY_REQUESTS'],
  }),
  'PATCH /api/v1/invoice/status': routeSpec({
    ...common,
    method: 'PATCH',
    path: '/api/v1/invoice/status',
    operationId: 'changeInvoiceStatus',
    summary: "Change an invoice's status",
    description:
      'Operator correction with a reason: allowed on test invoices to anyone who sees them, on live ones with invoice.status.change. The engine checks the ledger and requisites rules and records the change.',
    // test invoices or invoice.status.change: canChangeStatus, checked in the service
    access: 'session',
    query: scoped,
    body: changeInvoiceStatusBody,
    responses: { 200: invoiceDetailsResponse, 202: approvalHeldResponse },
    errors: correctionErrors,
  }),
  'PATCH /api/v1/invoice/amount': routeSpec({
    ...common,
    method: 'PATCH',
    path: '/api/v1/invoice/amount',
    operationId: 'changeInvoiceAmount',
    summary: "Change an invoice's amount",
    description:
      'Operator correction with a reason: the fee is recomputed and the ledger moves by the difference; the merchant gets an amount callback.',
    access: { all: ['invoice.amount.change'] },
    query: scoped,
    body: changeInvoiceAmountBody,
    responses: { 200: invoiceDetailsResponse, 202: approvalHeldResponse },
    errors: correctionErrors,
  }),
  'GET /api/v1/event/status': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/event/status',
    operationId: 'listInvoiceStatusHistory',
    summary: "List an invoice's status history",
    description: 'Every status the invoice went through, oldest first, with who set it.',
    access: 'session',
    query: invoiceIdQuery,
    responses: { 200: invoiceStatusEventsResponse },
  }),
  'GET /api/v1/event/error': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/event/error',
    operationId: 'listInvoiceErrors',
    summary: "List an invoice's errors",
    description: 'The errors recorded while processing the invoice, oldest first.',
    access: { all: ['invoice.error.read'] },
    query: invoiceIdQuery,
    responses: { 200: invoiceErrorsResponse },
  }),
  'GET /api/v1/event/invoice': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/event/invoice',
    operationId: 'listInvoiceEvents',
    summary: "List an invoice's event log",
    description:
      "Everything that happened to the invoice (status and amount changes, callbacks, tickets…), oldest first, with the name of the user who acted; a merchant's staff see a platform employee only as 'Platform staff'.",
    access: { all: ['invoice.event.read'] },
    query: invoiceIdQuery,
    responses: { 200: invoiceEventsResponse },
  }),
  'GET /api/v1/transaction/invoice': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/transaction/invoice',
    operationId: 'listInvoiceTransactions',
    summary: "List an invoice's provider transactions",
    description: 'The confirmations and payout attempts sent to the provider for the invoice, oldest first.',
    access: { all: ['invoice.transaction.read'] },
    query: invoiceIdQuery,
    responses: { 200: invoiceTransactionsResponse },
  }),
  'GET /api/v1/dictionary/:name': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/dictionary/:name',
    operationId: 'getInvoiceStatusDictionary',
    summary: 'Get the invoice status reference',
    description:
      'The invoice statuses with their ids, codes and names, fetched by name (only `InvoiceStatus` exists); cacheable for a day.',
    access: 'session',
    params: dictionaryParams,
    query: scoped,
    responses: { 200: invoiceStatusDictionaryResponse },
  }),
};
