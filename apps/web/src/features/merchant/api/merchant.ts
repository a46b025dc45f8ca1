import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  MerchantCreateBody,
  MerchantPublicKeyBody,
  MerchantUpdateBody,
  RotatedWebhookSecret,
} from '@paydesk/contracts';
import { call } from '../../../lib/api';
import { currentMerchantQuery, merchantsQuery } from '../../../lib/merchant';
import { rememberedMerchantStore, scopedMerchantStore, getScopedMerchantId } from '../../../lib/merchant-scope';
import { useStore } from '../../../lib/persisted-store';
import { isMerchantScopedQuery } from '../../../lib/query-client';
import { selectedTerminalStore } from '../../../lib/terminals';

export function useCurrentMerchant() {
  return useQuery(currentMerchantQuery(useStore(scopedMerchantStore)));
}

/** PUT the name, then the current merchant (and the picker's list) are refetched. */
export function useUpdateMerchant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: string; body: MerchantUpdateBody }) =>
      call('PUT /api/v1/merchant/:id', { params: { id: v.id }, body: v.body }).then((r) => r.data),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: currentMerchantQuery(getScopedMerchantId()).queryKey });
      await queryClient.invalidateQueries({ queryKey: merchantsQuery.queryKey });
    },
  });
}

const refetchCurrentMerchant = (queryClient: ReturnType<typeof useQueryClient>) =>
  queryClient.invalidateQueries({ queryKey: currentMerchantQuery(getScopedMerchantId()).queryKey });

/** merchant.key.edit: the Ed25519 key the merchant API checks signatures with, from the next request on. */
export function useReplacePublicKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: string; body: MerchantPublicKeyBody }) =>
      call('PUT /api/v1/merchant/:id/public-key', { params: { id: v.id }, body: v.body }).then((r) => r.data),
    onSuccess: () => refetchCurrentMerchant(queryClient),
  });
}

export type { RotatedWebhookSecret };

/** merchant.key.edit: a new webhook secret, returned this once; the old one signs too until previousValidUntil. */
export function useRotateWebhookSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      call('POST /api/v1/merchant/:id/webhook-secret', { params: { id } }).then((r) => r.data),
    onSuccess: () => refetchCurrentMerchant(queryClient),
  });
}

export function useCreateMerchant() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MerchantCreateBody) =>
      call('POST /api/v1/merchant', { body, scoped: false }).then((r) => r.data),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: merchantsQuery.queryKey }),
  });
}

/** Work on another merchant: what the top-bar picker does (remembered; merchant-scoped caches dropped). */
export function useSwitchMerchant() {
  const queryClient = useQueryClient();
  return (id: string) => {
    rememberedMerchantStore.set(id);
    scopedMerchantStore.set(id);
    selectedTerminalStore.set('');
    void queryClient.resetQueries({ predicate: (q) => isMerchantScopedQuery(q.queryKey) });
  };
}
