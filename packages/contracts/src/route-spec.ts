import type { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from './errors';
import type { Permission } from './permissions';

/**
 * One route, described once: the server registers it from this, the OpenAPI document is
 * generated from this, and the web's API client is typed from this, so the three cannot drift.
 */

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * Who may call it: nobody in particular ('public': the payment form, sign-in), any signed-in staff
 * user ('session'), staff holding permissions (all of them; optionally platform staff only), a
 * merchant's server signing with its key ('merchant'), or a provider with its bearer token.
 */
export type Access =
  | 'public'
  | 'session'
  | { readonly all: readonly Permission[]; readonly platformOnly?: boolean }
  | 'merchant'
  | 'provider';

/** The published APIs: each is also served as a document of its own. */
export const API_SURFACES = ['back-office', 'merchant', 'provider', 'payment-form'] as const;
export type ApiSurface = (typeof API_SURFACES)[number];

/**
 * A request body that is a multipart form with a file (a statement upload): its fields, validated by `fields` and sent
 * before the file, which the server reads as it arrives.
 */
type FileUpload = { readonly fields: z.ZodType; readonly file: string; readonly description: string };

/** A response that is a file, not JSON (CSV exports). */
type FileResponse = { readonly file: 'text/csv'; readonly description: string };

type SuccessStatus = 200 | 201 | 202 | 204;

export type RouteSpec = {
  readonly method: HttpMethod;
  /** Fastify style: /api/v1/invoice/:id */
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tags: readonly string[];
  readonly api: ApiSurface;
  readonly access: Access;
  /** staff routes reachable with a one-time password still to change (me, change password, sign-out) */
  readonly allowTemporaryPassword?: boolean;
  /** staff routes reachable while a required second factor is not set up yet */
  readonly allowBeforeTwoFactor?: boolean;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly headers?: z.ZodType;
  readonly body?: z.ZodType;
  /** A multipart/form-data body with a file, instead of a JSON `body`. */
  readonly upload?: FileUpload;
  /** The success responses: a schema for JSON, a file, or null for no body. */
  readonly responses: { readonly [S in SuccessStatus]?: z.ZodType | FileResponse | null };
  /** Error codes this route can answer beyond those its inputs and access imply (see errorCodesOf). */
  readonly errors?: readonly ErrorCode[];
  /** Examples for the document (the merchant API's integrators read them). */
  readonly examples?: { readonly request?: unknown; readonly response?: unknown };
};

/** Keeps a spec's literal types (its path, method and schemas) for the typed client and the server. */
export const routeSpec = <const S extends RouteSpec>(spec: S): S => spec;

export const routeKey = (s: Pick<RouteSpec, 'method' | 'path'>) => `${s.method} ${s.path}` as const;

const isStaffAccess = (a: Access) => a === 'session' || typeof a === 'object';

/**
 * Every error code a route can answer: implied by what it takes (a body or query can be invalid, a
 * path id can be unknown or too long), by who may call it (a session can be missing, a permission lacking, a
 * request from another origin refused, a signature wrong), by the API it belongs to (the payment form's rate
 * limit), plus the route's own.
 */
function errorCodesOf(spec: RouteSpec): ErrorCode[] {
  const codes = new Set<ErrorCode>(spec.errors ?? []);
  if (spec.params || spec.query || spec.body || spec.upload || spec.headers) codes.add('VALIDATION_ERROR');
  if (spec.method !== 'GET') {
    // whatever a route expects, a body sent to it is parsed: malformed JSON or too many bytes are refused
    codes.add('VALIDATION_ERROR');
    codes.add('PAYLOAD_TOO_LARGE');
    // a write that lost a race with another (serialization failure, deadlock) answers 409: retry it
    codes.add('CONFLICT');
  }
  // any statement past the server's statement timeout is stopped (PostgreSQL): 503, nothing changed, try again
  codes.add('SERVICE_BUSY');
  if (spec.params) {
    codes.add('NOT_FOUND');
    // the router refuses a path parameter over its length limit before the route runs (edge-input.ts)
    codes.add('URI_TOO_LONG');
  }
  // the payment form's routes share one per-IP rate limit (payment-form/routes.ts): any of them may answer 429
  if (spec.api === 'payment-form') codes.add('TOO_MANY_REQUESTS');
  const a = spec.access;
  if (isStaffAccess(a)) {
    codes.add('UNAUTHORIZED');
    // the merchant a call works on: a platform user may name one (?merchantId=) that does not exist,
    // a user attached to no merchant is refused
    codes.add('FORBIDDEN');
    codes.add('NOT_FOUND');
    if (spec.method !== 'GET') codes.add('CSRF_REJECTED');
    if (!spec.allowTemporaryPassword) codes.add('PASSWORD_CHANGE_REQUIRED');
    if (!spec.allowBeforeTwoFactor) codes.add('TWO_FACTOR_SETUP_REQUIRED');
  } else if (a === 'merchant') {
    codes.add('INVALID_SIGNATURE');
    codes.add('TOO_MANY_REQUESTS');
  } else if (a === 'provider') {
    codes.add('UNAUTHORIZED');
  }
  return [...codes].sort();
}

/** The error codes of a route grouped by the HTTP status they are sent with. */
export function errorStatusesOf(spec: RouteSpec): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(spec)) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

/* ---- Types the server and the web client read from a spec ---- */

type Out<T> = T extends z.ZodType ? z.output<T> : never;
type In<T> = T extends z.ZodType ? z.input<T> : never;

/** The JSON body of a route's success answer (undefined for none, a Response's text for files). */
export type SuccessBodyOf<S extends RouteSpec> = {
  [K in keyof S['responses']]: S['responses'][K] extends z.ZodType
    ? Out<S['responses'][K]>
    : S['responses'][K] extends null
      ? undefined
      : string;
}[keyof S['responses']];

export type ParamsOf<S extends RouteSpec> = S['params'] extends z.ZodType ? In<S['params']> : undefined;
export type QueryOf<S extends RouteSpec> = S['query'] extends z.ZodType ? In<S['query']> : undefined;
export type BodyOf<S extends RouteSpec> = S['body'] extends z.ZodType ? In<S['body']> : undefined;
