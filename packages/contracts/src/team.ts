import { z } from 'zod';
import { dataOf } from './common';
import { PASSWORD_MIN } from './auth';
import { dbIdParam } from './references';
import { PERMISSIONS, ROLE_SCOPES, permissionsFitScope } from './permissions';

/* ---- Roles: named permission sets with a scope (docs/architecture.md, "Who is who") ---- */

const roleSchema = z.object({
  id: z.int(),
  /** preset roles have a code and cannot be edited */
  code: z.string().nullable(),
  name: z.string(),
  scope: z.enum(ROLE_SCOPES),
  description: z.string(),
  permissions: z.array(z.enum(PERMISSIONS)),
  preset: z.boolean(),
  userCount: z.int(),
  /** the caller holds every permission of this role, so it may give it to a user of its scope */
  assignable: z.boolean(),
});
export type Role = z.infer<typeof roleSchema>;
export const roleListResponse = dataOf(z.array(roleSchema));
export const roleResponse = dataOf(roleSchema);
export const roleParams = z.object({ id: dbIdParam('Role id must be a positive number') }).strict();

const roleName = z
  .string({ error: 'Name is required' })
  .trim()
  .min(3, 'Name must be at least 3 characters long')
  .max(60, 'Name must be at most 60 characters long');
const permissionList = z
  .array(z.enum(PERMISSIONS, { error: 'Unknown permission' }))
  .max(PERMISSIONS.length)
  .refine((ps) => new Set(ps).size === ps.length, 'A permission is listed twice');
const description = z.string().trim().max(300, 'Description must be at most 300 characters long').default('');

const PLATFORM_IN_MERCHANT_ROLE = 'A merchant role cannot hold platform permissions';

export const roleCreateBody = z
  .object({ name: roleName, scope: z.enum(ROLE_SCOPES), description, permissions: permissionList })
  .strict()
  .refine((b) => permissionsFitScope(b.permissions, b.scope), {
    path: ['permissions'],
    message: PLATFORM_IN_MERCHANT_ROLE,
  });
export type RoleCreateBody = z.infer<typeof roleCreateBody>;

/** A role's scope never changes (users hold it by scope); name, description and permissions do. */
export const roleUpdateBody = z.object({ name: roleName, description, permissions: permissionList }).strict();
export type RoleUpdateBody = z.infer<typeof roleUpdateBody>;

/* ---- Team: staff users ---- */

const USERNAME_MESSAGE = 'Username: 3–40 letters, digits, dots, dashes or underscores';
const usernameSchema = z
  .string({ error: 'Username is required' })
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9._-]{2,39}$/, USERNAME_MESSAGE);
const hasNoControlCharacters = (s: string) => [...s].every((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f);
const personName = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(60, `${label} must be at most 60 characters long`)
    .refine(hasNoControlCharacters, `${label} contains control characters`);

const teamUserSchema = z.object({
  id: z.uuid(),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  merchantId: z.uuid().nullable(),
  merchantName: z.string().nullable(),
  scope: z.enum(ROLE_SCOPES),
  role: z.object({ id: z.int(), name: z.string() }),
  disabled: z.boolean(),
  mustChangePassword: z.boolean(),
  twoFactorEnabled: z.boolean(),
  lastSignInAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});
export type TeamUser = z.infer<typeof teamUserSchema>;

/** Platform staff filter by merchant ('platform' = staff with no merchant); merchant staff always get their own team. */
export const userListQuery = z
  .object({
    merchant: z
      .union([z.literal('platform'), z.uuid({ error: 'merchant must be a merchant id or "platform"' })])
      .optional(),
    search: z.string().trim().max(100).optional(),
  })
  .strict();
export type UserListQuery = z.infer<typeof userListQuery>;
export const userListResponse = dataOf(z.array(teamUserSchema));
export const userParams = z.object({ id: z.uuid({ error: 'User id must be a UUID' }) }).strict();

export const userCreateBody = z
  .object({
    username: usernameSchema,
    firstName: personName('First name'),
    lastName: personName('Last name'),
    roleId: z.int({ error: 'Role is required' }).positive('Role is required'),
    /** platform staff create either kind (null = platform staff); merchant staff only for their own merchant */
    merchantId: z.uuid().nullable().optional(),
  })
  .strict();
export type UserCreateBody = z.infer<typeof userCreateBody>;

/** A one-time password comes back exactly once; the user must replace it at first sign-in. */
export const userWithPasswordResponse = dataOf(
  z.object({ user: teamUserSchema, temporaryPassword: z.string().min(PASSWORD_MIN) }),
);
export type UserWithPassword = z.infer<typeof userWithPasswordResponse>['data'];
export const userResponse = dataOf(teamUserSchema);
export const userRoleBody = z
  .object({ roleId: z.int({ error: 'Role is required' }).positive('Role is required') })
  .strict();
export const userStatusBody = z.object({ disabled: z.boolean() }).strict();
