import {
  CALLBACK_REPLAY_MAX,
  CALLBACK_REPLAY_PER_SECOND,
  callbackDeliveryListResponse,
  callbackDeliveryQuery,
  callbackHealthQuery,
  callbackHealthResponse,
  callbackReplayBody,
  callbackReplayPreviewResponse,
  callbackReplayResponse,
} from '../callbacks';
import { merchantScopeQuery } from '../common';
import { callbackEnqueueResponse, callbackListResponse, invoiceIdBody, invoiceIdQuery } from '../engine';
import { routeSpec } from '../route-spec';

const common = {
  api: 'back-office',
  tags: ['Callbacks'],
  path: '/api/v1/merchant/callback',
} as const;

/** Routes of the callbacks module (see route-spec.ts). */
export const callbackRouteSpecs = {
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
  'GET /api/v1/callbacks': routeSpec({
    api: 'back-office',
    tags: ['Callbacks'],
    method: 'GET',
    path: '/api/v1/callbacks',
    operationId: 'listCallbackDeliveries',
    summary: 'List callback deliveries across invoices',
    description:
      'Every delivery with its attempts, latest answer and event type, newest first, with keyset pages (`after` = ' +
      'the previous page’s `next`). Platform staff see every merchant’s, or one (`merchant`); merchant staff always ' +
      'their own merchant’s, whatever `merchant` says.',
    access: { all: ['merchant.callback.read'] },
    query: callbackDeliveryQuery,
    responses: { 200: callbackDeliveryListResponse },
  }),
  'GET /api/v1/callbacks/health': routeSpec({
    api: 'back-office',
    tags: ['Callbacks'],
    method: 'GET',
    path: '/api/v1/callbacks/health',
    operationId: 'getCallbackEndpointHealth',
    summary: 'Callback endpoint health per merchant',
    description:
      'The last 2xx, the attempts since it, the success rate of the last 24 h and the URLs in use. Platform staff ' +
      'get every merchant (or the one named); merchant staff their own.',
    access: { all: ['merchant.callback.read'] },
    query: callbackHealthQuery,
    responses: { 200: callbackHealthResponse },
  }),
  'POST /api/v1/callbacks/replay': routeSpec({
    api: 'back-office',
    tags: ['Callbacks'],
    method: 'POST',
    path: '/api/v1/callbacks/replay',
    operationId: 'replayCallbacks',
    summary: 'Send the events of the matching deliveries once more',
    description:
      'Takes the list’s filters. Each event among the matching deliveries is sent once more as a new delivery ' +
      'with its own webhook-id and the original body (`replayOf` names the original), to the URL the invoice uses ' +
      'now; an event whose latest delivery is still pending, or that has no URL, is skipped. `preview: true` only ' +
      `counts (200). Otherwise 202: the deliveries fall due perSecond a second (${CALLBACK_REPLAY_PER_SECOND} unless the ` +
      'server sets CALLBACK_REPLAY_PER_SECOND), after the ' +
      `merchants’ live callbacks. At most ${CALLBACK_REPLAY_MAX.toLocaleString('en')} at a time. Platform staff ` +
      'name the merchant; merchant staff replay their own. Audited.',
    access: { all: ['merchant.callback.edit'] },
    body: callbackReplayBody,
    responses: { 200: callbackReplayPreviewResponse, 202: callbackReplayResponse },
  }),
};
