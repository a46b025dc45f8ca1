import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Merchant, MerchantTwoFactorPolicyBody } from '@paydesk/contracts/merchants';
import { call } from '../../../lib/api';
import { merchantsQuery } from '../../../lib/merchant';
import { meQueryKey } from '../../../lib/session';

/**
 * Requires (or stops requiring) two-factor sign-in of everyone in a merchant's team. The merchant is named in
 * the path (platform staff pass the one they picked); the server's answer goes into the merchant caches (the list
 * and every cached current merchant) and the signed-in user is refreshed, since the caller may be one of the team
 * now required to set it up.
 */
export function useSetTwoFactorPolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ merchantId, requireTwoFactor }: MerchantTwoFactorPolicyBody & { merchantId: string }) =>
      call('PUT /api/v1/merchant/:id/two-factor-policy', {
        params: { id: merchantId },
        body: { requireTwoFactor },
        scoped: false,
      }).then((r) => r.data),
    onSuccess: async (merchant) => {
      const fresh = <M extends Merchant | undefined>(m: M) => (m?.id === merchant.id ? merchant : m);
      queryClient.setQueryData(merchantsQuery.queryKey, (list) => list && { ...list, data: list.data.map(fresh) });
      queryClient.setQueriesData<Merchant>({ queryKey: ['merchant', 'me'] }, fresh);
      await queryClient.invalidateQueries({ queryKey: meQueryKey, exact: true });
    },
  });
}
