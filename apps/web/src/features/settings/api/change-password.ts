import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordBody } from '@paydesk/contracts';
import { call } from '../../../lib/api';

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordBody) => call('POST /api/v1/user/change_password', { body, scoped: false }),
  });
}
