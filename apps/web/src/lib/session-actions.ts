import type { QueryClient } from '@tanstack/react-query';
import { clearUserSelections } from './persisted-store';
import { meQueryKey } from './session';

/**
 * Marks the session signed out: the current user becomes null first (the route guard then sends the
 * visitor to Login), then every other cached query and every per-user local selection is dropped so nothing of
 * this user remains.
 */
export function clearSession(queryClient: QueryClient) {
  clearUserSelections();
  void queryClient.cancelQueries();
  queryClient.setQueryData(meQueryKey, null);
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== meQueryKey[0] });
}

export const isSignedIn = (queryClient: QueryClient) => Boolean(queryClient.getQueryData(meQueryKey));
