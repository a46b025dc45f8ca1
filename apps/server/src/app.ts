import fs from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type onSendAsyncHookHandler,
} from 'fastify';
import cookie from '@fastify/cookie';
import helmet from 'helmet';
import fastifyStatic from '@fastify/static';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from './lib/context';
import { registerErrorHandler } from './plugins/error-handler';
import { registerObservability, requestLogController } from './plugins/observability';
import { exactSerializerCompiler, registerExactJson } from './lib/json';
import { edgeErrorOptions, registerEdgeInput } from './plugins/edge-input';
import { COOKIE_NAME, registerAuth, userFromToken } from './plugins/auth';
import { hasPermission } from '@paydesk/contracts/permissions';
import { MERCHANT_PICKER_CALL, SESSION_CALL } from '@paydesk/contracts/first-calls';
import { maskRequisitesInText } from '@paydesk/contracts/masking';
import { registerMerchantScope } from './lib/scope';
import { speedupOn } from './lib/speedups';
import { registerModules } from './modules';
import { demoReceiver } from './modules/callbacks/demo-receiver';
import { registerDocs } from './openapi/plugin';
import { registerTraffic } from './workers/traffic';

export type BuildOptions = {
  logger?: boolean | object;
  /** Sees every answer before it leaves (the tests check each one against the OpenAPI document). */
  onSend?: onSendAsyncHookHandler;
};

/** Request headers a log line never holds (sessions, signatures, provider tokens). */
const LOG_REDACT = ['req.headers.cookie', 'req.headers["x-signature"]', 'req.headers.authorization'];

/**
 * The logger's options, the server's and the tests' alike: the headers above redacted, and every line, whatever
 * wrote it (an error's message, a library's warning), with its card and phone numbers masked as it is written.
 */
export const logOptions = (level: string, stream: { write: (line: string) => void }) => ({
  level,
  stream,
  redact: LOG_REDACT,
  hooks: { streamWrite: maskRequisitesInText },
});

/** Builds the whole app (tests import this); server.ts listens and runs workers. */
export async function buildApp(ctx: AppContext, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger ?? false,
    // one line per request, written by registerObservability (not Fastify's "incoming" + "completed" pair)
    logController: requestLogController(),
    // only behind a known proxy may X-Forwarded-For / -Proto be believed (sign-in throttling is per IP)
    trustProxy: ctx.config.trustProxy,
    bodyLimit: 256 * 1024,
    ...edgeErrorOptions,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(exactSerializerCompiler);
  registerExactJson(app);
  registerEdgeInput(app);
  registerErrorHandler(app);
  // before any route: its onResponse hook (metrics, the request log line) must cover every route and the 404s
  registerObservability(app, ctx);
  // requests in flight, for the background loops to yield to on the embedded database (workers/traffic.ts)
  if (ctx.dbh.kind === 'pglite') registerTraffic(app, ctx);
  if (opts.onSend) app.addHook('onSend', opts.onSend);

  await app.register(cookie);
  // helmet's headers, worked out once: none depends on the request (no nonce, no function in the policy)
  const securityHeaders = headersOf(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          frameAncestors: ["'none'"],
          // added per request, over https only (below): on plain http it would send every asset to https
          upgradeInsecureRequests: null,
        },
      },
      // HSTS likewise: only a response that came over https may pin https
      strictTransportSecurity: false,
      // the payment form opens merchant URLs; keep referrers from leaking form ids
      referrerPolicy: { policy: 'no-referrer' },
    }),
  );
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(securityHeaders);
    done();
  });
  // Served over https (PUBLIC_URL says so, or a trusted proxy's X-Forwarded-Proto): pin it. On any plain-http
  // address (a VM, a container, a LAN) the pages must still load, so neither header is sent there.
  const httpsPublic = ctx.config.publicUrl?.startsWith('https://') ?? false;
  app.addHook('onSend', (req, reply, payload, done) => {
    // API answers carry sessions' data (card numbers, secrets shown once, recovery codes): never stored by a cache
    if (req.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    if (httpsPublic || req.protocol === 'https') {
      reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
      const csp = reply.getHeader('content-security-policy');
      if (typeof csp === 'string' && !csp.includes('upgrade-insecure-requests')) {
        reply.header('content-security-policy', `${csp};upgrade-insecure-requests`);
      }
    }
    done(null, payload);
  });

  await registerDocs(app, ctx);

  await registerAuth(app, ctx);
  registerMerchantScope(app, ctx);
  await registerModules(app, ctx);

  app.get('/api/health', { schema: { hide: true } }, async () => ({ ok: true }));
  if (ctx.config.env !== 'production') await demoReceiver(app, ctx);

  registerWeb(app, ctx);
  return app;
}

/** The headers a (request-independent) connect-style middleware such as helmet's sets, collected by running it once. */
function headersOf(
  middleware: (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void,
): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader() {},
  };
  let failed: unknown;
  middleware({ method: 'GET', url: '/', headers: {} } as IncomingMessage, res as unknown as ServerResponse, (err) => {
    failed = err;
  });
  if (failed) throw failed;
  return headers;
}

function registerWeb(app: FastifyInstance, ctx: AppContext) {
  const dist = ctx.config.webDist;
  const hasWeb = fs.existsSync(path.join(dist, 'index.html'));
  const notFound = (req: FastifyRequest, reply: FastifyReply) =>
    reply
      .status(404)
      .send({ error: { code: 'NOT_FOUND', message: `Route ${req.method} ${req.url.split('?')[0]} not found` } });
  if (!hasWeb) {
    app.setNotFoundHandler(notFound);
    return;
  }
  // hashed build assets: cached for a year
  app.register(fastifyStatic, {
    root: path.join(dist, 'assets'),
    prefix: '/assets/',
    maxAge: '1y',
    immutable: true,
    index: false,
    preCompressed: true,
  });
  const sendPage = (file: string) => (_req: FastifyRequest, reply: FastifyReply) =>
    // pages revalidate on every load, so a release reaches browsers at once; only hashed assets are immutable
    reply.header('cache-control', 'no-cache').sendFile(file, dist, { cacheControl: false });
  const sendIndex = sendLandingPage(
    dist,
    sendPage('index.html'),
    async (token) => {
      // the signed-in landing's first calls that the session alone decides (first-calls.ts)
      const user = await userFromToken(ctx, app.jwtSecret, token);
      if (!user || user.mustChangePassword || user.mustSetUpTwoFactor) return [];
      return hasPermission(user.permissions, 'merchant.rw.all') ? [MERCHANT_PICKER_CALL] : [];
    },
    () => ({ files: speedupOn(ctx.config, 'landing-preloads'), calls: speedupOn(ctx.config, 'first-calls') }),
  );
  app.get('/payment/:formId', { schema: { hide: true } }, sendPage('payment.html'));
  for (const f of fs.readdirSync(dist)) {
    if (/\.(svg|png|ico|txt|webmanifest)$/.test(f)) app.get(`/${f}`, { schema: { hide: true } }, sendPage(f));
  }
  // the back-office is a single-page app: every other page path gets index.html
  app.setNotFoundHandler((req, reply) => {
    if (req.method === 'GET' && !req.url.startsWith('/api/') && !path.extname(req.url.split('?')[0]!)) {
      return sendIndex(req, reply);
    }
    return notFound(req, reply);
  });
}

/**
 * A file's contents as `parse` makes them, read again only when the file changes (one stat a call instead of a read
 * and a parse). Changed means another inode (a release that replaces the file), size, modification or change time:
 * a deploy that keeps the build's modification times (rsync -a, reproducible builds) still changes the inode or the
 * change time, which no copy preserves.
 */
function fileReader<T>(file: string, parse: (text: string) => T): () => Promise<T> {
  let cached: { stamp: string; value: T } | undefined;
  return async () => {
    const st = await fs.promises.stat(file);
    const stamp = `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
    if (cached?.stamp !== stamp) cached = { stamp, value: parse(await fs.promises.readFile(file, 'utf8')) };
    return cached.value;
  };
}

/** route-preloads.json of the web build: per landing address, the files of its screens beyond index.html's own. */
type RoutePreloads = Record<'public' | 'signedIn', Record<string, { js: string[]; css: string[] } | undefined>>;

/** index.html's own preload of the session call (SESSION_CALL), as the web build writes it. */
const SESSION_CALL_LINK = new RegExp(`[ \\t]*<link\\b[^>]*\\bhref="${SESSION_CALL}"[^>]*>\\n?`);

/**
 * index.html for a landing address (Login; the transactions list of a browser with a session cookie) names the
 * files of its screens (`<link rel="modulepreload">`, from route-preloads.json of the web build), so that the
 * browser fetches them with the entry instead of after the entry has run (on a slow network each round trip
 * saved is a step less before the first screen): the `landing-preloads` speed-up. For a valid session it also names
 * the calls after the session call that the session alone decides (`<link rel="preload" as="fetch">`: the merchant
 * list of a user who picks the merchant), so that they travel with the scripts instead of after them: with the
 * session call that index.html itself names, the `first-calls` speed-up (lib/speedups.ts); with it off, no page names
 * any call. Other addresses, and a build without the file, get index.html as it is. The page and the file are read
 * again when they change on disk (a new build is served at once, as sendFile does), not on every request.
 */
function sendLandingPage(
  dist: string,
  plain: (req: FastifyRequest, reply: FastifyReply) => FastifyReply,
  firstCalls: (sessionToken: string) => Promise<string[]>,
  speedups: () => { files: boolean; calls: boolean },
) {
  const attr = (s: string) => s.replace(/[^\w./?=&-]/g, '').replaceAll('&', '&amp;');
  const readPreloads = fileReader(path.join(dist, 'route-preloads.json'), (text) => JSON.parse(text) as RoutePreloads);
  const readIndex = fileReader(path.join(dist, 'index.html'), (text) => text);
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const on = speedups();
    const address = req.url.split('?')[0]!;
    const preloads = await readPreloads().catch(() => undefined);
    // own keys only: an address like /__proto__ or /constructor names no build file
    const own = (m: RoutePreloads[keyof RoutePreloads] | undefined) =>
      m && Object.hasOwn(m, address) ? m[address] : undefined;
    const token = req.cookies[COOKIE_NAME];
    const signedIn = token ? own(preloads?.signedIn) : undefined;
    const files = own(preloads?.public) ?? signedIn;
    const landing = Array.isArray(files?.js) && Array.isArray(files.css);
    // index.html as built: not a landing page, and its own session-call link kept
    if (!landing && on.calls) return plain(req, reply);
    // for a signed-in landing, the calls after the session's that the session alone decides, asked for with it
    // (a hint only: should the session lookup fail, the page goes without it)
    const calls = landing && on.calls && signedIn && token ? await firstCalls(token).catch(() => []) : [];
    const named = landing && on.files ? files! : { js: [], css: [] };
    const links = [
      ...calls.map((c) => `<link rel="preload" as="fetch" crossorigin href="${attr(c)}">`),
      ...named.js.map((f) => `<link rel="modulepreload" crossorigin href="/${attr(f)}">`),
      ...named.css.map((f) => `<link rel="preload" as="style" crossorigin href="/${attr(f)}">`),
    ];
    let html = await readIndex();
    if (!on.calls) html = html.replace(SESSION_CALL_LINK, '');
    if (links.length) html = html.replace('</head>', `  ${links.join('\n    ')}\n  </head>`);
    return (
      reply
        .header('cache-control', 'no-cache')
        // the links differ with and without a session cookie
        .header('vary', 'cookie')
        .type('text/html; charset=utf-8')
        .send(html)
    );
  };
}
