import { z } from 'zod';
import { API_SURFACES, ERROR_CODES, errorStatusesOf, type ApiSurface, type RouteSpec } from '@paydesk/contracts';
import { API_ROUTES } from '@paydesk/contracts/routes';
import { quickstartMarkdown } from './quickstart';
import { webhookPayloadSchema, webhooksOf } from './webhooks';

/**
 * The OpenAPI 3.1 documents, generated from the route table in contracts (docs/architecture.md, "Parts"): the whole
 * API at /api/docs/json, and each published surface (merchant, provider, payment form, back-office) on its own.
 */

type JsonSchema = Record<string, unknown>;
type Operation = Record<string, unknown>;

const SURFACE_INFO: Record<ApiSurface, { title: string; description: string }> = {
  merchant: {
    title: 'Paydesk merchant API',
    description:
      'Server-to-server API for merchants: create deposit and withdrawal invoices, read and cancel them. Every ' +
      'request is signed with the merchant’s Ed25519 key (see the security schemes); callbacks are described under ' +
      '`webhooks`.',
  },
  provider: {
    title: 'Paydesk provider API',
    description: 'For payment providers: report incoming money and payout results. Bearer token per provider.',
  },
  'payment-form': {
    title: 'Paydesk payment form API',
    description: 'What the public payment form calls, addressed by the unguessable form id. No credentials.',
  },
  'back-office': {
    title: 'Paydesk back-office API',
    description: 'What the back-office web app calls, with a staff session cookie.',
  },
};

const SECURITY_SCHEMES = {
  staffSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'jwt',
    description: 'The back-office session cookie set by POST /api/v1/login.',
  },
  merchantId: { type: 'apiKey', in: 'header', name: 'X-Merchant-Id', description: 'The merchant id (UUID).' },
  merchantTimestamp: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Timestamp',
    description: 'Unix seconds; refused when more than 300 s from the server clock.',
  },
  merchantSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Signature',
    description:
      'base64 Ed25519 signature, with the merchant’s private key, of `${X-Timestamp}.${METHOD}.${path}.${rawBody}` ' +
      '(path with its query string; rawBody exactly the bytes sent, empty for GET).',
  },
  providerToken: { type: 'http', scheme: 'bearer', description: 'A provider token from PROVIDER_TOKENS.' },
};

/** Names of the headers that are security schemes, not operation parameters. */
const SECURITY_HEADERS = new Set(['x-merchant-id', 'x-timestamp', 'x-signature', 'authorization']);

const toJson = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
};

/** `/api/v1/invoice/:id` (Fastify) as `/api/v1/invoice/{id}` (OpenAPI). */
export const openApiPath = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function securityOf(spec: RouteSpec): Record<string, string[]>[] {
  const a = spec.access;
  if (a === 'public') return [];
  if (a === 'merchant') return [{ merchantId: [], merchantTimestamp: [], merchantSignature: [] }];
  if (a === 'provider') return [{ providerToken: [] }];
  return [{ staffSession: [] }];
}

function accessNote(spec: RouteSpec): string | null {
  const a = spec.access;
  if (typeof a !== 'object') return a === 'session' ? 'Any signed-in staff user.' : null;
  const perms = a.all.map((p) => `\`${p}\``).join(' and ');
  return `Needs ${perms}${a.platformOnly ? ' (platform staff only)' : ''}.`;
}

/** Query, path and header parameters of one schema (an object's properties, one parameter each). */
function parametersOf(schema: z.ZodType | undefined, where: 'query' | 'path' | 'header'): JsonSchema[] {
  if (!schema) return [];
  const json = toJson(schema, 'input');
  const props = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(props)
    .filter(([name]) => !(where === 'header' && SECURITY_HEADERS.has(name.toLowerCase())))
    .map(([name, s]) => {
      const { description, ...rest } = s;
      return {
        name,
        in: where,
        required: where === 'path' || required.has(name),
        ...(description ? { description } : {}),
        schema: rest,
      };
    });
}

/** Every 429 carries it (plugins/error-handler.ts). */
const RETRY_AFTER_HEADER = {
  description: 'Seconds to wait before trying again.',
  required: true,
  schema: { type: 'integer', minimum: 1 },
};

function errorResponses(spec: RouteSpec) {
  const out: Record<string, unknown> = {};
  for (const [status, codes] of errorStatusesOf(spec)) {
    out[String(status)] = {
      description: `Error: ${codes.join(', ')}`,
      ...(status === 429 ? { headers: { 'Retry-After': RETRY_AFTER_HEADER } } : {}),
      content: {
        'application/json': {
          schema: {
            allOf: [
              { $ref: '#/components/schemas/Error' },
              { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: codes } } } } },
            ],
          },
        },
      },
    };
  }
  return out;
}

function operationOf(spec: RouteSpec): Operation {
  const responses: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(spec.responses)) {
    if (r === null || r === undefined) {
      responses[status] = { description: 'No content' };
    } else if ('file' in r) {
      responses[status] = {
        description: r.description,
        content: { [r.file]: { schema: { type: 'string' } } },
      };
    } else {
      const example = spec.examples?.response;
      responses[status] = {
        description: 'Success',
        content: {
          'application/json': { schema: toJson(r as z.ZodType, 'output'), ...(example ? { example } : {}) },
        },
      };
    }
  }
  Object.assign(responses, errorResponses(spec));
  const note = accessNote(spec);
  const description = [spec.description, note].filter(Boolean).join('\n\n');
  const request = spec.examples?.request;
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    ...(description ? { description } : {}),
    tags: [...spec.tags],
    security: securityOf(spec),
    parameters: [
      ...parametersOf(spec.params, 'path'),
      ...parametersOf(spec.query, 'query'),
      ...parametersOf(spec.headers, 'header'),
    ],
    ...(spec.body
      ? {
          requestBody: {
            required: !spec.body.safeParse(undefined).success,
            content: {
              'application/json': { schema: toJson(spec.body, 'input'), ...(request ? { example: request } : {}) },
            },
          },
        }
      : {}),
    ...(spec.upload ? { requestBody: uploadBody(spec.upload) } : {}),
    responses,
  };
}

/** A multipart form: its fields (sent first), then the file. */
function uploadBody(upload: NonNullable<RouteSpec['upload']>) {
  const fields = toJson(upload.fields, 'input');
  return {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: [...((fields.required as string[] | undefined) ?? []), upload.file],
          properties: {
            ...((fields.properties as Record<string, JsonSchema> | undefined) ?? {}),
            [upload.file]: { type: 'string', contentMediaType: 'text/csv', description: upload.description },
          },
        },
      },
    },
  };
}

export type DocumentOptions = { publicUrl: string; surface?: ApiSurface };

const built = new Map<string, ReturnType<typeof buildDocument>>();

/**
 * A document, built once per origin and surface on first use (converting every schema takes tens of
 * milliseconds: not at start-up, not per request).
 */
export function openApiDocument(opts: DocumentOptions) {
  const key = `${opts.publicUrl} ${opts.surface ?? ''}`;
  let doc = built.get(key);
  if (!doc) built.set(key, (doc = buildDocument(opts)));
  return doc;
}

function buildDocument({ publicUrl, surface }: DocumentOptions) {
  const specs = (Object.values(API_ROUTES) as RouteSpec[]).filter((s) => !surface || s.api === surface);
  const paths: Record<string, Record<string, Operation>> = {};
  const tags = new Set<string>();
  for (const spec of specs) {
    const p = openApiPath(spec.path);
    (paths[p] ??= {})[spec.method.toLowerCase()] = operationOf(spec);
    for (const t of spec.tags) tags.add(t);
  }
  const info = surface
    ? { ...SURFACE_INFO[surface] }
    : {
        title: 'Paydesk API',
        description:
          'Everything Paydesk serves: ' +
          API_SURFACES.map((s) => SURFACE_INFO[s].title.replace('Paydesk ', '')).join(', ') +
          '.',
      };
  // the merchant's integrators read the quickstart and the callbacks: in the whole document and theirs
  const forMerchants = !surface || surface === 'merchant';
  if (forMerchants) info.description = `${info.description}\n${quickstartMarkdown(publicUrl)}`;
  const used = new Set(specs.flatMap((s) => securityOf(s).flatMap((r) => Object.keys(r))));
  const securitySchemes = Object.fromEntries(Object.entries(SECURITY_SCHEMES).filter(([name]) => used.has(name)));
  return {
    openapi: '3.1.0',
    info: {
      ...info,
      version: '1.0.0',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: publicUrl.replace(/\/+$/, ''), description: 'This server' }],
    tags: [...tags, ...(forMerchants ? ['Callbacks to the merchant'] : [])]
      .sort()
      .map((name) => ({ name, description: name })),
    paths,
    ...(forMerchants ? { webhooks: webhooksOf() } : {}),
    components: {
      securitySchemes,
      schemas: {
        ...(forMerchants ? { WebhookPayload: webhookPayloadSchema() } : {}),
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: { type: 'string', enum: [...ERROR_CODES] },
                message: { type: 'string', description: 'A sentence for people; do not parse it.' },
                fields: {
                  type: 'object',
                  additionalProperties: { type: 'string' },
                  description: 'Per-field messages of a VALIDATION_ERROR (or DUPLICATE), keyed by field path.',
                },
              },
            },
          },
        },
      },
    },
  };
}
