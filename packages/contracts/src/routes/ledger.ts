import { balanceQuery, balanceResponse, reconciliationResponse } from '../engine';
import { routeSpec } from '../route-spec';

const common = {
  api: 'back-office',
  tags: ['Ledger'],
  method: 'GET',
} as const;

const sums = {
  ...common,
  access: { all: ['merchant.read.finance'] },
  query: balanceQuery,
  responses: { 200: balanceResponse },
} as const;

/** Routes of the ledger module (see route-spec.ts). */
export const ledgerRouteSpecs = {
  'GET /api/v1/ledger/reconciliation': routeSpec({
    ...common,
    path: '/api/v1/ledger/reconciliation',
    operationId: 'reconcileLedger',
    summary: 'Reconcile the ledger',
    description:
      'Proves the books now: balance rows equal their entries and every book sums to zero. The whole platform: platform staff only.',
    // the whole platform's books: platform staff who monitor
    access: { all: ['data.terminal.statistic'], platformOnly: true },
    responses: { 200: reconciliationResponse },
  }),
  'GET /api/v1/merchant/balance': routeSpec({
    ...sums,
    path: '/api/v1/merchant/balance',
    operationId: 'getMerchantBalance',
    summary: "Get the merchant's balance",
    description:
      "Merchant balance from the ledger, per currency of its terminals, in the live or test book (the terminal's currency when terminalId is given).",
  }),
  'GET /api/v1/merchant/deposit': routeSpec({
    ...sums,
    path: '/api/v1/merchant/deposit',
    operationId: 'getMerchantDepositSum',
    summary: 'Get the sum credited by DONE deposits',
    description: 'Sum credited by DONE deposits, per currency, in the live or test book (optionally one terminal).',
  }),
  'GET /api/v1/merchant/withdrawal': routeSpec({
    ...sums,
    path: '/api/v1/merchant/withdrawal',
    operationId: 'getMerchantWithdrawalSum',
    summary: 'Get the sum paid out by DONE withdrawals',
    description: 'Sum paid out by DONE withdrawals, per currency, in the live or test book (optionally one terminal).',
  }),
};
