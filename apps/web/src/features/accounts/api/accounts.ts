import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AccountCreateBody,
  AccountCredential,
  AccountDetails,
  AccountLimit,
  AccountLimitBody,
  AccountListItem,
  CredentialCreateBody,
} from '@paydesk/contracts';
import { api } from '../../../lib/api';

/** Provider accounts serve every merchant: these calls are not merchant-scoped. */
const unscoped = { scoped: false } as const;
const root = ['accounts'] as const;
const listKey = [...root, 'list'] as const;
const detailsKey = (id: number) => [...root, 'details', id] as const;
const limitKey = (id: number) => [...root, 'limit', id] as const;

const accountsQuery = queryOptions({
  queryKey: listKey,
  queryFn: ({ signal }) =>
    api.get<{ data: AccountListItem[] }>('/api/v1/people/account', { signal, ...unscoped }).then((r) => r.data),
});
export const useAccounts = () => useQuery(accountsQuery);

export const useAccount = (id: number) =>
  useQuery({
    queryKey: detailsKey(id),
    queryFn: ({ signal }) =>
      api.get<{ data: AccountDetails }>(`/api/v1/people/account/${id}`, { signal, ...unscoped }).then((r) => r.data),
    enabled: Number.isInteger(id) && id > 0,
  });

export const useAccountLimit = (id: number) =>
  useQuery({
    queryKey: limitKey(id),
    queryFn: ({ signal }) =>
      api
        .get<{ data: AccountLimit }>(`/api/router/v1/people/account/limit/${id}`, { signal, ...unscoped })
        .then((r) => r.data),
    enabled: Number.isInteger(id) && id > 0,
  });

/** On/off: optimistic in the list and the details, reverted when saving fails. */
export function useSetAccountEnabled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: number; enabled: boolean }) =>
      api
        .patch<{ data: AccountListItem }>(`/api/v1/people/account/${v.id}`, { enabled: v.enabled }, unscoped)
        .then((r) => r.data),
    onMutate: async ({ id, enabled }) => {
      await queryClient.cancelQueries({ queryKey: root });
      const list = queryClient.getQueryData<AccountListItem[]>(listKey);
      const details = queryClient.getQueryData<AccountDetails>(detailsKey(id));
      queryClient.setQueryData<AccountListItem[]>(listKey, (old) =>
        old?.map((a) => (a.id === id ? { ...a, enabled } : a)),
      );
      queryClient.setQueryData<AccountDetails>(detailsKey(id), (old) => (old ? { ...old, enabled } : old));
      return { list, details };
    },
    onError: (_e, { id }, ctx) => {
      queryClient.setQueryData(listKey, ctx?.list);
      queryClient.setQueryData(detailsKey(id), ctx?.details);
    },
    onSettled: (_d, _e, { id }) => {
      void queryClient.invalidateQueries({ queryKey: listKey });
      void queryClient.invalidateQueries({ queryKey: detailsKey(id) });
    },
  });
}

export function useCreateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AccountCreateBody) =>
      api.post<{ data: AccountListItem }>('/api/v1/people/create', body, unscoped).then((r) => r.data),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: listKey }),
  });
}

export function useCredentialMutations(accountId: number) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: detailsKey(accountId) });
  const add = useMutation({
    mutationFn: (body: CredentialCreateBody) =>
      api.post<{ data: AccountCredential }>('/api/v1/people/account/credentials', body, unscoped).then((r) => r.data),
    onSuccess: refresh,
  });
  const edit = useMutation({
    mutationFn: (v: { credentialId: number; value: string }) =>
      api
        .put<{ data: AccountCredential }>(
          `/api/v1/people/account/credentials/${v.credentialId}`,
          { value: v.value },
          unscoped,
        )
        .then((r) => r.data),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (credentialId: number) => api.delete(`/api/v1/people/account/credentials/${credentialId}`, unscoped),
    onSuccess: refresh,
  });
  return { add, edit, remove };
}

export function useSetAccountLimit(accountId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AccountLimitBody) =>
      api
        .put<{ data: AccountLimit }>(`/api/router/v1/people/account/limit/${accountId}`, body, unscoped)
        .then((r) => r.data),
    onSuccess: (limit) => queryClient.setQueryData(limitKey(accountId), limit),
  });
}
