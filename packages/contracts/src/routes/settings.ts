import { merchantScopeQuery, settingBody, settingParams, settingResponse } from '../common';
import { routeSpec } from '../route-spec';

const common = {
  api: 'back-office',
  tags: ['Settings'],
  path: '/api/v1/settings/:setting',
  params: settingParams,
  query: merchantScopeQuery.strict(),
  responses: { 200: settingResponse },
} as const;

/** Routes of the settings module: settings of the caller's merchant (platform staff: the one picked with ?merchantId=). */
export const settingRouteSpecs = {
  'GET /api/v1/settings/:setting': routeSpec({
    ...common,
    method: 'GET',
    operationId: 'getSetting',
    summary: "Get a merchant's setting",
    description: 'One setting of the merchant, or its default when it was never set.',
    access: { all: ['settings.read'] },
  }),
  'POST /api/v1/settings/:setting': routeSpec({
    ...common,
    method: 'POST',
    operationId: 'setSetting',
    summary: "Change a merchant's setting",
    description: 'Sets one setting of the merchant; a change is recorded in the audit trail.',
    access: { all: ['settings.edit'] },
    body: settingBody,
  }),
};
