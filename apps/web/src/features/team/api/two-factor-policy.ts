import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Merchant } from '@paydesk/contracts/merchants';
import { api } from '../../../lib/api';
import { currentMerchantQuery, merchantsQuery } from '../../../lib/merchant';
import { meQueryKey } from '../../../lib/session';

/**
 * Requires (or stops requiring) two-factor sign-in of everyone in a merchant's team. The merchant is named in
 * the path (platform staff pass the one they picked); the merchant caches and the signed-in user are refreshed,
 * since the caller may be one of the team now required to set it up.
 */
export function useSetTwoFactorPolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ merchantId, requireTwoFactor }: { merchantId: string; requireTwoFactor: boolean }) =>
      api
        .put<{ data: Merchant }>(
          `/api/v1/merchant/${merchantId}/two-factor-policy`,
          { requireTwoFactor },
          {
            scoped: false,
          },
        )
        .then((r) => r.data),
    onSuccess: async (merchant) => {
      queryClient.setQueryData(merchantsQuery.queryKey, (list) =>
        list ? { ...list, data: list.data.map((m) => (m.id === merchant.id ? merchant : m)) } : list,
      );
      queryClient.setQueryData(currentMerchantQuery(null).queryKey, (m) => (m?.id === merchant.id ? merchant : m));
      await queryClient.invalidateQueries({ queryKey: ['merchant'] });
      await queryClient.invalidateQueries({ queryKey: meQueryKey, exact: true });
    },
  });
}
