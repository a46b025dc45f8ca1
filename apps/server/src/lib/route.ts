import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { errorBodySchema, errorStatusesOf, type ApprovalHeld, type RouteSpec } from '@paydesk/contracts';
import type { RouteAuth } from '../plugins/auth';

export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** The JSON success responses of a spec (files and empty answers have no schema to check). */
type JsonResponses<S extends RouteSpec> = {
  [K in keyof S['responses'] as S['responses'][K] extends z.ZodType ? K : never]: S['responses'][K];
};

type SchemaOf<S extends RouteSpec> = {
  params: S['params'];
  querystring: S['query'];
  headers: S['headers'];
  body: S['body'];
  response: JsonResponses<S>;
};

export type HandlerOf<S extends RouteSpec> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  SchemaOf<S>,
  ZodTypeProvider
>;

/** What a route needs beyond its spec: hooks and limits that are about the server, not the contract. */
export type ServeOptions = Pick<
  RouteShorthandOptions,
  'onSend' | 'onRequest' | 'preParsing' | 'preValidation' | 'preHandler' | 'bodyLimit' | 'logLevel'
> & {
  /** Route config beyond the access rule (e.g. a rate limit's); merged after it. */
  config?: Record<string, unknown>;
};

/** The staff access rule the auth plugin enforces; merchant signatures and provider tokens have their plugins' hooks. */
const routeAuth = ({ access }: RouteSpec): RouteAuth | undefined =>
  access === 'merchant' || access === 'provider' ? undefined : access;

/**
 * Registers a route from its spec in contracts (method, path, access, inputs and every response, errors
 * included): the request is validated by its schemas, the answer by the success or error schema of its
 * status, and the access rule goes to the auth plugin.
 */
export function serve<S extends RouteSpec>(app: ZodApp, spec: S, handler: HandlerOf<S>, options: ServeOptions = {}) {
  const response: Record<number, z.ZodType> = {};
  for (const [status, r] of Object.entries(spec.responses)) {
    if (r && typeof r === 'object' && !('file' in r)) response[Number(status)] = r as z.ZodType;
  }
  for (const status of errorStatusesOf(spec).keys()) response[status] = errorBodySchema;
  const auth = routeAuth(spec);
  app.route({
    method: spec.method,
    url: spec.path,
    ...options,
    config: {
      ...options.config,
      ...(auth ? { auth } : {}),
      ...(spec.allowTemporaryPassword ? { allowTemporaryPassword: true } : {}),
      ...(spec.allowBeforeTwoFactor ? { allowBeforeTwoFactor: true } : {}),
    },
    schema: {
      ...(spec.params ? { params: spec.params } : {}),
      ...(spec.query ? { querystring: spec.query } : {}),
      ...(spec.headers ? { headers: spec.headers } : {}),
      ...(spec.body ? { body: spec.body } : {}),
      response,
    },
    handler: handler as RouteHandlerMethod,
  });
}

/**
 * The answer of an action two-person control may hold back (modules/engine/approvals.ts): 202 with its approval
 * request when a policy held it (nothing changed), else the action's result.
 */
export function heldOr<T>(reply: FastifyReply, out: T) {
  if (out !== null && typeof out === 'object' && 'held' in out)
    return reply.status(202).send({ data: (out as { held: ApprovalHeld }).held });
  return { data: out as Exclude<T, { held: ApprovalHeld }> };
}
