import { AUDIT_CSV_FILENAME, auditCsvQuery, auditListQuery, auditListResponse } from '../audit';
import { routeSpec } from '../route-spec';

/** Routes of the audit module (see route-spec.ts). */
const common = { api: 'back-office', tags: ['Audit'], access: { all: ['audit.read'] } } as const;

export const auditRouteSpecs = {
  'GET /api/v1/audit': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/audit',
    operationId: 'listAuditRecords',
    summary: 'List audit records',
    description:
      "The audit trail, newest first. Platform staff see every record; a merchant's staff see their merchant's.",
    query: auditListQuery,
    responses: { 200: auditListResponse },
  }),
  'GET /api/v1/audit/csv': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/audit/csv',
    operationId: 'exportAuditCsv',
    summary: 'Export audit records as CSV',
    description: `Every audit record matching the filters as ${AUDIT_CSV_FILENAME}, streamed.`,
    query: auditCsvQuery,
    responses: { 200: { file: 'text/csv', description: `${AUDIT_CSV_FILENAME}: the audit records, newest first` } },
  }),
};
