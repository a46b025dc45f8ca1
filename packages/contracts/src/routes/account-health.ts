import {
  accountHealthResponse,
  accountPauseBody,
  accountPauseParams,
  accountPauseResponse,
  accountPauseRuleBody,
  accountPauseRuleResponse,
} from '../account-health';
import { routeSpec } from '../route-spec';

/** Provider accounts' health and their pause (provider accounts belong to the platform: platform permissions). */
const common = { api: 'back-office', tags: ['Provider accounts'] } as const;
const edit = { all: ['people.account', 'people.account.edit'] } as const;

export const accountHealthRouteSpecs = {
  'GET /api/v1/people/account/health': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/people/account/health',
    operationId: 'getAccountHealth',
    summary: "Provider accounts' health",
    description:
      'Per account: deposits given its requisites in the last 24 h and how many were paid, when money last arrived, ' +
      'and whether it is paused (out of routing), why and by whom.',
    access: { all: ['people.account'] },
    responses: { 200: accountHealthResponse },
  }),
  'POST /api/v1/people/account/:id/pause': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/people/account/:id/pause',
    operationId: 'pauseAccount',
    summary: 'Take an account out of routing',
    description: 'Routing gives its requisites to no deposit until it is resumed. Audited with the reason.',
    access: edit,
    params: accountPauseParams,
    body: accountPauseBody,
    responses: { 200: accountPauseResponse },
    errors: ['INVALID_STATE'],
  }),
  'POST /api/v1/people/account/:id/resume': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/people/account/:id/resume',
    operationId: 'resumeAccount',
    summary: 'Give a paused account back to routing',
    description:
      'The health check then judges only the deposits given after this moment. Audited with the reason (what was fixed).',
    access: edit,
    params: accountPauseParams,
    body: accountPauseBody,
    responses: { 200: accountPauseResponse },
    errors: ['INVALID_STATE'],
  }),
  'GET /api/v1/people/account/pause-rule': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/people/account/pause-rule',
    operationId: 'getAccountPauseRule',
    summary: 'When an account pauses itself',
    description:
      'The health check takes an account out of routing when none of the last `pauseAfter` deposits given its ' +
      'requisites was paid, each given at least `windowMinutes` ago. `pauseAfter` 0: it never does. ' +
      '`updatedAt` null: the installation default applies.',
    access: { all: ['people.account'] },
    responses: { 200: accountPauseRuleResponse },
  }),
  'PUT /api/v1/people/account/pause-rule': routeSpec({
    ...common,
    method: 'PUT',
    path: '/api/v1/people/account/pause-rule',
    operationId: 'setAccountPauseRule',
    summary: 'Change when an account pauses itself',
    description: 'Applies from the health check’s next pass. Audited with the rule before and after and the reason.',
    access: edit,
    body: accountPauseRuleBody,
    responses: { 200: accountPauseRuleResponse },
  }),
};
