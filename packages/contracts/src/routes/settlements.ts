import { approvalHeldResponse } from '../approvals';
import { routeSpec } from '../route-spec';
import { settlementBody, settlementCreateQuery, settlementResponse } from '../settlements';

/** Routes of the settlements module (see route-spec.ts). */
export const settlementRouteSpecs = {
  'POST /api/v1/settlement': routeSpec({
    method: 'POST',
    path: '/api/v1/settlement',
    operationId: 'createSettlement',
    summary: 'Record a settlement',
    description:
      "Records a settlement of the merchant's live balance (settlementAmount in USDT) and debits baseAmount in the terminal's currency; refused on a test terminal or when the balance would go below zero.",
    tags: ['Settlements'],
    api: 'back-office',
    access: { all: ['settlement.create'] },
    query: settlementCreateQuery,
    body: settlementBody,
    responses: { 200: settlementResponse, 202: approvalHeldResponse },
    errors: ['INVALID_STATE', 'INSUFFICIENT_BALANCE'],
  }),
};
