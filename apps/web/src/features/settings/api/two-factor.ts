import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api';
import { meQueryKey } from '../../../lib/session';

/** The signed-in user's second factor: on or off, since when, recovery codes left, required or not. */
export const twoFactorStatusQuery = queryOptions({
  queryKey: ['two-factor', 'status'] as const,
  queryFn: ({ signal }) => call('GET /api/v1/user/two-factor', { signal, scoped: false }).then((r) => r.data),
  refetchOnWindowFocus: false,
});

/**
 * Changes of the second factor refresh its status; me too when `refreshMe` (turning it off), otherwise whoever
 * decides when refreshes it (see the enrolment).
 */
function useTwoFactorMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>, refreshMe = false) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: twoFactorStatusQuery.queryKey, exact: true });
      if (refreshMe) await queryClient.invalidateQueries({ queryKey: meQueryKey, exact: true });
    },
  });
}

/** A new secret for the authenticator app, waiting for its first code; any earlier unconfirmed one is replaced. */
export const useStartTwoFactorSetup = () =>
  useTwoFactorMutation(() => call('POST /api/v1/user/two-factor/setup', { scoped: false }).then((r) => r.data));

/** Confirms the setup with the app's current code; the ten recovery codes come back this once. */
export const useEnableTwoFactor = () =>
  useTwoFactorMutation((code: string) =>
    call('POST /api/v1/user/two-factor/enable', { body: { code }, scoped: false }).then((r) => r.data.recoveryCodes),
  );

export const useDisableTwoFactor = () =>
  useTwoFactorMutation(
    (code: string) => call('POST /api/v1/user/two-factor/disable', { body: { code }, scoped: false }),
    true,
  );

/** Ten new recovery codes (shown once); the old ones stop working. */
export const useRenewRecoveryCodes = () =>
  useTwoFactorMutation((code: string) =>
    call('POST /api/v1/user/two-factor/recovery-codes', { body: { code }, scoped: false }).then(
      (r) => r.data.recoveryCodes,
    ),
  );
