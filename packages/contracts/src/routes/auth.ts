import {
  changePasswordBody,
  loginBody,
  loginResponse,
  meResponse,
  okResponse,
  recoveryCodesResponse,
  secondFactorBody,
  twoFactorConfirmBody,
  twoFactorEnableBody,
  twoFactorSetupResponse,
  twoFactorStatusResponse,
} from '../auth';
import { routeSpec } from '../route-spec';

/** Routes of the auth module (see route-spec.ts): sign-in, the session, the password and two-factor sign-in. */
const common = { api: 'back-office', tags: ['Session'] } as const;

export const authRouteSpecs = {
  'POST /api/v1/login': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/login',
    operationId: 'signIn',
    summary: 'Sign in with a password',
    description:
      'Signs in with a password. A user with two-factor sign-in gets a challenge instead of a session: ' +
      'send it with the code to /api/v1/login/second-factor within 5 minutes.',
    access: 'public',
    body: loginBody,
    responses: { 200: loginResponse },
    // a wrong password; a disabled user; the user locked after 10 failures; the address over its failures; the
    // password hashing queue full; sent by another site's page
    errors: [
      'INVALID_CREDENTIALS',
      'FORBIDDEN',
      'ACCOUNT_LOCKED',
      'TOO_MANY_REQUESTS',
      'SERVICE_BUSY',
      'CSRF_REJECTED',
    ],
  }),
  'POST /api/v1/login/second-factor': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/login/second-factor',
    operationId: 'signInSecondFactor',
    summary: 'Complete sign-in with a second-factor code',
    description:
      'Second sign-in step: the challenge from /api/v1/login and a 6-digit code from the authenticator app or a ' +
      'recovery code. A wrong code counts as a failed sign-in attempt.',
    access: 'public',
    body: secondFactorBody,
    responses: { 200: okResponse },
    // an expired or voided challenge; a wrong or used code; a disabled user; the user or address locked out; sent
    // by another site's page
    errors: [
      'UNAUTHORIZED',
      'INVALID_CREDENTIALS',
      'FORBIDDEN',
      'ACCOUNT_LOCKED',
      'TOO_MANY_REQUESTS',
      'CSRF_REJECTED',
    ],
  }),
  'POST /api/v1/logout': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/logout',
    operationId: 'signOut',
    summary: 'Sign out',
    description:
      'Ends the session of the cookie sent (if any) and clears the cookie. Refused only when it did not come from ' +
      'this site’s own pages (a session cookie without a same-origin Origin or Sec-Fetch-Site header).',
    access: 'public',
    responses: { 200: okResponse },
    errors: ['CSRF_REJECTED'],
  }),
  'GET /api/v1/people/me': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/people/me',
    operationId: 'getCurrentUser',
    summary: 'Get the signed-in user',
    description:
      'Who is signed in: name, role, permissions, merchant, and whether a password change or a two-factor ' +
      'setup is due.',
    access: 'session',
    allowTemporaryPassword: true,
    allowBeforeTwoFactor: true,
    responses: { 200: meResponse },
  }),
  'POST /api/v1/user/change_password': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/user/change_password',
    operationId: 'changeOwnPassword',
    summary: 'Change your password',
    description:
      "Changes the signed-in user's password and ends its other sessions. A wrong current password counts " +
      'as a failed sign-in attempt.',
    access: 'session',
    allowTemporaryPassword: true,
    allowBeforeTwoFactor: true,
    body: changePasswordBody,
    responses: { 200: okResponse },
    errors: ['WRONG_PASSWORD', 'ACCOUNT_LOCKED', 'SERVICE_BUSY'],
  }),
  'GET /api/v1/user/two-factor': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/user/two-factor',
    operationId: 'getTwoFactorStatus',
    summary: 'Get your two-factor sign-in status',
    description: "The signed-in user's two-factor sign-in.",
    access: 'session',
    allowBeforeTwoFactor: true,
    responses: { 200: twoFactorStatusResponse },
  }),
  'POST /api/v1/user/two-factor/setup': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/user/two-factor/setup',
    operationId: 'startTwoFactorSetup',
    summary: 'Start setting up two-factor sign-in',
    description: 'Starts a setup: a new TOTP secret (and its otpauth:// URI for a QR code), confirmed by /enable.',
    access: 'session',
    allowBeforeTwoFactor: true,
    responses: { 200: twoFactorSetupResponse },
    // already on
    errors: ['CONFLICT'],
  }),
  'POST /api/v1/user/two-factor/enable': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/user/two-factor/enable',
    operationId: 'enableTwoFactor',
    summary: 'Turn two-factor sign-in on',
    description: "Confirms the setup with the app's current code; returns ten one-time recovery codes, once.",
    access: 'session',
    allowBeforeTwoFactor: true,
    body: twoFactorEnableBody,
    responses: { 200: recoveryCodesResponse },
    // already on; no setup started (INVALID_STATE); a code that does not match (VALIDATION_ERROR, derived)
    errors: ['CONFLICT', 'INVALID_STATE'],
  }),
  'POST /api/v1/user/two-factor/disable': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/user/two-factor/disable',
    operationId: 'disableTwoFactor',
    summary: 'Turn two-factor sign-in off',
    description:
      'Turns two-factor sign-in off (not where it is required); takes a current or recovery code. A wrong code ' +
      'counts as a failed sign-in attempt.',
    access: 'session',
    body: twoFactorConfirmBody,
    responses: { 200: okResponse },
    // not on; required (FORBIDDEN, derived); a wrong code (VALIDATION_ERROR, derived); the user or address locked out
    errors: ['INVALID_STATE', 'ACCOUNT_LOCKED', 'TOO_MANY_REQUESTS'],
  }),
  'POST /api/v1/user/two-factor/recovery-codes': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/user/two-factor/recovery-codes',
    operationId: 'renewRecoveryCodes',
    summary: 'Replace your recovery codes',
    description:
      'Replaces the recovery codes with ten new ones (shown once); takes a current or recovery code. A wrong code ' +
      'counts as a failed sign-in attempt.',
    access: 'session',
    body: twoFactorConfirmBody,
    responses: { 200: recoveryCodesResponse },
    errors: ['INVALID_STATE', 'ACCOUNT_LOCKED', 'TOO_MANY_REQUESTS'],
  }),
};
