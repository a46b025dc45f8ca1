import { routeSpec } from '../route-spec';
import {
  roleCreateBody,
  roleListResponse,
  roleParams,
  roleResponse,
  roleUpdateBody,
  userCreateBody,
  userListQuery,
  userListResponse,
  userParams,
  userResponse,
  userRoleBody,
  userStatusBody,
  userWithPasswordResponse,
} from '../team';

/**
 * Routes of the users module (see route-spec.ts). Team management (users.manage): platform staff manage
 * everyone, a merchant's staff their own team.
 */
const common = { api: 'back-office', tags: ['Team'] } as const;
const manage = { all: ['users.manage'] } as const;
const platformManage = { all: ['users.manage'], platformOnly: true } as const;

export const userRouteSpecs = {
  'GET /api/v1/users': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/users',
    operationId: 'listUsers',
    summary: 'List users',
    description:
      "Platform staff see every user (optionally one merchant's, or the platform's own); a merchant's staff " +
      'see their own team.',
    access: manage,
    query: userListQuery,
    responses: { 200: userListResponse },
  }),
  'POST /api/v1/users': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/users',
    operationId: 'createUser',
    summary: 'Create a user',
    description:
      'Creates a user with a one-time password, returned this once; the user must change it at first sign-in.',
    access: manage,
    body: userCreateBody,
    responses: { 201: userWithPasswordResponse },
    // a role with permissions the caller lacks or another merchant (FORBIDDEN, derived); an unknown merchant or role,
    // a role of the wrong scope (VALIDATION_ERROR, derived); a username taken
    errors: ['DUPLICATE'],
  }),
  'PUT /api/v1/users/:id/role': routeSpec({
    ...common,
    method: 'PUT',
    path: '/api/v1/users/:id/role',
    operationId: 'changeUserRole',
    summary: "Change a user's role",
    description:
      'Applies on the next request. Nobody gives a role holding permissions it does not hold, nor changes its own ' +
      'role; the platform always keeps an admin who can manage users.',
    access: manage,
    params: userParams,
    body: userRoleBody,
    responses: { 200: userResponse },
    // the same role already; the last platform admin
    errors: ['CONFLICT'],
  }),
  'PUT /api/v1/users/:id/status': routeSpec({
    ...common,
    method: 'PUT',
    path: '/api/v1/users/:id/status',
    operationId: 'setUserStatus',
    summary: 'Disable or enable a user',
    description: 'Disables (ends every session at once) or enables a user.',
    access: manage,
    params: userParams,
    body: userStatusBody,
    responses: { 200: userResponse },
    // already so; the last platform admin
    errors: ['CONFLICT'],
  }),
  'POST /api/v1/users/:id/two-factor-reset': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/users/:id/two-factor-reset',
    operationId: 'resetUserTwoFactor',
    summary: "Reset a user's two-factor sign-in",
    description: "Platform admins only: removes the user's second factor and recovery codes and ends its sessions.",
    access: platformManage,
    params: userParams,
    responses: { 200: userResponse },
    // no second factor to reset
    errors: ['INVALID_STATE'],
  }),
  'POST /api/v1/users/:id/password-reset': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/users/:id/password-reset',
    operationId: 'resetUserPassword',
    summary: "Reset a user's password",
    description: "Sets a new one-time password (returned this once) and ends the user's sessions.",
    access: manage,
    params: userParams,
    responses: { 200: userWithPasswordResponse },
  }),
  'GET /api/v1/roles': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/roles',
    operationId: 'listRoles',
    summary: 'List roles',
    description:
      "Preset and custom roles with their permissions and user counts; a merchant's staff see merchant roles.",
    access: manage,
    responses: { 200: roleListResponse },
  }),
  'POST /api/v1/roles': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/roles',
    operationId: 'createRole',
    summary: 'Create a custom role',
    description: 'Platform admins only; a role cannot hold a permission its creator does not hold.',
    access: platformManage,
    body: roleCreateBody,
    responses: { 201: roleResponse },
    // a name taken
    errors: ['DUPLICATE'],
  }),
  'PUT /api/v1/roles/:id': routeSpec({
    ...common,
    method: 'PUT',
    path: '/api/v1/roles/:id',
    operationId: 'updateRole',
    summary: 'Change a custom role',
    description:
      'Platform admins only: name, description and permissions of a custom role (preset roles are fixed). ' +
      'Applies to its users on their next request.',
    access: platformManage,
    params: roleParams,
    body: roleUpdateBody,
    responses: { 200: roleResponse },
    // a preset role, the last platform admin (CONFLICT); a name taken
    errors: ['CONFLICT', 'DUPLICATE'],
  }),
};
