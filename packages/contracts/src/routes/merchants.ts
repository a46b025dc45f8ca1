import { merchantScopeQuery } from '../common';
import {
  merchantCreateBody,
  merchantListQuery,
  merchantListResponse,
  merchantParams,
  merchantPublicKeyBody,
  merchantResponse,
  merchantTwoFactorPolicyBody,
  merchantUpdateBody,
  webhookSecretResponse,
} from '../merchants';
import { plainScopedQuery } from '../references';
import { approvalHeldResponse } from '../approvals';
import { routeSpec } from '../route-spec';

const common = {
  api: 'back-office',
  tags: ['Merchants'],
} as const;

export const merchantRouteSpecs = {
  'GET /api/v1/merchant/me': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/merchant/me',
    operationId: 'getMerchant',
    summary: "Read the caller's merchant",
    description: 'The merchant the call works on: your own, or the one a platform user names with ?merchantId=.',
    access: { all: ['merchant.read'] },
    query: merchantScopeQuery.strict(),
    responses: { 200: merchantResponse },
  }),
  'GET /api/v1/merchant': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/merchant',
    operationId: 'listMerchants',
    summary: 'List all merchants',
    description: 'Every merchant, oldest first, a page at a time (platform staff).',
    access: { all: ['merchant.rw.all'] },
    query: merchantListQuery,
    responses: { 200: merchantListResponse },
  }),
  'PUT /api/v1/merchant/:id': routeSpec({
    ...common,
    method: 'PUT',
    path: '/api/v1/merchant/:id',
    operationId: 'renameMerchant',
    summary: 'Rename a merchant',
    description: 'Renames the merchant (needs merchant.read). Keys change through their own routes.',
    access: { all: ['merchant.read'] },
    params: merchantParams,
    query: plainScopedQuery,
    body: merchantUpdateBody,
    responses: { 200: merchantResponse },
  }),
  'PUT /api/v1/merchant/:id/public-key': routeSpec({
    ...common,
    method: 'PUT',
    path: '/api/v1/merchant/:id/public-key',
    operationId: 'replaceMerchantPublicKey',
    summary: "Replace the merchant's API public key",
    description:
      'Replaces the Ed25519 public key the merchant API verifies request signatures with. Requests signed ' +
      'with the old key are refused from then on.',
    access: { all: ['merchant.key.edit'] },
    params: merchantParams,
    query: plainScopedQuery,
    body: merchantPublicKeyBody,
    responses: { 200: merchantResponse, 202: approvalHeldResponse },
    // INVALID_STATE: it is already the merchant's key
    errors: ['INVALID_STATE'],
  }),
  'PUT /api/v1/merchant/:id/two-factor-policy': routeSpec({
    ...common,
    method: 'PUT',
    path: '/api/v1/merchant/:id/two-factor-policy',
    operationId: 'setMerchantTwoFactorPolicy',
    summary: 'Require or stop requiring two-factor sign-in',
    description: "Requires (or stops requiring) two-factor sign-in of every user of the merchant's team.",
    access: { all: ['users.manage'] },
    params: merchantParams,
    query: plainScopedQuery,
    body: merchantTwoFactorPolicyBody,
    responses: { 200: merchantResponse },
    // INVALID_STATE: the policy is already the one asked for
    errors: ['INVALID_STATE'],
  }),
  'POST /api/v1/merchant/:id/webhook-secret': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/merchant/:id/webhook-secret',
    operationId: 'rotateMerchantWebhookSecret',
    summary: 'Rotate the webhook secret',
    description:
      'Rotates the webhook secret. The new secret is returned this once; the previous one keeps signing callbacks beside it for 24 h.',
    access: { all: ['merchant.key.edit'] },
    params: merchantParams,
    query: plainScopedQuery,
    responses: { 200: webhookSecretResponse },
  }),
  'POST /api/v1/merchant': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/merchant',
    operationId: 'createMerchant',
    summary: 'Create a merchant',
    description: 'A new merchant with its own webhook secret; it can sign API calls once a public key is set.',
    access: { all: ['merchant.rw.all'] },
    query: plainScopedQuery,
    body: merchantCreateBody,
    responses: { 201: merchantResponse },
  }),
};
