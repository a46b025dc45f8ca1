import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from './api';
import { clearSession } from './session-actions';

/** Log Out: the server revokes the session and deletes the jwt cookie; whatever it answers, this tab signs out. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call('POST /api/v1/logout', { scoped: false, signOutOn401: false }),
    onSettled: () => clearSession(queryClient),
  });
}
