import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { RecoveryCodes, TwoFactorSetup, TwoFactorStatus } from '@paydesk/contracts/auth';
import { api } from '../../../lib/api';
import { meQueryKey } from '../../../lib/session';

const path = '/api/v1/user/two-factor';

/** The signed-in user's second factor: on or off, since when, recovery codes left, required or not. */
export const twoFactorStatusQuery = queryOptions({
  queryKey: ['two-factor', 'status'] as const,
  queryFn: ({ signal }) => api.get<{ data: TwoFactorStatus }>(path, { signal, scoped: false }).then((r) => r.data),
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
  useTwoFactorMutation(() =>
    api.post<{ data: TwoFactorSetup }>(`${path}/setup`, undefined, { scoped: false }).then((r) => r.data),
  );

/** Confirms the setup with the app's current code; the ten recovery codes come back this once. */
export const useEnableTwoFactor = () =>
  useTwoFactorMutation((code: string) =>
    api.post<{ data: RecoveryCodes }>(`${path}/enable`, { code }, { scoped: false }).then((r) => r.data.recoveryCodes),
  );

export const useDisableTwoFactor = () =>
  useTwoFactorMutation((code: string) => api.post(`${path}/disable`, { code }, { scoped: false }), true);

/** Ten new recovery codes (shown once); the old ones stop working. */
export const useRenewRecoveryCodes = () =>
  useTwoFactorMutation((code: string) =>
    api
      .post<{ data: RecoveryCodes }>(`${path}/recovery-codes`, { code }, { scoped: false })
      .then((r) => r.data.recoveryCodes),
  );
