import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { LoginBody, LoginResult, SecondFactorBody } from '@paydesk/contracts/auth';
import { call } from '../../../lib/api';
import { meQuery, meQueryKey } from '../../../lib/session';

/** The password was right and a code from the authenticator app (or a recovery code) comes next. */
export type SecondFactorChallenge = Extract<LoginResult, { ok: false }>;

/**
 * Drops anything cached from an earlier session and loads the current user; resolves to that user (null if the
 * browser did not keep the session cookie).
 */
async function startSession(queryClient: QueryClient) {
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== meQueryKey[0] });
  return queryClient.fetchQuery({ ...meQuery, staleTime: 0 });
}

/** Signs in with a password: either signed in (the user) or a second-factor challenge (no session yet). */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: LoginBody) => {
      const { data } = await call('POST /api/v1/login', { body, scoped: false, signOutOn401: false });
      if (!data.ok) return { step: 'second-factor' as const, challenge: data };
      return { step: 'signed-in' as const, me: await startSession(queryClient) };
    },
  });
}

/** The second step: the challenge with a 6-digit code or a recovery code; resolves to the signed-in user. */
export function useLoginSecondFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: SecondFactorBody) => {
      await call('POST /api/v1/login/second-factor', { body, scoped: false, signOutOn401: false });
      return startSession(queryClient);
    },
  });
}
