import { routeSpec } from '../route-spec';
import {
  currencyListResponse,
  paymentMethodListResponse,
  plainScopedQuery,
  providerListResponse,
  referenceListResponse,
  referenceQuery,
  terminalPoolListResponse,
} from '../references';

const common = {
  api: 'back-office',
  tags: ['References'],
  access: 'session',
  method: 'GET',
} as const;

/** Routes of the references module (see route-spec.ts). */
export const referenceRouteSpecs = {
  'GET /api/v1/reference': routeSpec({
    ...common,
    path: '/api/v1/reference',
    operationId: 'listReferences',
    summary: 'List the entries of a reference list',
    description:
      'The codes and values of one reference list (genders, event types, statuses, bank names…) chosen by refHeaderId, in display order.',
    query: referenceQuery,
    responses: { 200: referenceListResponse },
  }),
  'GET /api/v1/reference/currency': routeSpec({
    ...common,
    path: '/api/v1/reference/currency',
    operationId: 'listCurrencies',
    summary: 'List currencies',
    description: 'Every currency with its code and dimension (the number of minor-unit digits).',
    query: plainScopedQuery,
    responses: { 200: currencyListResponse },
  }),
  'GET /api/v1/provider': routeSpec({
    ...common,
    path: '/api/v1/provider',
    operationId: 'listProviders',
    summary: 'List payment providers',
    query: plainScopedQuery,
    responses: { 200: providerListResponse },
  }),
  'GET /api/v1/payment-method': routeSpec({
    ...common,
    path: '/api/v1/payment-method',
    operationId: 'listPaymentMethods',
    summary: 'List payment methods',
    description: 'Every payment method with its currency, for choosing one when creating a provider account.',
    query: plainScopedQuery,
    responses: { 200: paymentMethodListResponse },
  }),
  'GET /api/v1/terminal/pool': routeSpec({
    ...common,
    path: '/api/v1/terminal/pool',
    operationId: 'listTerminalPools',
    summary: "List the merchant's terminal pools",
    description: 'The terminal pools of the merchant in scope, each with its member terminals.',
    query: plainScopedQuery,
    responses: { 200: terminalPoolListResponse },
  }),
};
