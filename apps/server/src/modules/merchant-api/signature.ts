import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { merchantSignaturePayload, SIGNATURE_WINDOW_SECONDS, isUuid } from '@paydesk/contracts';
import type { AppContext } from '../../lib/context';
import { AppError } from '../../lib/errors';
import type { Params } from '../../lib/prepared';
import { speedupOn } from '../../lib/speedups';
import { terminalInfoSql, type TerminalInfo } from './terminal-info';

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

/**
 * The merchant's public key and, when the body names one, the terminal as createGuardSql reads it again (jsonb).
 * bench:merchant-api runs it under pgbench.
 */
export const merchantKeySql = (merchantId: string, terminalId?: string) =>
  terminalId
    ? sql`
        SELECT m.client_public_key AS pem, x.terminal
        FROM merchants m LEFT JOIN LATERAL (SELECT to_jsonb(ti) AS terminal FROM (${terminalInfoSql(terminalId)}) ti) x ON true
        WHERE m.id = ${merchantId}`
    : sql`SELECT client_public_key AS pem, NULL AS terminal FROM merchants WHERE id = ${merchantId}`;

/**
 * What a create was checked against: the key that verified its signature, and the terminal it was validated with
 * (`terminal`: that TerminalInfo as JSON). createGuardSql holds the insert to them, so a create checked against a
 * remembered key or terminal that has since changed writes nothing (and is checked again against the database).
 */
export type CreateGuard = { merchantId: string; pem: string; terminalId: string; terminal: string };

/**
 * The insert's condition: the key is still the one that verified the signature, and the terminal, read again by
 * terminalInfoSql, still equals the one the create was validated with. The terminal is compared as a value (jsonb
 * equality: each field by its name, whatever the order of the columns), so every fact the create was checked against
 * is compared, and nothing else: a field added to TerminalInfo is compared without a change here.
 */
export const createGuardSql = (g: Params<CreateGuard>) => sql`
  EXISTS (SELECT 1 FROM merchants m WHERE m.id = ${g.merchantId} AND m.client_public_key = ${g.pem})
  AND (SELECT to_jsonb(ti) FROM (${terminalInfoSql(g.terminalId)}) ti) = ${g.terminal}::jsonb`;

/**
 * Keys and terminals as last read, per merchant, for creates only (the `remembered-creates` speed-up, lib/speedups.ts;
 * docs/performance.md): a create signed with the remembered key is checked without reading them (one round trip a
 * create instead of two); its insert is guarded by createGuardSql, so a changed key or terminal still takes effect at
 * once. Other requests always read the key.
 */
type Known = { pem: string; key: KeyObject; terminals: Map<string, { info: TerminalInfo; json: string }> };
const known = new Map<string, Known>();
const KNOWN_MERCHANTS_MAX = 10_000;
const KNOWN_TERMINALS_MAX = 1_000;

function remember(
  merchantId: string,
  pem: string,
  key: KeyObject,
  terminalId: string,
  info: TerminalInfo,
  json: string,
) {
  let k = known.get(merchantId);
  if (!k || k.pem !== pem) {
    if (known.size >= KNOWN_MERCHANTS_MAX) known.clear();
    k = { pem, key, terminals: new Map() };
    known.set(merchantId, k);
  }
  if (k.terminals.size >= KNOWN_TERMINALS_MAX) k.terminals.clear();
  k.terminals.set(terminalId, { info, json });
}

/** Drops what is remembered of a merchant (its insert found the key or a terminal changed). */
export function forgetMerchant(merchantId: string) {
  known.delete(merchantId);
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
  hint: { terminalId?: string; create?: boolean } = {},
): Promise<{ merchantId: string; terminal?: TerminalInfo | null; guard?: CreateGuard; remembered?: true }> {
  const h = (name: string) => {
    const v = req.headers[name];
    return typeof v === 'string' ? v : undefined;
  };
  const merchantIdSent = h('x-merchant-id');
  const timestamp = h('x-timestamp');
  const signature = h('x-signature');
  if (!merchantIdSent || !timestamp || !signature) {
    throw refuse('Signed request required: send X-Merchant-Id, X-Timestamp and X-Signature headers');
  }
  if (!isUuid(merchantIdSent)) throw refuse('X-Merchant-Id must be a merchant id (UUID)');
  // ids as the database writes them (a UUID may come in capitals): the remembered keys and the guard compare them
  const merchantId = merchantIdSent.toLowerCase();
  if (!/^\d{1,12}$/.test(timestamp)) throw refuse('X-Timestamp must be unix seconds');
  const skew = Math.abs(Math.floor(ctx.now().getTime() / 1000) - Number(timestamp));
  if (skew > SIGNATURE_WINDOW_SECONDS) {
    throw refuse(
      `X-Timestamp is ${skew} s away from the server clock; at most ${SIGNATURE_WINDOW_SECONDS} s is accepted`,
    );
  }
  const sig = Buffer.from(signature, 'base64');
  if (sig.length !== 64) throw refuse('X-Signature must be a base64 Ed25519 signature');
  const terminalId = hint.terminalId && isUuid(hint.terminalId) ? hint.terminalId.toLowerCase() : undefined;
  const payload = Buffer.from(merchantSignaturePayload(timestamp, req.method, req.url, req.rawBody));
  const remembering = hint.create && speedupOn(ctx.config, 'remembered-creates');
  if (remembering && terminalId) {
    const k = known.get(merchantId);
    const term = k?.terminals.get(terminalId);
    if (k && term && verify(null, payload, k.key, sig)) {
      return {
        merchantId,
        terminal: term.info,
        guard: { merchantId, pem: k.pem, terminalId, terminal: term.json },
        remembered: true,
      };
    }
    // not remembered, or signed with another key than the remembered one: read them
  }
  const res = await ctx.db.execute<{ pem: string | null; terminal: TerminalInfo | null }>(
    merchantKeySql(merchantId, terminalId),
  );
  const m = res.rows[0];
  const key = m?.pem ? keyOf(m.pem) : null;
  if (!key || !verify(null, payload, key, sig)) throw refuse('Invalid signature');
  if (!terminalId) return { merchantId };
  if (!m!.terminal) return { merchantId, terminal: null };
  const json = JSON.stringify(m!.terminal);
  if (remembering) remember(merchantId, m!.pem!, key, terminalId, m!.terminal, json);
  return { merchantId, terminal: m!.terminal, guard: { merchantId, pem: m!.pem!, terminalId, terminal: json } };
}
