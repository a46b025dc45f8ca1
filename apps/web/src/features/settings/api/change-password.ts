import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordBody } from '@paydesk/contracts';
import { api } from '../../../lib/api';

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordBody) => api.post('/api/v1/user/change_password', body, { scoped: false }),
  });
}
