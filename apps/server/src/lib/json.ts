import sjson from 'secure-json-parse';
import type { FastifyInstance } from 'fastify';
import { createSerializerCompiler } from 'fastify-type-provider-zod';
import { bigintReplacer, parseJson, stringifyJson, unmarkJson } from '@paydesk/contracts';
import { AppError } from './errors';

/**
 * Request and response JSON with exact integers (contracts/exact-json.ts): an integer past 2^53 in a
 * body arrives as a bigint, a bigint in a response is written as a plain integer. Bodies are refused,
 * as Fastify's own parser does, when they carry `__proto__` or `constructor.prototype` keys.
 */
export function parseRequestJson(raw: string): unknown {
  if (raw === '') return undefined;
  let plain: unknown;
  try {
    plain = sjson.parse(raw, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (err) {
    throw new AppError(
      'VALIDATION_ERROR',
      err instanceof SyntaxError ? 'The request body is not valid JSON' : 'The request body has a forbidden key',
    );
  }
  // only a text with 16+ digits in a row can hold an integer JSON.parse rounds: parse it again exactly
  return /\d{16}/.test(raw) ? parseJson(raw) : plain;
}

export function registerExactJson(app: FastifyInstance) {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    try {
      done(null, parseRequestJson(body as string));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  // replies without a response schema
  app.setReplySerializer((payload) => stringifyJson(payload));
}

const zodSerializer = createSerializerCompiler({ replacer: bigintReplacer });
/** Responses with a schema: validated by zod, bigints written as plain integers. */
export const exactSerializerCompiler: typeof zodSerializer = (route) => {
  const serialize = zodSerializer(route);
  return (data) => unmarkJson(serialize(data));
};
