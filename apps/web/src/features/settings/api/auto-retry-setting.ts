import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { settingKeys } from '@paydesk/contracts/common';
import { call } from '../../../lib/api';

const SETTING: (typeof settingKeys)[number] = 'settings.withdrawal.retry.auto.enable';
const params = { setting: SETTING };

export const autoRetryQuery = queryOptions({
  queryKey: ['settings', SETTING] as const,
  queryFn: ({ signal }) =>
    call('GET /api/v1/settings/:setting', { params, signal }).then((r) => r.data.value === 'true'),
  refetchOnWindowFocus: false,
});

/** Optimistic: the switch moves at once and silently reverts if saving fails. */
export function useSetAutoRetry() {
  const queryClient = useQueryClient();
  const key = autoRetryQuery.queryKey;
  return useMutation({
    mutationFn: (enabled: boolean) =>
      call('POST /api/v1/settings/:setting', { params, body: { value: enabled ? 'true' : 'false' } }),
    onMutate: async (enabled) => {
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData(key);
      queryClient.setQueryData(key, enabled);
      return { previous };
    },
    onError: (_error, _enabled, context) => {
      if (context) queryClient.setQueryData(key, context.previous);
    },
    onSuccess: (res) => queryClient.setQueryData(key, res.data.value === 'true'),
  });
}
