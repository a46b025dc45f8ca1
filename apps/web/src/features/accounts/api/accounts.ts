import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AccountCreateBody,
  AccountDetails,
  AccountLimitBody,
  AccountListItem,
  CredentialCreateBody,
} from '@paydesk/contracts';
import { ACCOUNT_HEALTH_KEY } from '../../../lib/account-health';
import { call } from '../../../lib/api';

/** Provider accounts serve every merchant: these calls are not merchant-scoped. */
const unscoped = { scoped: false } as const;
const root = ['accounts'] as const;
const listKey = [...root, 'list'] as const;
const detailsKey = (id: number) => [...root, 'details', id] as const;
const limitKey = (id: number) => [...root, 'limit', id] as const;

const accountsQuery = queryOptions({
  queryKey: listKey,
  queryFn: ({ signal }) => call('GET /api/v1/people/account', { signal, ...unscoped }).then((r) => r.data),
});
export const useAccounts = () => useQuery(accountsQuery);

export const useAccount = (id: number) =>
  useQuery({
    queryKey: detailsKey(id),
    queryFn: ({ signal }) =>
      call('GET /api/v1/people/account/:id', { params: { id }, signal, ...unscoped }).then((r) => r.data),
    enabled: Number.isInteger(id) && id > 0,
  });

export const useAccountLimit = (id: number) =>
  useQuery({
    queryKey: limitKey(id),
    queryFn: ({ signal }) =>
      call('GET /api/router/v1/people/account/limit/:id', { params: { id }, signal, ...unscoped }).then((r) => r.data),
    enabled: Number.isInteger(id) && id > 0,
  });

/** On/off: optimistic in the list and the details, reverted when saving fails. */
export function useSetAccountEnabled() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: number; enabled: boolean }) =>
      call('PATCH /api/v1/people/account/:id', {
        params: { id: v.id },
        body: { enabled: v.enabled },
        ...unscoped,
      }).then((r) => r.data),
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
      call('POST /api/v1/people/create', { body, ...unscoped }).then((r) => r.data),
    // the accounts' health too (lib/account-health.ts): the list shows the new account's figures, not a read in flight
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: listKey }),
        queryClient.invalidateQueries({ queryKey: ACCOUNT_HEALTH_KEY }),
      ]),
  });
}

export function useCredentialMutations(accountId: number) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: detailsKey(accountId) });
  const add = useMutation({
    mutationFn: (body: CredentialCreateBody) =>
      call('POST /api/v1/people/account/credentials', { body, ...unscoped }).then((r) => r.data),
    onSuccess: refresh,
  });
  const edit = useMutation({
    mutationFn: (v: { credentialId: number; value: string }) =>
      call('PUT /api/v1/people/account/credentials/:credentialId', {
        params: { credentialId: v.credentialId },
        body: { value: v.value },
        ...unscoped,
      }).then((r) => r.data),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (credentialId: number) =>
      call('DELETE /api/v1/people/account/credentials/:credentialId', { params: { credentialId }, ...unscoped }),
    onSuccess: refresh,
  });
  return { add, edit, remove };
}

/**
 * A credential's full value (every other answer masks it): audited and limited per person and hour by the server.
 * Called from a mutation, never a query, so the full number is not cached (components/revealable-number.tsx).
 */
export const revealCredential = (credentialId: number) =>
  call('POST /api/v1/people/account/credentials/:credentialId/reveal', { params: { credentialId }, ...unscoped }).then(
    (r) => r.data.value,
  );

export function useSetAccountLimit(accountId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AccountLimitBody) =>
      call('PUT /api/router/v1/people/account/limit/:id', { params: { id: accountId }, body, ...unscoped }).then(
        (r) => r.data,
      ),
    onSuccess: (limit) => queryClient.setQueryData(limitKey(accountId), limit),
  });
}
