import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { webhookPayload } from '@paydesk/contracts';
import type { AppContext } from '../../lib/context';

export const DEMO_RECEIVER_PATH = '/api/demo/callbacks';

/** The headers kept with each receipt: what a Standard Webhooks verifier reads, and who sent it. */
const KEPT_HEADERS = ['content-type', 'user-agent', 'webhook-id', 'webhook-timestamp', 'webhook-signature'];
/** Receipts kept per invoice (the newest); older ones are dropped as new ones arrive. */
const KEPT_PER_INVOICE = 50;
const MAX_BODY_KEPT = 16_384;

type Verdict = { status: 204 | 400 | 401; verified: boolean; result: string };

/**
 * Verifies a callback as an integrator would: with the `standardwebhooks` library (not our own signing
 * code) and each secret the merchant has (the current one, and the previous one during a rotation's
 * overlap), then checks the body against the documented schema.
 */
function verify(raw: string, headers: Record<string, string>, secrets: { secret: string; label: string }[]): Verdict {
  let label: string | null = null;
  let reason = 'the merchant has no webhook secret';
  for (const s of secrets) {
    try {
      new Webhook(s.secret).verify(raw, headers);
      label = s.label;
      break;
    } catch (e) {
      reason = (e as Error).message;
    }
  }
  if (!label) return { status: 401, verified: false, result: `Signature does not verify: ${reason}` };
  const body = webhookPayload.safeParse(JSON.parse(raw));
  if (!body.success) {
    const first = body.error.issues[0]!;
    return {
      status: 400,
      verified: true,
      result: `Signature verified (${label}), but the body does not match the schema: ${first.path.join('.') || 'body'}: ${first.message}`,
    };
  }
  return {
    status: 204,
    verified: true,
    result: `Signature verified with standardwebhooks (${label}); body matches the schema`,
  };
}

/**
 * A merchant endpoint for the demo (never in production): it verifies each callback's Standard
 * Webhooks signature with the merchant's secret(s), as an integrator would, answers 204, 400 or 401,
 * and keeps what it got (headers, body, verdict) for the invoice's Callbacks section. The demo seed
 * points its terminals here, so a newcomer sees a delivered, verified callback right after `npm start`.
 * Receipts are kept only for invoices that exist, the newest 50 of each.
 */
export async function demoReceiver(app: FastifyInstance, ctx: AppContext) {
  await app.register(async (scope) => {
    // the signature covers the raw bytes: keep them
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    scope.post(DEMO_RECEIVER_PATH, { schema: { hide: true } }, async (req, reply) => {
      const raw = typeof req.body === 'string' ? req.body : '';
      let invoiceId: unknown;
      try {
        invoiceId = (JSON.parse(raw) as { invoiceId?: unknown }).invoiceId;
      } catch {
        return reply.status(400).send({ error: { code: 'VALIDATION_ERROR', message: 'Body is not JSON' } });
      }
      const webhookId = req.headers['webhook-id'];
      if (typeof invoiceId !== 'string' || !/^[0-9a-f-]{36}$/i.test(invoiceId) || typeof webhookId !== 'string') {
        return reply.status(400).send({ error: { code: 'VALIDATION_ERROR', message: 'Not a Paydesk callback' } });
      }
      const res = await ctx.db.execute<{ secret: string | null; previous: string | null }>(sql`
        SELECT m.webhook_secret AS secret,
          CASE WHEN m.previous_webhook_secret_until > ${ctx.now().toISOString()}::timestamptz
               THEN m.previous_webhook_secret END AS previous
        FROM invoices i JOIN merchants m ON m.id = i.merchant_id WHERE i.id = ${invoiceId}`);
      const row = res.rows[0];
      if (!row) {
        return reply.status(400).send({ error: { code: 'VALIDATION_ERROR', message: 'No such invoice' } });
      }
      const headers = Object.fromEntries(
        KEPT_HEADERS.flatMap((h) => (typeof req.headers[h] === 'string' ? [[h, req.headers[h] as string]] : [])),
      );
      const secrets = [
        ...(row.secret ? [{ secret: row.secret, label: 'current secret' }] : []),
        ...(row.previous ? [{ secret: row.previous, label: 'previous secret, rotation overlap' }] : []),
      ];
      const verdict = verify(raw, headers, secrets);
      await ctx.db.transaction(async (tx) => {
        await tx.execute(sql`
          INSERT INTO demo_callback_inbox (invoice_id, webhook_id, received_at, headers, body, verified, result)
          VALUES (${invoiceId}, ${webhookId.slice(0, 100)}, ${ctx.now().toISOString()}::timestamptz,
            ${JSON.stringify(headers)}::jsonb, ${raw.slice(0, MAX_BODY_KEPT)}, ${verdict.verified}, ${verdict.result})`);
        await tx.execute(sql`
          DELETE FROM demo_callback_inbox WHERE invoice_id = ${invoiceId} AND id NOT IN (
            SELECT id FROM demo_callback_inbox WHERE invoice_id = ${invoiceId}
            ORDER BY received_at DESC, id DESC LIMIT ${KEPT_PER_INVOICE})`);
      });
      if (verdict.status === 204) return reply.status(204).send();
      return reply.status(verdict.status).send({
        error: { code: verdict.status === 401 ? 'INVALID_SIGNATURE' : 'VALIDATION_ERROR', message: verdict.result },
      });
    });
  });
}
