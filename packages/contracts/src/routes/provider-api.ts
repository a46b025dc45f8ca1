import {
  incomingBody,
  incomingListQuery,
  incomingListResponse,
  incomingResponse,
  payoutBody,
  payoutParams,
  payoutResponse,
} from '../provider-api';
import { routeSpec } from '../route-spec';

const common = {
  api: 'provider',
  tags: ['Provider API'],
  access: 'provider',
} as const;

export const providerApiRouteSpecs = {
  'POST /api/provider/v1/incoming': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/provider/v1/incoming',
    operationId: 'reportIncomingPayment',
    summary: 'Report money that arrived on an account',
    description:
      'Matched to the single active deposit on the account with that amount; a repeated reference is idempotent.',
    body: incomingBody,
    responses: { 200: incomingResponse },
    // NOT_FOUND: the account is unknown or another provider's; INVALID_STATE: the engine refused to finish the
    // matched deposit; CONFLICT: a concurrent change to the same records (retry)
    errors: ['NOT_FOUND', 'INVALID_STATE', 'CONFLICT'],
  }),
  'GET /api/provider/v1/incoming': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/provider/v1/incoming',
    operationId: 'listIncomingPayments',
    summary: 'Reported incoming payments',
    description: "The provider's own reports, newest first; `unmatched=true` keeps those no deposit was matched to.",
    query: incomingListQuery,
    responses: { 200: incomingListResponse },
  }),
  'POST /api/provider/v1/payouts/:transactionId': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/provider/v1/payouts/:transactionId',
    operationId: 'reportPayoutResult',
    summary: 'Report the result of a payout',
    description:
      'DONE settles the withdrawal; DECLINED is retried automatically when the merchant enabled it, else the ' +
      'withdrawal is DECLINED. Repeating the same answer is idempotent.',
    params: payoutParams,
    body: payoutBody,
    responses: { 200: payoutResponse },
    // INVALID_STATE: the transaction was already answered the other way
    errors: ['INVALID_STATE', 'CONFLICT'],
  }),
};
