import { uuidParam } from '../common';
import { routeSpec } from '../route-spec';
import {
  DEFAULT_STATEMENT_HEADER,
  STATEMENT_COUNTERPARTY,
  STATEMENT_FILE_FIELD,
  statementDetailQuery,
  statementDetailResponse,
  statementLineParams,
  statementListQuery,
  statementListResponse,
  statementMappingBody,
  statementMappingParams,
  statementMappingResponse,
  statementResolveBody,
  statementResolveResponse,
  statementSummaryQuery,
  statementUploadFields,
  statementUploadResponse,
} from '../statements';

/** Provider statements reconciled against the books: the operations desk's, platform staff only (route-spec.ts). */
const common = { api: 'back-office', tags: ['Provider statements'] } as const;
const read = { all: ['exceptions.read'], platformOnly: true } as const;
const resolve = { all: ['exceptions.read', 'incoming.resolve'], platformOnly: true } as const;

export const statementRouteSpecs = {
  'POST /api/v1/statements': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/statements',
    operationId: 'uploadStatement',
    summary: 'Upload a provider statement and reconcile it',
    description:
      'multipart/form-data: the fields `providerId`, `periodFrom`, `periodTo` first, then the file. The file is CSV ' +
      `with the header \`${DEFAULT_STATEMENT_HEADER}\` (or the provider's column mapping); \`amount\` in minor ` +
      `units, \`direction\` IN or OUT; an optional column \`${STATEMENT_COUNTERPARTY}\` names the counterparty's card ` +
      'or phone number, which is never stored (its keyed hash and masked form are): an OUT line naming another ' +
      "number than its payout's requisite is a MISMATCH. A card or phone number in a reference is stored masked. " +
      'Each line comes out MATCHED, STATEMENT_ONLY, MISMATCH, and what the books hold ' +
      'for the period without a line as BOOKS_ONLY; an IN line the books did not have is reported as incoming money ' +
      '(it goes to suspense unless a deposit waits for it). A bad file is refused whole (400, naming its line and ' +
      'column). The same file again (by sha256) is not counted twice: 200 with the statement it was and ' +
      '`duplicate: true`. Audited.',
    access: resolve,
    upload: {
      fields: statementUploadFields,
      file: STATEMENT_FILE_FIELD,
      description: 'The statement, CSV (UTF-8), at most 256 MB',
    },
    responses: { 200: statementUploadResponse, 201: statementUploadResponse },
  }),
  'GET /api/v1/statements': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/statements',
    operationId: 'listStatements',
    summary: 'Statements uploaded',
    description: 'Newest first, keyset pages (`after` = the previous page’s `next`), with their counts per outcome.',
    access: read,
    query: statementListQuery,
    responses: { 200: statementListResponse },
  }),
  'GET /api/v1/statements/summary.csv': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/statements/summary.csv',
    operationId: 'exportStatementSummary',
    summary: "A provider's daily reconciliation summary as CSV",
    description:
      'Per UTC day (of each entry’s time) and currency, over the provider’s statements: entries, matched, statement ' +
      'only, books only, mismatches, and the statement lines’ amounts in and out (major units).',
    access: read,
    query: statementSummaryQuery,
    responses: { 200: { file: 'text/csv', description: 'Statements-<provider>-<from>-<to>.csv, one row per day' } },
  }),
  'GET /api/v1/statements/mappings/:providerId': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/statements/mappings/:providerId',
    operationId: 'getStatementMapping',
    summary: "A provider's statement columns",
    access: read,
    params: statementMappingParams,
    responses: { 200: statementMappingResponse },
  }),
  'PUT /api/v1/statements/mappings/:providerId': routeSpec({
    ...common,
    method: 'PUT',
    path: '/api/v1/statements/mappings/:providerId',
    operationId: 'setStatementMapping',
    summary: "Set a provider's statement columns",
    description:
      'Which of the provider’s column names holds each field; `mapping: null` goes back to the default header. ' +
      'Audited with the mapping before and after.',
    access: resolve,
    params: statementMappingParams,
    body: statementMappingBody,
    responses: { 200: statementMappingResponse },
  }),
  'GET /api/v1/statements/:id': routeSpec({
    ...common,
    method: 'GET',
    path: '/api/v1/statements/:id',
    operationId: 'getStatement',
    summary: 'A statement with its lines',
    description:
      'Its counts per outcome and its entries in file order (BOOKS_ONLY last), keyset pages; `outcome` narrows to ' +
      'one outcome, `open=true` to the exceptions still to resolve.',
    access: read,
    params: uuidParam,
    query: statementDetailQuery,
    responses: { 200: statementDetailResponse },
  }),
  'POST /api/v1/statements/lines/:id/resolve': routeSpec({
    ...common,
    method: 'POST',
    path: '/api/v1/statements/lines/:id/resolve',
    operationId: 'resolveStatementLine',
    summary: 'Resolve a statement exception',
    description:
      'MATCH: the line is the named incoming payment (IN) or payout transaction (OUT) of the same provider; ' +
      'ACCEPT: staff accept the difference. Nothing moves on the books either way. APPROVAL: a correction of the ' +
      'invoice behind the line (`statusId` or `amount`) is asked for, held for a second person whatever the ' +
      'policies (it needs the permission of that correction); approved, it goes through the engine like the ' +
      "invoice's own correction. A resolved line answers 409 (one whose request was rejected or expired can be " +
      'resolved again). Audited with the reason.',
    access: resolve,
    params: statementLineParams,
    body: statementResolveBody,
    responses: { 200: statementResolveResponse },
    errors: ['INVALID_STATE'],
  }),
};
