import { z } from 'zod';
import { dataOf } from './common';

export const loginBody = z
  .object({
    username: z.string().trim().min(1, 'Username is required').max(100),
    password: z.string().min(1, 'Password is required').max(200),
  })
  .strict();
export type LoginBody = z.infer<typeof loginBody>;

export const PASSWORD_MIN = 8;
export const changePasswordBody = z
  .object({
    currentPassword: z.string().min(1, 'Current password is required').max(200),
    newPassword: z.string().min(PASSWORD_MIN, `New password must be at least ${PASSWORD_MIN} characters long`).max(200),
  })
  .strict();
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

/** The web form of Change password: the confirmation must equal the new password (SPEC §5). */
export const changePasswordForm = z
  .object({
    oldPassword: z.string().min(1, 'Old password is required'),
    newPassword: z
      .string()
      .min(1, 'New password is required')
      .min(PASSWORD_MIN, `New password must be at least ${PASSWORD_MIN} characters long`),
    confirmNewPassword: z.string().min(1, 'Confirmation is required'),
  })
  .refine((v) => v.newPassword === v.confirmNewPassword, {
    path: ['confirmNewPassword'],
    message: 'Passwords do not match',
  });
export type ChangePasswordForm = z.infer<typeof changePasswordForm>;

export const meSchema = z.object({
  id: z.uuid(),
  username: z.string(),
  /** the permissions this user really has (its role's, within its scope) */
  permissions: z.array(z.string()),
  personal: z.object({ firstName: z.string(), lastName: z.string() }),
  merchantId: z.uuid().nullable(),
  /** platform staff (no merchant) or a merchant's staff */
  scope: z.enum(['platform', 'merchant']),
  role: z.object({ id: z.int(), name: z.string() }),
  /** signed in with a one-time password: only Change password works until a new one is chosen */
  mustChangePassword: z.boolean(),
});
export type Me = z.infer<typeof meSchema>;
export const meResponse = dataOf(meSchema);

export const okResponse = dataOf(z.object({ ok: z.literal(true) }));
