import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RoleCreateBody, RoleUpdateBody } from '@paydesk/contracts/team';
import { call } from '../../../lib/api';

export const rolesKey = ['roles'] as const;

/** The roles the caller may see (merchant staff: merchant roles only), each saying whether the caller may give it. */
const rolesQuery = queryOptions({
  queryKey: rolesKey,
  queryFn: ({ signal }) => call('GET /api/v1/roles', { signal, scoped: false }).then((r) => r.data),
});

export const useRoles = () => useQuery(rolesQuery);

export function useSaveRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { id: null; body: RoleCreateBody } | { id: number; body: RoleUpdateBody }) =>
      (v.id === null
        ? call('POST /api/v1/roles', { body: v.body, scoped: false })
        : call('PUT /api/v1/roles/:id', { params: { id: v.id }, body: v.body, scoped: false })
      ).then((r) => r.data),
    // a role's name shows in the team list too
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: rolesKey });
      await queryClient.invalidateQueries({ queryKey: ['team'] });
    },
  });
}
