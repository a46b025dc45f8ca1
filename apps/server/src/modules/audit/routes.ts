import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AUDIT_CSV_FILENAME } from '@paydesk/contracts';
import { auditRouteSpecs as spec } from '@paydesk/contracts/routes/audit';
import type { AppContext } from '../../lib/context';
import { serve } from '../../lib/route';
import { currentUser } from '../../plugins/auth';
import { exportAuditCsv, listAudit } from './service';
import { attachmentHeaders, framableBySameOrigin } from '../../lib/file-download';

export const auditPlugin =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    serve(app, spec['GET /api/v1/audit'], async (req) => listAudit(ctx, currentUser(req), req.query));

    serve(
      app,
      spec['GET /api/v1/audit/csv'],
      async (req, reply) => {
        const stream = await exportAuditCsv(ctx, currentUser(req), req.query);
        return attachmentHeaders(reply, AUDIT_CSV_FILENAME).send(stream);
      },
      { onSend: framableBySameOrigin },
    );
  };
