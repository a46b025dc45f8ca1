import { merchantScopeQuery, uuidParam } from '../common';
import { okResponse } from '../auth';
import { routeSpec } from '../route-spec';
import { savedViewCreateBody, savedViewResponse, savedViewsResponse, savedViewUpdateBody } from '../saved-views';

const common = {
  api: 'back-office',
  tags: ['Saved views'],
  access: 'session',
  query: merchantScopeQuery.strict(),
} as const;

export const savedViewRouteSpecs = {
  'GET /api/v1/saved-views': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/saved-views',
    operationId: 'listSavedViews',
    summary: 'List saved views of the Transactions list',
    description: "The caller's own views on this merchant, then the ones their team shares, each by name.",
    responses: { 200: savedViewsResponse },
  }),
  'POST /api/v1/saved-views': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/saved-views',
    operationId: 'createSavedView',
    summary: 'Save a view',
    description: 'Keeps search, filters, terminal and page size under a name; private or shared with the team.',
    body: savedViewCreateBody,
    responses: { 201: savedViewResponse },
    errors: ['DUPLICATE', 'CONFLICT'],
  }),
  'PATCH /api/v1/saved-views/:id': routeSpec({
    ...common,
    method: 'PATCH',
    path: '/api/v1/saved-views/:id',
    operationId: 'updateSavedView',
    summary: 'Rename, share or change a saved view',
    description: 'Only the person who saved the view may change it.',
    params: uuidParam,
    body: savedViewUpdateBody,
    responses: { 200: savedViewResponse },
    errors: ['DUPLICATE'],
  }),
  'DELETE /api/v1/saved-views/:id': routeSpec({
    ...common,
    method: 'DELETE',
    path: '/api/v1/saved-views/:id',
    operationId: 'deleteSavedView',
    summary: 'Delete a saved view',
    description: 'Its owner may delete it; a team manager (users.manage) may also delete a shared one.',
    params: uuidParam,
    responses: { 200: okResponse },
  }),
};
