import { queryOptions, useQuery } from '@tanstack/react-query';
import { NOTIFICATIONS_REFRESH_MS, visibleNotificationKinds } from '@paydesk/contracts/notifications';
import { call } from './api';
import { useCurrentUser } from './session';

/** The alerts a user may see (not the picked merchant's: the server decides whose), read again every minute. */
export const notificationsKey = ['notifications'] as const;

/** Only what holds now: the bell's count (the server reads no resolved alerts for it). */
const inProcessNotificationsQuery = queryOptions({
  queryKey: [...notificationsKey, 'in-process'] as const,
  queryFn: ({ signal }) =>
    call('GET /api/v1/notifications', { signal, scoped: false, query: { status: 'IN_PROCESS' } }),
  refetchInterval: NOTIFICATIONS_REFRESH_MS,
  staleTime: 10_000,
});

/** Whether this user's permissions show any kind of alert at all (else there is nothing to ask the server). */
export function useSeesNotifications(): boolean {
  const me = useCurrentUser();
  return !me.mustChangePassword && visibleNotificationKinds(me.permissions, me.scope).length > 0;
}

/** How many alerts are In process for this user; undefined while unknown or when the user may see none. */
export function useNotificationCount(): number | undefined {
  const enabled = useSeesNotifications();
  const { data } = useQuery({ ...inProcessNotificationsQuery, enabled });
  return enabled ? data?.inProcess : undefined;
}
