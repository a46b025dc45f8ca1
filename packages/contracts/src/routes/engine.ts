import { merchantScopeQuery } from '../common';
import { invoiceIdBody, retryResponse } from '../engine';
import { routeSpec } from '../route-spec';

/** Routes of the engine module (see route-spec.ts). */
export const engineRouteSpecs = {
  'POST /api/v1/invoice/retry': routeSpec({
    method: 'POST',
    path: '/api/v1/invoice/retry',
    operationId: 'retryWithdrawalPayout',
    summary: 'Retry a withdrawal payout',
    description:
      'Sends a new payout attempt (a new provider transaction) for a declined withdrawal, taking the hold on the balance again. Refused while an earlier attempt is still with the provider or once one was paid.',
    tags: ['Engine'],
    api: 'back-office',
    // re-sending a payout is platform-only (docs/architecture.md, "Who is who"); the engine adds the state and
    // retry rules
    access: { all: ['invoice.retry'] },
    query: merchantScopeQuery.strict(),
    body: invoiceIdBody,
    responses: { 200: retryResponse },
    errors: ['INVALID_STATE', 'INSUFFICIENT_BALANCE'],
  }),
};
