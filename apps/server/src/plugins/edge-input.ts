import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { AppError } from '../lib/errors';

/**
 * Edge input, in one place: nothing a client can send may cause a 500.
 * - Every string a request carries (body, query, path parameters) is refused with a 400 naming the
 *   field when it holds a NUL character or a lone UTF-16 surrogate: PostgreSQL text cannot store NUL
 *   (it answered 500), and a lone surrogate would be silently replaced on the way to the database.
 * - The framework's own refusals (a bad URL, a path parameter over the length limit, headers too
 *   large, a request timeout) answer in the API's error shape `{error:{code,message}}`.
 */

// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const FORBIDDEN = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function badString(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return FORBIDDEN.test(value) ? path || '_' : null;
  if (depth > 32 || value === null || typeof value !== 'object') return null;
  for (const [k, v] of Object.entries(value)) {
    if (FORBIDDEN.test(k)) return path ? `${path}.${k.replace(FORBIDDEN, '?')}` : '_';
    const found = badString(v, path ? `${path}.${k}` : k, depth + 1);
    if (found) return found;
  }
  return null;
}

export function registerEdgeInput(app: FastifyInstance) {
  // callback style (no promise a request): it runs on every request
  app.addHook('preValidation', (req: FastifyRequest, _reply, done) => {
    for (const part of [req.params, req.query, req.body]) {
      const field = badString(part, '');
      if (field) {
        return done(
          new AppError('VALIDATION_ERROR', `${field}: text may not contain NUL or invalid Unicode characters`, {
            [field]: 'Text may not contain NUL or invalid Unicode characters',
          }),
        );
      }
    }
    done();
  });
}

const errorBody = (code: string, message: string) => JSON.stringify({ error: { code, message } });

/** Fastify options: router refusals and socket-level client errors in the API's error shape. */
export const edgeErrorOptions: Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> = {
  frameworkErrors(err: Error & { code?: string }, _req: FastifyRequest, reply: FastifyReply) {
    if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
      return reply.status(414).send({ error: { code: 'URI_TOO_LONG', message: 'A path parameter is too long' } });
    }
    if (err.code === 'FST_ERR_BAD_URL') {
      return reply.status(400).send({ error: { code: 'VALIDATION_ERROR', message: 'The URL is not valid' } });
    }
    return reply.status(400).send({ error: { code: 'VALIDATION_ERROR', message: 'The request is not valid' } });
  },
  clientErrorHandler(err: Error & { code?: string }, socket: Socket) {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, text, body] =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? [
            431,
            'Request Header Fields Too Large',
            errorBody('HEADERS_TOO_LARGE', 'The request headers or URL are too large'),
          ]
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? [408, 'Request Timeout', errorBody('TIMEOUT', 'The request took too long to arrive')]
          : [400, 'Bad Request', errorBody('VALIDATION_ERROR', 'The request could not be read')];
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${text}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(err);
  },
};
