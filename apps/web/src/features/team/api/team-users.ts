import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TeamUser, UserCreateBody, UserListQuery, UserWithPassword } from '@paydesk/contracts/team';
import { call } from '../../../lib/api';
import { rolesKey } from './roles';

const teamKey = ['team'] as const;
export type { UserWithPassword };

/**
 * The team list. Not scoped by the top-bar picker: platform staff filter explicitly (`merchant`),
 * merchant staff always get their own team.
 */
const teamUsersQuery = (filter: UserListQuery) =>
  queryOptions({
    queryKey: [...teamKey, 'users', filter] as const,
    queryFn: ({ signal }): Promise<TeamUser[]> =>
      call('GET /api/v1/users', { signal, scoped: false, query: { ...filter } }).then((r) => r.data),
    placeholderData: keepPreviousData,
  });

export const useTeamUsers = (filter: UserListQuery) => useQuery(teamUsersQuery(filter));

/** Every change refreshes the team and the roles (their user counts). */
function useTeamMutation<TVars, TResult>(fn: (vars: TVars) => Promise<TResult>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: teamKey });
      await queryClient.invalidateQueries({ queryKey: rolesKey });
    },
  });
}

export const useCreateUser = () =>
  useTeamMutation((body: UserCreateBody) => call('POST /api/v1/users', { body, scoped: false }).then((r) => r.data));

export const useChangeUserRole = () =>
  useTeamMutation(({ id, roleId }: { id: string; roleId: number }) =>
    call('PUT /api/v1/users/:id/role', { params: { id }, body: { roleId }, scoped: false }).then((r) => r.data),
  );

export const useSetUserDisabled = () =>
  useTeamMutation(({ id, disabled }: { id: string; disabled: boolean }) =>
    call('PUT /api/v1/users/:id/status', { params: { id }, body: { disabled }, scoped: false }).then((r) => r.data),
  );

export const useResetPassword = () =>
  useTeamMutation((id: string) =>
    call('POST /api/v1/users/:id/password-reset', { params: { id }, scoped: false }).then((r) => r.data),
  );

/** Platform admins: removes the user's second factor and recovery codes and ends their sessions. */
export const useResetTwoFactor = () =>
  useTeamMutation((id: string) =>
    call('POST /api/v1/users/:id/two-factor-reset', { params: { id }, scoped: false }).then((r) => r.data),
  );
