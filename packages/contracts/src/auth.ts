import { z } from 'zod';
import { dataOf } from './common';

export const loginBody = z
  .object({
    username: z.string().trim().min(1, 'Username is required').max(100),
    password: z.string().min(1, 'Password is required').max(200),
  })
  .strict();
export type LoginBody = z.infer<typeof loginBody>;

/** NIST SP 800-63B: length is what counts (no composition rules); the server also refuses common passwords. */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 200;
/**
 * The rule as people read it, wherever a password is chosen, before they submit (the server's checks: the length,
 * and no common, leaked or guessable password).
 */
export const PASSWORD_RULE_TEXT = `At least ${PASSWORD_MIN} characters; a few unrelated words work well. Common passwords and ones built from your name are refused.`;
export const changePasswordBody = z
  .object({
    currentPassword: z.string().min(1, 'Current password is required').max(200),
    newPassword: z
      .string()
      .min(PASSWORD_MIN, `New password must be at least ${PASSWORD_MIN} characters long`)
      .max(PASSWORD_MAX, `New password must be at most ${PASSWORD_MAX} characters long`),
  })
  .strict();
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

/** The web form of Change password: the confirmation must equal the new password. */
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
  /** two-factor sign-in is required for this user but not set up: only the setup works until it is */
  mustSetUpTwoFactor: z.boolean(),
  twoFactor: z.object({ enabled: z.boolean(), required: z.boolean() }),
});
export type Me = z.infer<typeof meSchema>;
export const meResponse = dataOf(meSchema);

export const okResponse = dataOf(z.object({ ok: z.literal(true) }));

/**
 * Sign-in answers either "signed in" (the session cookie is set) or "second factor needed": the password was
 * right, and a short-lived challenge goes with the code to `POST /api/v1/login/second-factor`.
 */
export const loginResponse = dataOf(
  z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true) }),
    z.object({
      ok: z.literal(false),
      secondFactor: z.literal('totp'),
      challenge: z.string(),
      expiresAt: z.iso.datetime(),
    }),
  ]),
);
export type LoginResult = z.infer<typeof loginResponse>['data'];

/** A 6-digit code from the authenticator app, or one of the ten recovery codes (xxxxx-xxxxx). */
export const secondFactorCode = z
  .string()
  .trim()
  .min(1, 'Enter the code')
  .max(40)
  .transform((v) => v.replace(/[\s-]/g, '').toLowerCase())
  .refine((v) => /^\d{6}$/.test(v) || /^[a-z2-7]{10}$/.test(v), {
    message: 'Enter the 6-digit code from your app or a recovery code',
  });
export const secondFactorBody = z.object({ challenge: z.string().min(1).max(2000), code: secondFactorCode }).strict();
export type SecondFactorBody = z.input<typeof secondFactorBody>;

export const totpCode = z
  .string()
  .trim()
  .transform((v) => v.replace(/\s/g, ''))
  .refine((v) => /^\d{6}$/.test(v), { message: 'Enter the 6-digit code from your app' });

export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  enabledAt: z.iso.datetime().nullable(),
  /** required by the platform (platform staff) or by the user's merchant */
  required: z.boolean(),
  recoveryCodesLeft: z.int(),
  /** a setup was started and waits for its first code */
  pending: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;
export const twoFactorStatusResponse = dataOf(twoFactorStatusSchema);

/** The secret of a new setup, once: as text (typed into an app) and as the otpauth:// URI its QR code carries. */
export const twoFactorSetupResponse = dataOf(z.object({ secret: z.string(), otpauthUri: z.string() }));
export type TwoFactorSetup = z.infer<typeof twoFactorSetupResponse>['data'];

export const twoFactorEnableBody = z.object({ code: totpCode }).strict();
/** Turning the second factor off or renewing recovery codes takes a current code (or a recovery code). */
export const twoFactorConfirmBody = z.object({ code: secondFactorCode }).strict();

/** Ten one-time recovery codes, shown exactly once. */
export const recoveryCodesResponse = dataOf(z.object({ recoveryCodes: z.array(z.string()) }));
export type RecoveryCodes = z.infer<typeof recoveryCodesResponse>['data'];
