import type { FastifyReply, FastifyRequest } from 'fastify';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { openApiDocument, openApiPath } from '../src/openapi/document';

/**
 * Checks every answer the API test suites get against the OpenAPI document the server serves:
 * the status must be documented for the operation, and a JSON body must match the documented schema
 * (error bodies included, with their documented codes). Violations are collected, not thrown, so the
 * test that caused one still sees the real answer; the harness fails the file when it closes.
 */

type Json = Record<string, unknown>;
type Doc = ReturnType<typeof openApiDocument>;

type Violation = { request: string; status: number; problem: string };

const doc: Doc = openApiDocument({ publicUrl: 'http://localhost:3000' });
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema({ $id: 'doc', components: doc.components } as Json, 'doc');
const compiled = new Map<string, ValidateFunction | null>();

/** `$ref: '#/components/…'` resolves inside the document's components (registered as schema "doc"). */
const rebase = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (schema && typeof schema === 'object') {
    return Object.fromEntries(
      Object.entries(schema).map(([k, v]) => [
        k,
        k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `doc${v}` : rebase(v),
      ]),
    );
  }
  return schema;
};

function validatorFor(path: string, method: string, status: number): ValidateFunction | null | 'undocumented' {
  const op = (doc.paths as Record<string, Record<string, Json>>)[path]?.[method];
  if (!op) return null;
  const responses = op.responses as Record<string, Json>;
  const response = responses[String(status)];
  if (!response) return 'undocumented';
  const key = `${method} ${path} ${status}`;
  if (!compiled.has(key)) {
    const content = response.content as Record<string, { schema: Json }> | undefined;
    const schema = content?.['application/json']?.schema;
    compiled.set(key, schema ? ajv.compile(rebase(schema) as Json) : null);
  }
  return compiled.get(key) ?? null;
}

export function createResponseValidator() {
  const violations: Violation[] = [];
  const hook = async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const route = req.routeOptions.url;
    if (!route) return payload; // no route matched (a 404 of the router, an edge refusal)
    const method = req.method.toLowerCase();
    const v = validatorFor(openApiPath(route), method, reply.statusCode);
    const request = `${req.method} ${req.url.split('?')[0]}`;
    if (v === 'undocumented') {
      violations.push({ request, status: reply.statusCode, problem: 'status not documented' });
    } else if (v && typeof payload === 'string') {
      let body: unknown;
      try {
        body = JSON.parse(payload);
      } catch {
        violations.push({ request, status: reply.statusCode, problem: 'body is not JSON' });
        return payload;
      }
      if (!v(body)) {
        violations.push({
          request,
          status: reply.statusCode,
          problem: `${ajv.errorsText(v.errors)} — body ${payload.slice(0, 300)}`,
        });
      }
    }
    return payload;
  };
  return { hook, violations };
}
