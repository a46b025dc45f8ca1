import {
  approvalCountResponse,
  approvalListQuery,
  approvalListResponse,
  approvalPoliciesResponse,
  approvalPolicyBody,
  approvalPolicyParams,
  approvalPolicyResponse,
  approvalResponse,
  approveBody,
  rejectBody,
} from '../approvals';
import { uuidParam } from '../common';
import { routeSpec } from '../route-spec';

/**
 * Two-person control. Who may do what depends on the action of each policy or request (its permission, and for a
 * merchant's API key the merchant's own staff): checked in the service, so the routes ask for a session.
 */
const common = { api: 'back-office', tags: ['Approvals'] } as const;

export const approvalRouteSpecs = {
  'GET /api/v1/approval-policies': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/approval-policies',
    operationId: 'listApprovalPolicies',
    summary: 'Which actions need a second person',
    description:
      'Every action with its policy (off until someone turns it on): the platform’s, and for a merchant’s staff their ' +
      'merchant’s own policy on replacing its API key.',
    access: { all: ['users.manage'] },
    responses: { 200: approvalPoliciesResponse },
  }),
  'PUT /api/v1/approval-policies/:action': routeSpec({
    ...common,
    method: 'PUT',
    path: '/api/v1/approval-policies/:action',
    operationId: 'setApprovalPolicy',
    summary: 'Turn a policy on or off, with thresholds',
    description:
      'A threshold is in minor units per currency code: an action at or above it needs approval; a currency without ' +
      'one: every amount. Platform admins (users.manage) set the platform’s policies; a merchant owner (users.manage ' +
      'and merchant.key.edit) may require approval of its own API key replacement. Audited.',
    access: 'session',
    params: approvalPolicyParams,
    body: approvalPolicyBody,
    responses: { 200: approvalPolicyResponse },
  }),
  'GET /api/v1/approvals': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/approvals',
    operationId: 'listApprovals',
    summary: 'Approval requests',
    description:
      'Newest first, keyset pages (`after` = the previous answer’s `next`). Each person sees the requests of the ' +
      'actions they may carry out, and their own. Past their expiry (24 h) pending requests are EXPIRED.',
    access: 'session',
    query: approvalListQuery,
    responses: { 200: approvalListResponse },
  }),
  'GET /api/v1/approvals/count': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/approvals/count',
    operationId: 'countApprovals',
    summary: 'How many requests wait for me',
    description: 'Pending requests the caller may decide: the navigation’s count.',
    access: 'session',
    responses: { 200: approvalCountResponse },
  }),
  'GET /api/v1/approvals/:id': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/approvals/:id',
    operationId: 'getApproval',
    summary: 'One approval request',
    access: 'session',
    params: uuidParam,
    responses: { 200: approvalResponse },
  }),
  'POST /api/v1/approvals/:id/approve': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/approvals/:id/approve',
    operationId: 'approveRequest',
    summary: 'Approve: the action is carried out now',
    description:
      'By another person than the one who asked, holding the action’s permission. Every rule of the action is ' +
      'checked again against the state now: if the target moved, the approval is refused (409) with the rule’s ' +
      'message, which the request then shows. Audited; the maker is told.',
    access: 'session',
    params: uuidParam,
    body: approveBody,
    responses: { 200: approvalResponse },
    errors: ['INVALID_STATE'],
  }),
  'POST /api/v1/approvals/:id/reject': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/approvals/:id/reject',
    operationId: 'rejectRequest',
    summary: 'Reject, with a reason',
    access: 'session',
    params: uuidParam,
    body: rejectBody,
    responses: { 200: approvalResponse },
    errors: ['INVALID_STATE'],
  }),
};
