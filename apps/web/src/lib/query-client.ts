import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api';

/** Client errors (4xx) will not change on retry; transport and server errors get one more try. */
const retry = (failureCount: number, error: unknown) => {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
};

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

/**
 * Queries that survive a merchant switch: the user, the merchant list, and the team, roles and audit
 * trail (they carry their own explicit merchant filter instead of the picker's scope).
 */
const UNSCOPED_ROOTS = new Set(['me', 'merchants', 'team', 'roles', 'audit']);
export const isMerchantScopedQuery = (queryKey: readonly unknown[]) => !UNSCOPED_ROOTS.has(String(queryKey[0]));
