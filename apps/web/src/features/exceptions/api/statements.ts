import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SuccessBodyOf } from '@paydesk/contracts/route-spec';
import type { Routes } from '@paydesk/contracts/routes';
import {
  STATEMENT_FILE_FIELD,
  type StatementMappingBody,
  type StatementResolveBody,
} from '@paydesk/contracts/statements';
import { parseJson } from '@paydesk/contracts/exact-json';
import { apiFetch, call, type QueryParams } from '../../../lib/api';
import { exceptionsKey } from './exceptions';

/** Provider statements on the operations desk: the whole platform's, never scoped by the merchant picker. */
const statementsKey = [...exceptionsKey, 'statements'] as const;

/** A million-line file takes a while to send and reconcile: the upload waits longer than an ordinary call. */
const UPLOAD_TIMEOUT_MS = 10 * 60_000;

export const useStatements = (query: QueryParams) =>
  useQuery({
    queryKey: [...statementsKey, 'list', query] as const,
    queryFn: ({ signal }) => call('GET /api/v1/statements', { signal, scoped: false, query }),
    placeholderData: keepPreviousData,
  });

export const useStatement = (id: string | null, query: QueryParams) =>
  useQuery({
    queryKey: [...statementsKey, 'detail', id, query] as const,
    queryFn: ({ signal }) => call('GET /api/v1/statements/:id', { signal, scoped: false, params: { id: id! }, query }),
    enabled: id !== null,
    placeholderData: keepPreviousData,
  });

export const useStatementMapping = (providerId: number | null) =>
  useQuery({
    queryKey: [...statementsKey, 'mapping', providerId] as const,
    queryFn: ({ signal }) =>
      call('GET /api/v1/statements/mappings/:providerId', {
        signal,
        scoped: false,
        params: { providerId: providerId! },
      }).then((r) => r.data),
    enabled: providerId !== null,
  });

/** Each change reads the desk again: its queues, their counts, the statements. */
function useStatementMutation<TVars, TOut>(fn: (vars: TVars) => Promise<TOut>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: exceptionsKey }),
  });
}

export type UploadVars = { providerId: number; periodFrom: string; periodTo: string; file: File };
type UploadAnswer = SuccessBodyOf<Routes['POST /api/v1/statements']>;

/** The fields first, then the file: the server reads the file as it arrives and needs to know whose it is. */
export const useUploadStatement = () =>
  useStatementMutation(async (v: UploadVars) => {
    const body = new FormData();
    body.append('providerId', String(v.providerId));
    body.append('periodFrom', v.periodFrom);
    body.append('periodTo', v.periodTo);
    body.append(STATEMENT_FILE_FIELD, v.file, v.file.name);
    const res = await apiFetch('/api/v1/statements', {
      method: 'POST',
      body,
      scoped: false,
      timeoutMs: UPLOAD_TIMEOUT_MS,
    });
    return parseJson(await res.text()) as UploadAnswer;
  });

export const useResolveStatementLine = () =>
  useStatementMutation((v: { id: number } & StatementResolveBody) =>
    call('POST /api/v1/statements/lines/:id/resolve', {
      scoped: false,
      params: { id: v.id },
      body: {
        resolution: v.resolution,
        reason: v.reason,
        ...(v.incomingId ? { incomingId: v.incomingId } : {}),
        ...(v.transactionId ? { transactionId: v.transactionId } : {}),
      },
    }),
  );

export const useSetStatementMapping = () =>
  useStatementMutation((v: { providerId: number } & StatementMappingBody) =>
    call('PUT /api/v1/statements/mappings/:providerId', {
      scoped: false,
      params: { providerId: v.providerId },
      body: { mapping: v.mapping, reason: v.reason },
    }),
  );
