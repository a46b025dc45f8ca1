import { okResponse } from '../auth';
import { merchantScopeQuery } from '../common';
import { plainScopedQuery } from '../references';
import { routeSpec } from '../route-spec';
import {
  merchantTerminalParams,
  terminalAttributeDeleteQuery,
  terminalCreateBody,
  terminalDetailsResponse,
  terminalListResponse,
  terminalParams,
  terminalPatchBody,
  terminalPutBody,
  testDashboardBody,
  testDashboardResponse,
} from '../terminals';

const common = {
  api: 'back-office',
  tags: ['Terminals'],
} as const;

/** Routes of the terminals module (see route-spec.ts). */
export const terminalRouteSpecs = {
  'GET /api/v1/terminal': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/terminal',
    operationId: 'listTerminals',
    summary: "List the merchant's terminals",
    description: 'Every terminal of the merchant in scope, oldest first, with its flow, currency and mode.',
    access: 'session',
    query: merchantScopeQuery.strict(),
    responses: { 200: terminalListResponse },
  }),
  'GET /api/v1/terminal/:id': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/terminal/:id',
    operationId: 'getTerminal',
    summary: 'Get a terminal',
    description:
      "The terminal's details; its attributes and fee are included only for callers holding terminal.attr.read.",
    access: 'session',
    params: terminalParams,
    query: plainScopedQuery,
    responses: { 200: terminalDetailsResponse },
  }),
  'PATCH /api/v1/terminal/:id': routeSpec({
    ...common,
    method: 'PATCH',
    path: '/api/v1/terminal/:id',
    operationId: 'updateTerminal',
    summary: 'Rename a terminal or change its settings',
    description:
      'Rename (terminal.create) and/or upsert attributes by type and set the fee (terminal.attr.read); the callback URL needs merchant.callback.edit.',
    access: 'session',
    params: terminalParams,
    query: plainScopedQuery,
    body: terminalPatchBody,
    responses: { 200: terminalDetailsResponse },
  }),
  'PUT /api/v1/terminal/:id': routeSpec({
    ...common,
    method: 'PUT',
    path: '/api/v1/terminal/:id',
    operationId: 'replaceTerminal',
    summary: "Replace a terminal's name and attributes",
    description:
      'Name and the full attribute set (replaces the stored set). Needs terminal.create and terminal.attr.read.',
    access: { all: ['terminal.create', 'terminal.attr.read'] },
    params: terminalParams,
    query: plainScopedQuery,
    body: terminalPutBody,
    responses: { 200: terminalDetailsResponse },
  }),
  'DELETE /api/v1/terminal/:id': routeSpec({
    ...common,
    method: 'DELETE',
    path: '/api/v1/terminal/:id',
    operationId: 'deleteTerminalAttribute',
    summary: 'Remove an attribute of a terminal',
    description: 'Removes one attribute (by attributeId) of the terminal; the terminal itself stays.',
    access: { all: ['terminal.attr.read'] },
    params: terminalParams,
    query: terminalAttributeDeleteQuery,
    responses: { 200: okResponse },
  }),
  'POST /api/v1/merchant/:merchantId/terminal': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/merchant/:merchantId/terminal',
    operationId: 'createTerminal',
    summary: 'Create a terminal',
    description:
      "A new terminal starts in test mode and offers every payment method of its currency. The merchant must be the caller's own (merchant.rw.all may name any).",
    access: { all: ['terminal.create'] },
    params: merchantTerminalParams,
    query: plainScopedQuery,
    body: terminalCreateBody,
    responses: { 201: terminalDetailsResponse },
  }),
  'PATCH /api/v1/people/me/testDashboard': routeSpec({
    ...common,
    method: 'PATCH',
    path: '/api/v1/people/me/testDashboard',
    operationId: 'switchTerminalToProduction',
    summary: 'Switch a test terminal to production',
    description: 'Switches a test terminal to production (not reversible here). 409 when it already is.',
    access: { all: ['terminal.prod.change'] },
    query: plainScopedQuery,
    body: testDashboardBody,
    responses: { 200: testDashboardResponse },
    errors: ['INVALID_STATE'],
  }),
};
