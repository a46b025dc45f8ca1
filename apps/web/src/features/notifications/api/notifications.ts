import { useQuery, useQueryClient } from '@tanstack/react-query';
import { NOTIFICATIONS_REFRESH_MS, type NotificationItem } from '@paydesk/contracts/notifications';
import { call } from '../../../lib/api';
import { rememberedMerchantStore, scopedMerchantStore } from '../../../lib/merchant-scope';
import { notificationsKey, useSeesNotifications } from '../../../lib/notification-count';
import { isMerchantScopedQuery } from '../../../lib/query-client';
import { useCan } from '../../../lib/session';
import { selectedTerminalStore } from '../../../lib/terminals';

/** Every alert the user may see: In process, then Closed. */
export function useNotifications() {
  const enabled = useSeesNotifications();
  const list = useQuery({
    queryKey: [...notificationsKey, 'list'] as const,
    queryFn: ({ signal }) => call('GET /api/v1/notifications', { signal, scoped: false }),
    refetchInterval: NOTIFICATIONS_REFRESH_MS,
    enabled,
  });
  return { enabled, list };
}

/** The alert kinds whose link opens a merchant's own screen (monitoring, an invoice): those go to that merchant. */
const MERCHANT_SCREENS: ReadonlySet<NotificationItem['kind']> = new Set(['LOW_SUCCESS_RATE', 'CALLBACK_FAILED']);

/**
 * Before following an alert's link to a merchant's screen, a user who works on every merchant switches to the alert's
 * merchant, as the top bar's picker would (its cached screens belong to the previous one).
 */
export function useOpenForMerchant() {
  const queryClient = useQueryClient();
  const picks = useCan('merchant.rw.all');
  return (n: NotificationItem) => {
    if (!picks || !n.merchantId || !MERCHANT_SCREENS.has(n.kind) || scopedMerchantStore.get() === n.merchantId) return;
    rememberedMerchantStore.set(n.merchantId);
    scopedMerchantStore.set(n.merchantId);
    selectedTerminalStore.set('');
    void queryClient.resetQueries({ predicate: (q) => isMerchantScopedQuery(q.queryKey) });
  };
}
