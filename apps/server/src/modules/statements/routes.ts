import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import multipart from '@fastify/multipart';
import { STATEMENT_FILE_FIELD, STATEMENT_MAX_BYTES, statementUploadFields } from '@paydesk/contracts';
import { statementRouteSpecs as spec } from '@paydesk/contracts/routes/statements';
import type { AppContext } from '../../lib/context';
import { badRequest } from '../../lib/errors';
import { serve } from '../../lib/route';
import { attachmentHeaders, framableBySameOrigin } from '../../lib/file-download';
import { currentUser } from '../../plugins/auth';
import { staffActor } from '../audit/service';
import {
  exportSummary,
  getMapping,
  listStatements,
  resolveLine,
  setMapping,
  statementDetail,
  uploadStatement,
} from './service';

const FIELDS_FIRST = `Send the form fields providerId, periodFrom and periodTo, then the file (the field "${STATEMENT_FILE_FIELD}")`;

/**
 * A multipart upload read in order: the fields, checked as the route's upload schema says, then the file, handed to
 * the service as a stream. Anything after the file is ignored.
 */
async function upload(ctx: AppContext, req: FastifyRequest) {
  if (!req.isMultipart()) throw badRequest(`Upload the statement as multipart/form-data. ${FIELDS_FIRST}.`);
  const fields: Record<string, string> = {};
  for await (const part of req.parts({ limits: { fileSize: STATEMENT_MAX_BYTES, files: 1, fields: 10, parts: 12 } })) {
    if (part.type === 'field') {
      fields[part.fieldname] = String(part.value);
      continue;
    }
    if (part.fieldname !== STATEMENT_FILE_FIELD) {
      part.file.resume();
      throw badRequest(`Unknown file field "${part.fieldname}". ${FIELDS_FIRST}.`, {
        [part.fieldname]: `Send the file as "${STATEMENT_FILE_FIELD}"`,
      });
    }
    const parsed = statementUploadFields.safeParse(fields);
    if (!parsed.success) {
      part.file.resume();
      const issues = Object.fromEntries(
        parsed.error.issues.map((i) => [
          i.path.join('.') || '_',
          i.code === 'unrecognized_keys' ? 'Unknown field' : i.message,
        ]),
      );
      const [first] = Object.entries(issues);
      throw badRequest(
        first ? `Invalid form: ${first[0]}: ${first[1]}. ${FIELDS_FIRST}.` : `Invalid form. ${FIELDS_FIRST}.`,
        issues,
      );
    }
    return uploadStatement(ctx, {
      ...parsed.data,
      filename: (part.filename || 'statement.csv').slice(0, 255),
      file: part.file,
      actor: staffActor(currentUser(req), req.ip),
    });
  }
  throw badRequest(`No file. ${FIELDS_FIRST}.`, { [STATEMENT_FILE_FIELD]: 'Attach the statement file' });
}

/** Provider statements: platform staff only (the route table says so; the auth plugin enforces it). */
export const statementsPlugin =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    // multipart bodies for this plugin's routes only (the upload); every other route keeps taking JSON alone
    await app.register(multipart, { limits: { fileSize: STATEMENT_MAX_BYTES, files: 1, fields: 10, parts: 12 } });

    serve(app, spec['POST /api/v1/statements'], async (req, reply) => {
      const result = await upload(ctx, req);
      return reply.status(result.duplicate ? 200 : 201).send({ data: result });
    });
    serve(app, spec['GET /api/v1/statements'], async (req) => listStatements(ctx.db, req.query));
    serve(
      app,
      spec['GET /api/v1/statements/summary.csv'],
      async (req, reply) => {
        const { stream, filename } = await exportSummary(ctx, req.query);
        return attachmentHeaders(reply, filename).send(stream);
      },
      { onSend: framableBySameOrigin },
    );
    serve(app, spec['GET /api/v1/statements/mappings/:providerId'], async (req) => ({
      data: await getMapping(ctx.db, req.params.providerId),
    }));
    serve(app, spec['PUT /api/v1/statements/mappings/:providerId'], async (req) => ({
      data: await setMapping(ctx, {
        providerId: req.params.providerId,
        body: req.body,
        actor: staffActor(currentUser(req), req.ip),
      }),
    }));
    serve(app, spec['GET /api/v1/statements/:id'], async (req) => statementDetail(ctx.db, req.params.id, req.query));
    serve(app, spec['POST /api/v1/statements/lines/:id/resolve'], async (req) => ({
      data: await resolveLine(ctx, {
        id: req.params.id,
        body: req.body,
        caller: { user: currentUser(req), ip: req.ip },
      }),
    }));
  };
