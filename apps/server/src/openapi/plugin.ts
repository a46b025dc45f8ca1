import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import scalar from '@scalar/fastify-api-reference';
import { API_SURFACES } from '@paydesk/contracts';
import { publicBaseUrl } from '../config';
import type { AppContext } from '../lib/context';
import { openApiDocument } from './document';

const DOCS_PREFIX = '/api/docs';

/**
 * The developer page (Scalar, rendering the generated document) at /api/docs, the whole OpenAPI document
 * at /api/docs/json (where existing clients read it), and each published API on its own:
 * /api/docs/merchant.json, provider.json, payment-form.json, back-office.json.
 */
export async function registerDocs(app: FastifyInstance, ctx: AppContext) {
  // every API route registered after this point, for the check that each one is in the route table
  const registered: string[] = [];
  app.decorate('apiRoutes', registered);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith(DOCS_PREFIX)) return;
    if ((route.schema as { hide?: boolean } | undefined)?.hide) return;
    for (const method of [route.method].flat()) if (method !== 'HEAD') registered.push(`${method} ${route.url}`);
  });

  const publicUrl = publicBaseUrl(ctx.config);

  // The page's only script besides the bundled renderer is its inline start-up; nothing else may load.
  // The renderer itself (3 MB) is the same for a release: browsers keep it for a day.
  const docsHeaders = async (req: FastifyRequest, reply: FastifyReply) => {
    reply.header(
      'content-security-policy',
      "default-src 'self';script-src 'self' 'unsafe-inline';style-src 'self' 'unsafe-inline';" +
        "img-src 'self' data:;font-src 'self' data:;connect-src 'self';frame-ancestors 'none';base-uri 'self'",
    );
    if (req.url.endsWith('/js/scalar.js')) reply.header('cache-control', 'public, max-age=86400');
  };

  await app.register(scalar, {
    routePrefix: DOCS_PREFIX,
    openApiDocumentEndpoints: { json: '/json', yaml: '/yaml' },
    hooks: { onRequest: docsHeaders },
    configuration: {
      content: () => openApiDocument({ publicUrl }),
      pageTitle: 'Paydesk API',
      withDefaultFonts: false,
      // an integrator's page: no hosted AI chat, no deploy/share toolbar of the renderer's own service
      agent: { disabled: true },
      showDeveloperTools: 'never',
      hideClientButton: false,
    },
  });

  for (const surface of API_SURFACES) {
    app.get(`${DOCS_PREFIX}/${surface}.json`, { schema: { hide: true } }, async (_req, reply) =>
      reply.header('access-control-allow-origin', '*').send(openApiDocument({ publicUrl, surface })),
    );
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** `METHOD /path` of every API route (not hidden, not the docs): each must come from the route table. */
    apiRoutes: readonly string[];
  }
}
