import { merchantScopeQuery } from '../common';
import { callbackEnqueueResponse, callbackListResponse, invoiceIdBody, invoiceIdQuery } from '../engine';
import { routeSpec } from '../route-spec';

const common = {
  api: 'back-office',
  tags: ['Callbacks'],
  path: '/api/v1/merchant/callback',
} as const;

/** Routes of the callbacks module (see route-spec.ts). */
export const callbacksRoutes = {
  'GET /api/v1/merchant/callback': routeSpec({
    ...common,
    method: 'GET',
    operationId: 'listInvoiceCallbacks',
    summary: "List an invoice's merchant callbacks",
    description: "An invoice's merchant callbacks and their attempts (response code, latency, error), oldest first.",
    access: { all: ['merchant.callback.read'] },
    query: invoiceIdQuery,
    responses: { 200: callbackListResponse },
  }),
  'POST /api/v1/merchant/callback': routeSpec({
    ...common,
    method: 'POST',
    operationId: 'sendManualCallback',
    summary: 'Send a manual callback now',
    description:
      "Queues a callback with the invoice's current status (type invoice.manual) to the invoice's or terminal's callback URL; without a URL it is kept as NO_URL.",
    access: { all: ['merchant.callback.edit'] },
    query: merchantScopeQuery.strict(),
    body: invoiceIdBody,
    responses: { 200: callbackEnqueueResponse },
  }),
};
