import type { ErrorCode } from '@paydesk/contracts/errors';
import type { BodyOf, ParamsOf, QueryOf, RouteSpec, SuccessBodyOf } from '@paydesk/contracts/route-spec';
import type { RouteKey, Routes } from '@paydesk/contracts/routes';
import { parseJson, stringifyJson } from '@paydesk/contracts/exact-json';
import { errorText, type ApiErrorCode } from './error-texts';
import { getScopedMerchantId } from './merchant-scope';

export type { ApiErrorCode };

/** A failed call. `message` is what the user is told (see error-texts.ts); `serverMessage` is the server's own. */
export class ApiError extends Error {
  readonly serverMessage: string;
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    serverMessage: string,
    readonly fields?: Record<string, string>,
  ) {
    super(errorText(code, serverMessage, fields));
    this.name = 'ApiError';
    this.serverMessage = serverMessage;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

/**
 * What to tell the user when an action failed: the app's words for the error's code, or the screen's own
 * text ("Could not save the role") when the code says nothing more specific (a server fault, an unknown answer).
 */
export function actionErrorMessage(e: unknown, fallback: string): string {
  if (!isApiError(e) || e.code === 'INTERNAL' || e.code === 'HTTP_ERROR') return fallback;
  return e.message;
}

type QueryScalar = string | number | boolean | null | undefined;
export type QueryParams = Record<string, QueryScalar | readonly QueryScalar[]>;

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: QueryParams;
  body?: unknown;
  signal?: AbortSignal;
  /**
   * Add the picked merchant as ?merchantId= (docs/architecture.md, "Who is who"). Off only for calls that are not
   * merchant-scoped.
   */
  scoped?: boolean;
  /** A 401 signs the user out; off for the calls that decide the session themselves (login, /me, logout). */
  signOutOn401?: boolean;
  timeoutMs?: number;
};

const DEFAULT_TIMEOUT_MS = 30_000;

let onUnauthorized: () => void = () => {};
/** The app registers what "signed out" means (clear the cache, go to Login). */
export function setUnauthorizedHandler(handler: () => void) {
  onUnauthorized = handler;
}

/** The server refuses everything but one step until the user takes it: a new password, or the second factor's setup. */
export const SESSION_STEPS: readonly ApiErrorCode[] = ['PASSWORD_CHANGE_REQUIRED', 'TWO_FACTOR_SETUP_REQUIRED'];

let onSessionStepRequired: () => void = () => {};
/**
 * The app registers what to do when the server insists on a step first (a new password, setting up two-factor
 * sign-in): reload the user, whose flags send every route to that step.
 */
export function setSessionStepRequiredHandler(handler: () => void) {
  onSessionStepRequired = handler;
}

/**
 * Builds a same-origin URL. Empty values are dropped and arrays become repeated keys without index (?a=1&a=2).
 */
export function apiUrl(path: string, query: QueryParams = {}, scoped = true): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (v === undefined || v === null || v === '' || (typeof v === 'number' && Number.isNaN(v))) continue;
      params.append(key, String(v));
    }
  }
  const merchantId = scoped ? getScopedMerchantId() : null;
  if (merchantId && !params.has('merchantId')) params.set('merchantId', merchantId);
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

function parseErrorBody(body: unknown): { code: ErrorCode; message: string; fields?: Record<string, string> } | null {
  if (typeof body !== 'object' || body === null || !('error' in body)) return null;
  const err = (body as { error: unknown }).error;
  if (typeof err !== 'object' || err === null) return null;
  const { code, message, fields } = err as { code?: unknown; message?: unknown; fields?: unknown };
  if (typeof code !== 'string' || typeof message !== 'string') return null;
  return {
    code: code as ErrorCode,
    message,
    fields: typeof fields === 'object' && fields !== null ? (fields as Record<string, string>) : undefined,
  };
}

/** One fetch for every back-office call: scope, timeout, typed errors and the 401 sign-out. Returns the raw response (e.g. for CSV). */
export async function apiFetch(path: string, opts: RequestOptions = {}): Promise<Response> {
  const {
    method = 'GET',
    query,
    body,
    signal,
    scoped = true,
    signOutOn401 = true,
    timeoutMs = DEFAULT_TIMEOUT_MS,
  } = opts;
  const timeout = AbortSignal.timeout(timeoutMs);
  const headers: Record<string, string> = { accept: 'application/json' };
  // a form with a file (a statement upload) goes as multipart/form-data: the browser writes its own content type
  const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
  if (body !== undefined && !isForm) headers['content-type'] = 'application/json';

  let res: Response;
  try {
    res = await fetch(apiUrl(path, query, scoped), {
      method,
      headers,
      // exact integers both ways: a limit past 2^53 is a bigint here and a plain JSON integer on the wire
      body: body === undefined ? undefined : isForm ? body : stringifyJson(body),
      credentials: 'same-origin',
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (e) {
    if (signal?.aborted) throw e; // cancelled by the caller (e.g. TanStack Query): not an error to show
    if (timeout.aborted) throw new ApiError(0, 'TIMEOUT', 'request timed out');
    throw new ApiError(0, 'NETWORK_ERROR', 'fetch failed');
  }

  if (res.ok) return res;

  const parsed = parseErrorBody(await res.json().catch(() => null));
  const error = parsed
    ? new ApiError(res.status, parsed.code, parsed.message, parsed.fields)
    : new ApiError(
        res.status,
        'HTTP_ERROR',
        `Request failed (${res.status}${res.statusText ? ` ${res.statusText}` : ''})`,
      );
  if (res.status === 401 && signOutOn401) onUnauthorized();
  if (SESSION_STEPS.includes(error.code)) onSessionStepRequired();
  throw error;
}

/** A JSON call; an empty body resolves to undefined. */
async function apiRequest<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const res = await apiFetch(path, opts);
  const text = await res.text();
  return (text ? parseJson(text) : undefined) as T;
}

/* ---- Calls typed by the route table (contracts/routes.ts): path, params, query, body and answer ---- */

type QueryValues<Q> = { [P in keyof NonNullable<Q>]?: QueryScalar | readonly QueryScalar[] };
type Inputs<S extends RouteSpec> = (undefined extends ParamsOf<S> ? { params?: never } : { params: ParamsOf<S> }) &
  (S extends { body: object } ? { body: BodyOf<S> } : { body?: never }) &
  (S extends { query: object } ? { query?: QueryValues<QueryOf<S>> } : { query?: never });

/** The options of a call to route K: its path params, query, body, and the usual request options. */
type CallOptions<K extends RouteKey> = Omit<RequestOptions, 'method' | 'body' | 'query'> & Inputs<Routes[K]>;

type OptionalIfEmpty<T> = object extends T ? [opts?: T] : [opts: T];

/** The path of a route key (`GET /api/v1/invoice/:id`) with its params filled in, each one URL-encoded. */
function fillPath(key: string, params: Record<string, unknown> | undefined): string {
  const path = key.slice(key.indexOf(' ') + 1);
  return path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => {
    const v = params?.[name];
    if (v === undefined || v === null) throw new Error(`${key}: missing path param ${name}`);
    return encodeURIComponent(String(v));
  });
}

/**
 * Calls a route of the route table: `call('GET /api/v1/invoice/:id', { params: { id } })`. The path must
 * exist, its params, query keys and body are checked against the route's schemas, and the answer has the
 * route's success type.
 */
export function call<K extends RouteKey>(
  key: K,
  ...[opts]: OptionalIfEmpty<CallOptions<K>>
): Promise<SuccessBodyOf<Routes[K]>> {
  const given = opts as unknown as (RequestOptions & { params?: Record<string, unknown> }) | undefined;
  const { params, ...rest } = given ?? {};
  const method = key.slice(0, key.indexOf(' ')) as NonNullable<RequestOptions['method']>;
  return apiRequest<SuccessBodyOf<Routes[K]>>(fillPath(key, params), { ...rest, method });
}
