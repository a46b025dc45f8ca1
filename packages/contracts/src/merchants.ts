import { z } from 'zod';
import { dataOf } from './common';
import { entityName } from './terminals';

const merchantSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  clientPublicKey: z.string().nullable(),
  /** after a webhook-secret rotation, callbacks carry the old secret's signature too until this time */
  previousWebhookSecretUntil: z.iso.datetime().nullable(),
  /** every user of this merchant must sign in with a second factor */
  requireTwoFactor: z.boolean(),
});
export type Merchant = z.infer<typeof merchantSchema>;
export const merchantResponse = dataOf(merchantSchema);

export const merchantListQuery = z
  .object({
    // a bound on the work a request asks for: 10,000 pages of up to 200 merchants
    page: z.coerce.number().int().min(0).max(10_000).default(0),
    size: z.coerce.number().int().min(1).max(200).default(50),
  })
  .strict();
export const merchantListResponse = z.object({ data: z.array(merchantSchema), total: z.number().int() });

/* ---- Merchant edit and creation ---- */

export const PUBLIC_KEY_MESSAGE = 'Public key must be an Ed25519 public key in PEM (SPKI) format';
const PEM_SHAPE = /^-----BEGIN PUBLIC KEY-----\s+[A-Za-z0-9+/=\s]+-----END PUBLIC KEY-----$/;

/** A PEM public key as pasted: trimmed, with the BEGIN/END armour. The server also parses it as Ed25519. */
const publicKeyPem = z
  .string({ error: PUBLIC_KEY_MESSAGE })
  .trim()
  .max(4096, PUBLIC_KEY_MESSAGE)
  .regex(PEM_SHAPE, PUBLIC_KEY_MESSAGE);

const merchantName = entityName;

export const merchantParams = z.object({ id: z.uuid({ error: 'Merchant id must be a UUID' }) }).strict();

/** PUT /api/v1/merchant/{id}: the name (merchant.read). Keys have routes of their own (merchant.key.edit). */
export const merchantUpdateBody = z.object({ name: merchantName }).strict();
export type MerchantUpdateBody = z.infer<typeof merchantUpdateBody>;

/** PUT /api/v1/merchant/{id}/public-key: the Ed25519 key the merchant API verifies signatures with. */
export const merchantPublicKeyBody = z.object({ clientPublicKey: publicKeyPem }).strict();
export type MerchantPublicKeyBody = z.infer<typeof merchantPublicKeyBody>;

/** How long the previous webhook secret keeps signing after a rotation. */
export const WEBHOOK_SECRET_OVERLAP_HOURS = 24;
/** POST /api/v1/merchant/{id}/webhook-secret: the new secret, shown this once. */
export const webhookSecretResponse = dataOf(
  z.object({ webhookSecret: z.string().startsWith('whsec_'), previousValidUntil: z.iso.datetime() }),
);
export type RotatedWebhookSecret = z.infer<typeof webhookSecretResponse>['data'];

export const merchantCreateBody = z.object({ name: merchantName }).strict();
export type MerchantCreateBody = z.infer<typeof merchantCreateBody>;

/** The web's merchant form (name) and public-key form. */
export const merchantForm = z.object({ name: merchantName });
export type MerchantForm = z.infer<typeof merchantForm>;

/** A PEM split for display: the BEGIN line, the base64 body (joined), the END line (three lines). */
export function pemDisplayLines(pem: string): [begin: string, body: string, end: string] | null {
  const lines = pem
    .trim()
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  if (lines.length < 3 || !lines[0]!.startsWith('-----BEGIN') || !lines.at(-1)!.startsWith('-----END')) return null;
  return [lines[0]!, lines.slice(1, -1).join(''), lines.at(-1)!];
}

/** Whether every user of the merchant must use two-factor sign-in (set by someone who manages its team). */
export const merchantTwoFactorPolicyBody = z.object({ requireTwoFactor: z.boolean() }).strict();
export type MerchantTwoFactorPolicyBody = z.infer<typeof merchantTwoFactorPolicyBody>;
