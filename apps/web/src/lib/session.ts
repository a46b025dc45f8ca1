import { createContext, use } from 'react';
import { queryOptions } from '@tanstack/react-query';
import type { Me } from '@paydesk/contracts/auth';
import { hasPermission, type Permission } from '@paydesk/contracts/permissions';
import { ApiError, call } from './api';
import { claimUserSelections } from './persisted-store';

export const meQueryKey = ['me'] as const;

/** The current user, or null when signed out: the session is "authorised" exactly when this call succeeds. */
export const meQuery = queryOptions({
  queryKey: meQueryKey,
  queryFn: async ({ signal }): Promise<Me | null> => {
    try {
      const res = await call('GET /api/v1/people/me', { signal, scoped: false, signOutOn401: false });
      // before any screen reads them: another user's remembered merchant or terminal is not this user's
      claimUserSelections(res.data.id);
      return res.data;
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) return null;
      throw e;
    }
  },
  staleTime: Infinity,
  gcTime: Infinity,
  refetchOnWindowFocus: false,
  // A 401 is answered above; give a transport or server hiccup two more tries before signing the user out.
  retry: (failureCount, error) =>
    !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failureCount < 2,
});

export const CurrentUserContext = createContext<Me | null>(null);

/** The signed-in user; only inside the signed-in layout. */
export function useCurrentUser(): Me {
  const me = use(CurrentUserContext);
  if (!me) throw new Error('useCurrentUser() is only available inside the signed-in layout');
  return me;
}

/** Whether the signed-in user holds a permission (the web only hides; the server enforces). */
export function useCan(permission: Permission): boolean {
  return hasPermission(useCurrentUser().permissions, permission);
}

export function usePermissions(): readonly string[] {
  return useCurrentUser().permissions;
}
