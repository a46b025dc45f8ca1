import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginBody } from '@paydesk/contracts';
import { api } from '../../../lib/api';
import { meQuery, meQueryKey } from '../../../lib/session';

/**
 * Signs in, drops anything cached from an earlier session and loads the current user; resolves to that
 * user (null if the browser did not keep the session cookie).
 */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: LoginBody) => {
      await api.post('/api/v1/login', body, { scoped: false, signOutOn401: false });
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== meQueryKey[0] });
      return queryClient.fetchQuery({ ...meQuery, staleTime: 0 });
    },
  });
}
