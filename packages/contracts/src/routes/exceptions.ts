import {
  contradictionListQuery,
  exceptionCsvQuery,
  exceptionSummaryResponse,
  stuckQuery,
  stuckResponse,
  contradictionListResponse,
  contradictionResolveBody,
  contradictionResolveResponse,
  incomingActionResponse,
  incomingDetailResponse,
  incomingMatchBody,
  incomingQueueQuery,
  incomingQueueResponse,
  incomingReturnBody,
  intParam,
  suspenseResponse,
} from '../exceptions';
import { uuidParam } from '../common';
import { approvalHeldResponse } from '../approvals';
import { routeSpec } from '../route-spec';

/** The operations desk's routes: the whole platform's exceptions, for platform staff only (see route-spec.ts). */
const common = { api: 'back-office', tags: ['Operations desk'] } as const;
const read = { all: ['exceptions.read'], platformOnly: true } as const;
const resolveIncoming = { all: ['exceptions.read', 'incoming.resolve'], platformOnly: true } as const;

export const exceptionRouteSpecs = {
  'GET /api/v1/exceptions/summary': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/exceptions/summary',
    operationId: 'getExceptionSummary',
    summary: 'The desk’s queues: how many, and the oldest',
    description:
      'Unmatched money, deposits waiting past "Have paid", payouts with a provider too long, invoices whose latest ' +
      'callback failed, open contradictions and accounts taken out of routing.',
    access: read,
    responses: { 200: exceptionSummaryResponse },
  }),
  'GET /api/v1/exceptions/stuck': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/exceptions/stuck',
    operationId: 'listStuckPayments',
    summary: 'Payments waiting too long',
    description:
      'PAYED: "Have paid" pressed over 30 minutes ago and no money reported; PAYOUT: a payout with the provider over ' +
      'an hour; CALLBACK: the latest callback failed after its retries. Oldest first, keyset pages.',
    access: read,
    query: stuckQuery,
    responses: { 200: stuckResponse },
  }),
  'GET /api/v1/exceptions/csv': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/exceptions/csv',
    operationId: 'exportExceptionQueue',
    summary: 'Download a queue as CSV',
    description:
      'What waits in one queue now, oldest first, streamed; amounts in major units of their currency. ' +
      '`paused`: the accounts out of routing with their health over the last 24 h, for staff who may also view ' +
      'provider accounts (`people.account`).',
    access: read,
    query: exceptionCsvQuery,
    responses: { 200: { file: 'text/csv', description: 'Exceptions-<queue>.csv: the queue, oldest first' } },
  }),
  'GET /api/v1/incoming': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/incoming',
    operationId: 'listIncomingMoney',
    summary: 'List money providers reported',
    description:
      'Every incoming payment of every provider, newest first, with keyset pages (`after` = the previous page’s ' +
      '`next`). `status=UNMATCHED` is the money no invoice took: it is on the books in suspense until staff match or ' +
      'return it.',
    access: read,
    query: incomingQueueQuery,
    responses: { 200: incomingQueueResponse },
  }),
  'GET /api/v1/incoming/:id': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/incoming/:id',
    operationId: 'getIncomingMoney',
    summary: 'An incoming payment with the deposits it may belong to',
    description:
      'Candidates are deposits of the same currency and book, ranked by the deposit a provider named, the account, ' +
      'the amount and the time.',
    access: read,
    params: uuidParam,
    responses: { 200: incomingDetailResponse },
  }),
  'POST /api/v1/incoming/:id/match': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/incoming/:id/match',
    operationId: 'matchIncomingMoney',
    summary: 'Match unmatched money to a deposit',
    description:
      'The deposit becomes DONE through the engine (an expired or cancelled one is reopened; another amount is ' +
      'corrected to what arrived), crediting the merchant from suspense. A deposit staff already set DONE takes the ' +
      'money as its confirmation: no second credit. Audited.',
    access: resolveIncoming,
    params: uuidParam,
    body: incomingMatchBody,
    responses: { 200: incomingActionResponse, 202: approvalHeldResponse },
    // INVALID_STATE: already matched or returned, or the deposit cannot take it; INSUFFICIENT_BALANCE never (credits)
    errors: ['INVALID_STATE'],
  }),
  'POST /api/v1/incoming/:id/return': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/incoming/:id/return',
    operationId: 'returnIncomingMoney',
    summary: 'Return unmatched money to the payer',
    description: 'Suspense goes out against the provider account, with the bank reference of the return. Audited.',
    access: resolveIncoming,
    params: uuidParam,
    body: incomingReturnBody,
    responses: { 200: incomingActionResponse, 202: approvalHeldResponse },
    errors: ['INVALID_STATE'],
  }),
  'GET /api/v1/ledger/suspense': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/ledger/suspense',
    operationId: 'getSuspense',
    summary: 'Money in suspense',
    description: 'Per currency and book: money that arrived and matched no invoice yet (minor units).',
    access: read,
    responses: { 200: suspenseResponse },
  }),
  'GET /api/v1/contradictions': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/contradictions',
    operationId: 'listContradictions',
    summary: 'Provider answers the books contradict',
    description:
      'A provider answered a transaction differently from what the books say (e.g. staff set a withdrawal DONE and ' +
      'the provider declined its payout). Newest first, keyset pages.',
    access: read,
    query: contradictionListQuery,
    responses: { 200: contradictionListResponse },
  }),
  'POST /api/v1/contradictions/:id/resolve': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/contradictions/:id/resolve',
    operationId: 'resolveContradiction',
    summary: 'Resolve a contradiction',
    description:
      'ACCEPT_PROVIDER moves the invoice to the provider’s answer through the engine (its ledger effect applied); ' +
      'KEEP_BOOKS records that staff keep the books as they are. Audited.',
    access: { all: ['exceptions.read', 'invoice.status.change'], platformOnly: true },
    params: intParam,
    body: contradictionResolveBody,
    responses: { 200: contradictionResolveResponse },
    errors: ['INVALID_STATE', 'INSUFFICIENT_BALANCE'],
  }),
};
