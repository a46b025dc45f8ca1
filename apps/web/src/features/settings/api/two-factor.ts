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

/** Changes of the second factor refresh its status; me is refreshed by whoever decides when (see the enrolment). */
function useTwoFactorMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: twoFactorStatusQuery.queryKey, exact: true }),
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

export const useDisableTwoFactor = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => api.post(`${path}/disable`, { code }, { scoped: false }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: twoFactorStatusQuery.queryKey, exact: true });
      await queryClient.invalidateQueries({ queryKey: meQueryKey, exact: true });
    },
  });
};

/** Ten new recovery codes (shown once); the old ones stop working. */
export const useRenewRecoveryCodes = () =>
  useTwoFactorMutation((code: string) =>
    api
      .post<{ data: RecoveryCodes }>(`${path}/recovery-codes`, { code }, { scoped: false })
      .then((r) => r.data.recoveryCodes),
  );
