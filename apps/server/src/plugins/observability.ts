import { createHash, timingSafeEqual } from 'node:crypto';
import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { newestAppliedMigration } from '../db/applied-migrations';
import { buildMigrations } from '../db/create-db';
import type { AppContext } from '../lib/context';
import { replicaStatus } from '../lib/replicas';
import { AppError } from '../lib/errors';
import { addressIn, subnetList } from '../lib/ip-ranges';
import { createAppMetrics, METRICS_CONTENT_TYPE } from '../lib/metrics';
import { withTimeout } from '../lib/timeout';

/**
 * Operations endpoints and request logging (hardening issue):
 * - GET /api/health: liveness, never touches the database (registered in app.ts);
 * - GET /api/ready: readiness, the database answers within READY_TIMEOUT_MS and every migration is applied;
 * - GET /metrics: Prometheus text (lib/metrics.ts), guarded by METRICS_TOKEN or, in production without one,
 *   to loopback/private-network clients;
 * - one log line per request, written when the response is done.
 */

const READY_TIMEOUT_MS = 2000;

/** Fastify's own request lines ("incoming request", "request completed") are replaced by ours (below). */
class OneLinePerRequest extends LogController {
  override incomingRequest() {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    // a response that failed after it was sent still says so, at error level
    if (error) super.requestCompleted(error, request, reply);
  }
}
export const requestLogController = () => new OneLinePerRequest();

/** Scrapes, probes and hashed assets: logged at debug so they do not flood the log. */
const QUIET = /^\/(metrics|api\/health|api\/ready)$|^\/assets\//;

export function registerObservability(app: FastifyInstance, ctx: AppContext) {
  const metrics = createAppMetrics(ctx);
  ctx.metrics = metrics;
  app.addHook('onClose', async () => {
    if (ctx.metrics === metrics) delete ctx.metrics;
  });

  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeOptions.url; // the pattern, e.g. /api/v1/invoices/:id; undefined when no route matched
    const ms = reply.elapsedTime;
    metrics.observeRequest(req.method, route ?? 'unmatched', reply.statusCode, ms / 1000);
    // the path without its query string (search terms live there); never headers (cookies, keys) or bodies
    const q = req.url.indexOf('?');
    const path = q === -1 ? req.url : req.url.slice(0, q);
    const quiet = reply.statusCode < 500 && QUIET.test(path);
    req.log[quiet ? 'debug' : 'info'](
      {
        method: req.method,
        route: route ?? null,
        path,
        statusCode: reply.statusCode,
        responseTimeMs: Math.round(ms * 10) / 10,
      },
      'request completed',
    );
    done();
  });

  // one check at a time: probes arriving while one waits for the database share it
  let check: Promise<string | null> | undefined;
  app.get('/api/ready', { schema: { hide: true } }, async () => {
    check ??= checkReadiness(ctx).finally(() => (check = undefined));
    const problem = await withTimeout(check, READY_TIMEOUT_MS, 'the database check').catch(
      () => `The database did not answer within ${READY_TIMEOUT_MS} ms`,
    );
    if (problem) throw new AppError('NOT_READY', problem);
    // replicas do not decide readiness (long reads fall back to the primary): they are reported, lag and all
    if (!ctx.dbh.replicas.length) return { ok: true };
    return { ok: true, replicas: await replicaStatus(ctx) };
  });

  const token = ctx.config.metricsToken;
  const tokenHash = token ? sha256(token) : null;
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (tokenHash) {
      const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.authorization ?? '');
      // hashes compared: equal length whatever was sent, so the comparison time tells nothing about the token
      if (!m || !timingSafeEqual(sha256(m[1]!), tokenHash)) {
        throw new AppError('UNAUTHORIZED', 'Metrics need Authorization: Bearer <METRICS_TOKEN>', undefined, {
          'www-authenticate': 'Bearer realm="metrics"',
        });
      }
    } else if (ctx.config.env === 'production' && !internalClient(req, typeof ctx.config.trustProxy === 'string')) {
      throw new AppError('FORBIDDEN', 'Metrics are served to the internal network only (or set METRICS_TOKEN)');
    }
    const body = await metrics.render();
    return reply.header('content-type', METRICS_CONTENT_TYPE).header('cache-control', 'no-store').send(body);
  });
}

const sha256 = (s: string) => createHash('sha256').update(s).digest();

/**
 * Loopback and private networks (RFC 1918, RFC 4193 unique-local, link-local): narrower than lib/egress.ts's list
 * of what a callback may not reach (no CGNAT, benchmark or multicast ranges here: those are not our network).
 */
const internal = subnetList(
  [
    ['127.0.0.0', 8],
    ['10.0.0.0', 8],
    ['172.16.0.0', 12],
    ['192.168.0.0', 16],
    ['169.254.0.0', 16],
  ],
  [
    ['::1', 128],
    ['fc00::', 7],
    ['fe80::', 10],
  ],
);

function internalClient(req: FastifyRequest, proxiesListed: boolean) {
  // behind a proxy we were not told about, every client would look like the proxy's own private address; with
  // TRUST_PROXY=true the client's address is the leftmost X-Forwarded-For entry, which the client writes itself.
  // Only with TRUST_PROXY listing the proxies is the forwarded address believed (the first one not listed).
  const forwarded = req.headers['x-forwarded-for'] || req.headers.forwarded || req.headers['x-real-ip'];
  if (forwarded && !proxiesListed) return false;
  return addressIn(internal, req.ip) ?? false;
}

/**
 * Null when ready, else what is wrong. Drizzle's migrator records each applied migration's journal time in
 * drizzle.__drizzle_migrations and applies those newer than the newest recorded one: the database is up to
 * date when that newest time reaches this build's newest migration. The query is also the database's answer.
 */
async function checkReadiness(ctx: AppContext): Promise<string | null> {
  let expected: number[];
  try {
    expected = buildMigrations();
  } catch (err) {
    return `The migrations of this build cannot be read: ${(err as Error).message}`;
  }
  let newestApplied: number;
  try {
    newestApplied = await newestAppliedMigration((text) => ctx.dbh.pool.query(text));
  } catch {
    return 'The database did not answer';
  }
  if (newestApplied === 0) return 'The database has no migrations applied';
  const pending = expected.filter((t) => t > newestApplied).length;
  return pending ? `The database is not migrated to this version: ${pending} migration(s) pending` : null;
}
