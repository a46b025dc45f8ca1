import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AuditListResponse } from '@paydesk/contracts/audit';
import { call, type QueryParams } from '../../../lib/api';

export type { AuditListResponse };

/**
 * One page of the audit trail. Not scoped by the top-bar picker: platform staff filter by merchant
 * explicitly; merchant staff always get their own merchant's records.
 */
const auditListQuery = (params: QueryParams) =>
  queryOptions({
    queryKey: ['audit', 'list', params] as const,
    queryFn: ({ signal }): Promise<AuditListResponse> =>
      call('GET /api/v1/audit', { signal, scoped: false, query: params }),
    placeholderData: keepPreviousData,
  });

export const useAuditList = (params: QueryParams) => useQuery(auditListQuery(params));
