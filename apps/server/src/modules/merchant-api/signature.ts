import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { merchantSignaturePayload, SIGNATURE_WINDOW_SECONDS, isUuid } from '@paydesk/contracts';
import type { AppContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import { terminalInfoSql, type TerminalInfo } from './service';

/** Parsed keys by PEM text: the PEM is read fresh per request, so a changed key takes effect at once. */
const keyCache = new Map<string, KeyObject | null>();
function keyOf(pem: string): KeyObject | null {
  let key = keyCache.get(pem);
  if (key === undefined) {
    try {
      key = createPublicKey(pem);
      if (key.asymmetricKeyType !== 'ed25519') key = null;
    } catch {
      key = null;
    }
    if (keyCache.size > 10_000) keyCache.clear();
    keyCache.set(pem, key);
  }
  return key;
}

const refuse = (message: string) => new AppError('INVALID_SIGNATURE', message);

export type SignedRequest = {
  headers: Record<string, string | string[] | undefined>;
  method: string;
  url: string;
  rawBody: string;
};

/**
 * Verifies X-Merchant-Id / X-Timestamp / X-Signature; returns the merchant id. When the (not yet trusted) body
 * names a terminal, that terminal is read in the same query as the key and returned for the caller to use only
 * once the signature has checked out.
 */
export async function verifyMerchantRequest(
  ctx: AppContext,
  req: SignedRequest,
  hint: { terminalId?: string } = {},
): Promise<{ merchantId: string; terminal?: TerminalInfo | null }> {
  const h = (name: string) => {
    const v = req.headers[name];
    return typeof v === 'string' ? v : undefined;
  };
  const merchantId = h('x-merchant-id');
  const timestamp = h('x-timestamp');
  const signature = h('x-signature');
  if (!merchantId || !timestamp || !signature) {
    throw refuse('Signed request required: send X-Merchant-Id, X-Timestamp and X-Signature headers');
  }
  if (!isUuid(merchantId)) throw refuse('X-Merchant-Id must be a merchant id (UUID)');
  if (!/^\d{1,12}$/.test(timestamp)) throw refuse('X-Timestamp must be unix seconds');
  const skew = Math.abs(Math.floor(ctx.now().getTime() / 1000) - Number(timestamp));
  if (skew > SIGNATURE_WINDOW_SECONDS) {
    throw refuse(
      `X-Timestamp is ${skew} s away from the server clock; at most ${SIGNATURE_WINDOW_SECONDS} s is accepted`,
    );
  }
  const sig = Buffer.from(signature, 'base64');
  if (sig.length !== 64) throw refuse('X-Signature must be a base64 Ed25519 signature');
  const terminalId = hint.terminalId && isUuid(hint.terminalId) ? hint.terminalId : undefined;
  const res = terminalId
    ? await ctx.db.execute<{ pem: string | null; terminal: TerminalInfo | null }>(sql`
        SELECT m.client_public_key AS pem, (SELECT row_to_json(ti) FROM (${terminalInfoSql(terminalId)}) ti) AS terminal
        FROM merchants m WHERE m.id = ${merchantId}`)
    : await ctx.db.execute<{ pem: string | null; terminal: null }>(
        sql`SELECT client_public_key AS pem, NULL AS terminal FROM merchants WHERE id = ${merchantId}`,
      );
  const m = res.rows[0];
  const key = m?.pem ? keyOf(m.pem) : null;
  const payload = Buffer.from(merchantSignaturePayload(timestamp, req.method, req.url, req.rawBody));
  if (!key || !verify(null, payload, key, sig)) throw refuse('Invalid signature');
  return { merchantId, ...(terminalId ? { terminal: m!.terminal } : {}) };
}
