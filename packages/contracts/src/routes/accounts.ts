import {
  accountCreateBody,
  accountCreateResponse,
  accountDetailsResponse,
  accountEnabledBody,
  accountEnabledResponse,
  accountLimitBody,
  accountLimitResponse,
  accountListResponse,
  accountParams,
  credentialCreateBody,
  credentialParams,
  credentialResponse,
  credentialUpdateBody,
  credentialRevealResponse,
} from '../accounts';
import { okResponse } from '../auth';
import { plainScopedQuery } from '../references';
import { approvalHeldResponse } from '../approvals';
import { routeSpec } from '../route-spec';

/** Provider accounts are not merchant-owned: people.account reads, people.account.edit changes. */
const common = {
  api: 'back-office',
  tags: ['Provider accounts'],
  query: plainScopedQuery,
} as const;
const read = { all: ['people.account'] } as const;
const edit = { all: ['people.account', 'people.account.edit'] } as const;

/** Routes of the accounts module (see route-spec.ts). */
export const accountRouteSpecs = {
  'GET /api/v1/people/account': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/people/account',
    operationId: 'listProviderAccounts',
    summary: 'List provider accounts',
    description: 'Every provider account (they serve all merchants) with its provider, bank, method and currency.',
    access: read,
    responses: { 200: accountListResponse },
  }),
  'GET /api/v1/people/account/:id': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/people/account/:id',
    operationId: 'getProviderAccount',
    summary: 'Get a provider account',
    description:
      'The account with its credentials, masked for everyone; the full value only through the audited reveal.',
    access: read,
    params: accountParams,
    responses: { 200: accountDetailsResponse },
  }),
  'PATCH /api/v1/people/account/:id': routeSpec({
    ...common,
    method: 'PATCH',
    path: '/api/v1/people/account/:id',
    operationId: 'setProviderAccountEnabled',
    summary: 'Enable or disable a provider account',
    access: edit,
    params: accountParams,
    body: accountEnabledBody,
    responses: { 200: accountEnabledResponse },
  }),
  'POST /api/v1/people/create': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/people/create',
    operationId: 'createProviderAccount',
    summary: 'Create a provider account',
    description: 'A new account starts enabled with a limit of 0: it takes no deposits until a limit is set.',
    access: edit,
    body: accountCreateBody,
    responses: { 201: accountCreateResponse },
  }),
  'POST /api/v1/people/account/credentials': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/people/account/credentials',
    operationId: 'addProviderAccountCredential',
    summary: 'Add a credential to a provider account',
    description: 'A card or phone number customers pay to; the value is checked and normalised by its type.',
    access: edit,
    body: credentialCreateBody,
    responses: { 201: credentialResponse, 202: approvalHeldResponse },
    errors: ['INVALID_STATE'],
  }),
  'PUT /api/v1/people/account/credentials/:credentialId': routeSpec({
    ...common,
    method: 'PUT',
    path: '/api/v1/people/account/credentials/:credentialId',
    operationId: 'updateProviderAccountCredential',
    summary: "Change a provider account credential's value",
    access: edit,
    params: credentialParams,
    body: credentialUpdateBody,
    responses: { 200: credentialResponse, 202: approvalHeldResponse },
    errors: ['INVALID_STATE'],
  }),
  'POST /api/v1/people/account/credentials/:credentialId/reveal': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/people/account/credentials/:credentialId/reveal',
    operationId: 'revealProviderAccountCredential',
    summary: "Show a provider account credential's full value",
    description:
      'Every other answer masks it. Each call writes an audit record (credentials.revealed); at most 30 an hour per ' +
      'person (429).',
    access: { all: ['people.account', 'invoice.credentials.read'] },
    params: credentialParams,
    responses: { 200: credentialRevealResponse },
    errors: ['TOO_MANY_REQUESTS'],
  }),
  'DELETE /api/v1/people/account/credentials/:credentialId': routeSpec({
    ...common,
    method: 'DELETE',
    path: '/api/v1/people/account/credentials/:credentialId',
    operationId: 'deleteProviderAccountCredential',
    summary: 'Remove a provider account credential',
    access: edit,
    params: credentialParams,
    responses: { 200: okResponse, 202: approvalHeldResponse },
    errors: ['INVALID_STATE'],
  }),
  'GET /api/router/v1/people/account/limit/:id': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/router/v1/people/account/limit/:id',
    operationId: 'getProviderAccountLimit',
    summary: "Get a provider account's limit and balance",
    description: 'The routing limit, priority and unique-amount check of the account, with its ledger balance.',
    access: read,
    params: accountParams,
    responses: { 200: accountLimitResponse },
  }),
  'PUT /api/router/v1/people/account/limit/:id': routeSpec({
    ...common,
    method: 'PUT',
    path: '/api/router/v1/people/account/limit/:id',
    operationId: 'setProviderAccountLimit',
    summary: "Set a provider account's routing limit",
    description:
      'Sets limit, priority and the unique-amount check; peopleAccountId must match the path. A lowered limit may mark the account over limit.',
    access: edit,
    params: accountParams,
    body: accountLimitBody,
    responses: { 200: accountLimitResponse, 202: approvalHeldResponse },
    errors: ['INVALID_STATE'],
  }),
};
