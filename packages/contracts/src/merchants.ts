import { z } from 'zod';
import { dataOf } from './common';
import { entityName } from './terminals';

export const merchantSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  clientPublicKey: z.string().nullable(),
});
export type Merchant = z.infer<typeof merchantSchema>;
export const merchantResponse = dataOf(merchantSchema);

export const merchantListQuery = z
  .object({
    page: z.coerce.number().int().min(0).default(0),
    size: z.coerce.number().int().min(1).max(200).default(50),
  })
  .strict();
export const merchantListResponse = z.object({ data: z.array(merchantSchema), total: z.number().int() });

/* ---- Merchant edit and creation (SPEC §5) ---- */

export const PUBLIC_KEY_MESSAGE = 'Public key must be an Ed25519 public key in PEM (SPKI) format';
const PEM_SHAPE = /^-----BEGIN PUBLIC KEY-----\s+[A-Za-z0-9+/=\s]+-----END PUBLIC KEY-----$/;

/** A PEM public key as pasted: trimmed, with the BEGIN/END armour. The server also parses it as Ed25519. */
export const publicKeyPem = z
  .string({ error: PUBLIC_KEY_MESSAGE })
  .trim()
  .max(4096, PUBLIC_KEY_MESSAGE)
  .regex(PEM_SHAPE, PUBLIC_KEY_MESSAGE);

export const merchantName = entityName;

export const merchantParams = z.object({ id: z.uuid({ error: 'Merchant id must be a UUID' }) }).strict();

/** PUT /api/v1/merchant/{id}: the key is changed only when sent. */
export const merchantUpdateBody = z.object({ name: merchantName, clientPublicKey: publicKeyPem.optional() }).strict();
export type MerchantUpdateBody = z.infer<typeof merchantUpdateBody>;

export const merchantCreateBody = z.object({ name: merchantName }).strict();
export type MerchantCreateBody = z.infer<typeof merchantCreateBody>;

/** The web's merchant form: an empty key field means "leave the key as it is". */
export const merchantForm = z.object({
  name: merchantName,
  clientPublicKey: z.union([z.literal(''), publicKeyPem]),
});
export type MerchantForm = z.infer<typeof merchantForm>;

/** A PEM split for display: the BEGIN line, the base64 body (joined), the END line (SPEC §2: three lines). */
export function pemDisplayLines(pem: string): [begin: string, body: string, end: string] | null {
  const lines = pem
    .trim()
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  if (lines.length < 3 || !lines[0]!.startsWith('-----BEGIN') || !lines.at(-1)!.startsWith('-----END')) return null;
  return [lines[0]!, lines.slice(1, -1).join(''), lines.at(-1)!];
}
