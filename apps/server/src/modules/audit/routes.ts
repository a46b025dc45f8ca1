import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AUDIT_CSV_FILENAME, auditCsvQuery, auditListQuery, auditListResponse } from '@paydesk/contracts';
import type { AppContext } from '../../lib/context';
import { currentUser, perm } from '../../plugins/auth';
import { exportAuditCsv, listAudit } from './service';
import { attachmentHeaders, framableBySameOrigin } from '../../lib/file-download';

export const auditRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const tags = ['audit'];

    app.get(
      '/api/v1/audit',
      {
        config: perm('audit.read'),
        schema: {
          tags,
          description:
            "The audit trail, newest first. Platform staff see every record; a merchant's staff see their merchant's.",
          querystring: auditListQuery,
          response: { 200: auditListResponse },
        },
      },
      async (req) => listAudit(ctx, currentUser(req), req.query),
    );

    app.get(
      '/api/v1/audit/csv',
      {
        config: perm('audit.read'),
        schema: {
          tags,
          querystring: auditCsvQuery,
          produces: ['text/csv'],
          description: `Every audit record matching the filters as ${AUDIT_CSV_FILENAME}, streamed.`,
        },
        onSend: framableBySameOrigin,
      },
      async (req, reply) => {
        const stream = await exportAuditCsv(ctx, currentUser(req), req.query);
        return attachmentHeaders(reply, AUDIT_CSV_FILENAME).send(stream);
      },
    );
  };
