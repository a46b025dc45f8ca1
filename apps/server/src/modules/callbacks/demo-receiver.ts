import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../lib/context';
import { signWebhook } from './service';

export const DEMO_RECEIVER_PATH = '/api/demo/callbacks';

/**
 * A merchant endpoint for the demo (never in production): it verifies each callback's Standard
 * Webhooks signature with the merchant's secret(s), as an integrator would, and answers 204 or 401.
 * The demo seed points its terminals here, so demo callbacks are really delivered.
 */
export async function demoReceiver(app: FastifyInstance, ctx: AppContext) {
  await app.register(async (scope) => {
    // the signature covers the raw bytes: keep them
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    scope.post(DEMO_RECEIVER_PATH, { schema: { hide: true } }, async (req, reply) => {
      const raw = typeof req.body === 'string' ? req.body : '';
      const id = String(req.headers['webhook-id'] ?? '');
      const ts = Number(req.headers['webhook-timestamp']);
      const given = String(req.headers['webhook-signature'] ?? '').split(' ');
      let invoiceId: unknown;
      try {
        invoiceId = (JSON.parse(raw) as { invoiceId?: unknown }).invoiceId;
      } catch {
        return reply.status(400).send({ error: { code: 'VALIDATION_ERROR', message: 'Body is not JSON' } });
      }
      if (typeof invoiceId !== 'string' || !/^[0-9a-f-]{36}$/i.test(invoiceId) || !id || !Number.isFinite(ts)) {
        return reply.status(400).send({ error: { code: 'VALIDATION_ERROR', message: 'Not a Paydesk callback' } });
      }
      const res = await ctx.db.execute<{ secret: string; previous: string | null }>(sql`
        SELECT m.webhook_secret AS secret,
          CASE WHEN m.previous_webhook_secret_until > now() THEN m.previous_webhook_secret END AS previous
        FROM invoices i JOIN merchants m ON m.id = i.merchant_id WHERE i.id = ${invoiceId}`);
      const row = res.rows[0];
      const secrets = row ? [row.secret, row.previous].filter((s): s is string => !!s) : [];
      const ok = secrets.some((s) => {
        const expected = Buffer.from(signWebhook(s, id, ts, raw));
        return given.some((g) => g.length === expected.length && timingSafeEqual(Buffer.from(g), expected));
      });
      return ok
        ? reply.status(204).send()
        : reply.status(401).send({ error: { code: 'INVALID_SIGNATURE', message: 'Signature does not verify' } });
    });
  });
}
