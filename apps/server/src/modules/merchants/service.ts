import { createPublicKey, randomBytes } from 'node:crypto';
import { asc, count, eq } from 'drizzle-orm';
import { PUBLIC_KEY_MESSAGE, type Merchant, type MerchantUpdateBody } from '@paydesk/contracts';
import { merchants } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { badRequest, notFound } from '../../lib/errors';

const columns = { id: merchants.id, name: merchants.name, clientPublicKey: merchants.clientPublicKey };

export async function getMerchant(ctx: AppContext, id: string): Promise<Merchant> {
  const [m] = await ctx.db.select(columns).from(merchants).where(eq(merchants.id, id));
  if (!m) throw notFound('Merchant');
  return m;
}

export async function listMerchants(ctx: AppContext, page: number, size: number) {
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select(columns)
      .from(merchants)
      .orderBy(asc(merchants.createdAt), asc(merchants.name))
      .limit(size)
      .offset(page * size),
    ctx.db.select({ n: count() }).from(merchants),
  ]);
  return { data: rows, total: total?.n ?? 0 };
}

/**
 * The merchant API verifies request signatures with this key (DESIGN §3), so only a parseable
 * Ed25519 SPKI key is accepted; it is stored in canonical PEM form.
 */
export function canonicalEd25519Pem(pem: string): string {
  let key;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch {
    throw badRequest(`${PUBLIC_KEY_MESSAGE}: it could not be parsed`, { clientPublicKey: PUBLIC_KEY_MESSAGE });
  }
  if (key.asymmetricKeyType !== 'ed25519') {
    throw badRequest(`${PUBLIC_KEY_MESSAGE}: got a ${key.asymmetricKeyType ?? 'unknown'} key`, {
      clientPublicKey: PUBLIC_KEY_MESSAGE,
    });
  }
  return key.export({ type: 'spki', format: 'pem' }).toString();
}

export async function updateMerchant(ctx: AppContext, id: string, body: MerchantUpdateBody): Promise<Merchant> {
  const set: { name: string; clientPublicKey?: string } = { name: body.name };
  if (body.clientPublicKey !== undefined) set.clientPublicKey = canonicalEd25519Pem(body.clientPublicKey);
  const [m] = await ctx.db.update(merchants).set(set).where(eq(merchants.id, id)).returning(columns);
  if (!m) throw notFound('Merchant');
  return m;
}

/** A real merchant with its own webhook secret; it signs API calls once a public key is set. */
export async function createMerchant(ctx: AppContext, name: string): Promise<Merchant> {
  const [m] = await ctx.db
    .insert(merchants)
    .values({
      name,
      clientPublicKey: null,
      webhookSecret: `whsec_${randomBytes(32).toString('base64')}`,
      createdAt: ctx.now(),
    })
    .returning(columns);
  return m!;
}
