import { createHmac } from 'node:crypto';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import {
  CALLBACK_GIVE_UP_MS,
  callbackBackoffMs,
  webhookPayload,
  type CallbackItem,
  type WebhookPayload,
  type WebhookType,
} from '@paydesk/contracts';
import type { DbOrTx, Tx } from '../../db/create-db';
import { callbackAttempts, callbacks, demoCallbackInbox, type invoices } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { ownedInvoice } from '../../lib/tenant';
import { fetch as undiciFetch } from 'undici';
import { literalPrivateTarget, publicOnlyDispatcher } from '../../lib/egress';

type InvoiceRow = typeof invoices.$inferSelect;

/** Lease taken on a claimed callback while it is delivered (longer than the 10 s delivery timeout). */
const CLAIM_LEASE_MS = 60_000;
const DELIVERY_TIMEOUT_MS = 10_000;

/** Currency codes by id: reference data that never changes once written, read once per process. */
const currencyCodes = new Map<number, string>();
async function currencyCode(tx: Tx, currencyId: number) {
  let code = currencyCodes.get(currencyId);
  if (code === undefined) {
    const res = await tx.execute<{ code: string }>(sql`SELECT code FROM currencies WHERE id = ${currencyId}`);
    code = res.rows[0]!.code;
    currencyCodes.set(currencyId, code);
  }
  return code;
}

/**
 * The body of a callback about an invoice, built from the contracts' schema and checked against it:
 * what the document's `webhooks` promise is what is stored and sent (a mismatch is a bug, and fails here).
 */
async function webhookPayloadOf(tx: Tx, inv: InvoiceRow, type: WebhookType): Promise<WebhookPayload> {
  return webhookPayload.parse({
    type,
    invoiceId: inv.id,
    merchantInvoiceId: inv.merchantInvoiceId,
    flowType: inv.flowType,
    status: inv.status,
    amount: inv.amount,
    currency: await currencyCode(tx, inv.currencyId),
    isTest: inv.isTest,
    statusDate: inv.statusDate.toISOString(),
  } satisfies Record<keyof WebhookPayload, unknown>);
}

/**
 * Transactional outbox: written in the transaction of the change it reports. The URL is the
 * invoice's callbackUrl, else its terminal's; without one the row is kept as NO_URL.
 */
export async function enqueueCallback(tx: Tx, inv: InvoiceRow, at: Date, type: WebhookType = 'invoice.status') {
  const res = await tx.execute<{ id: string; status: string }>(
    sql`${await callbackInsert(tx, inv, at, type)} RETURNING id, status`,
  );
  return res.rows[0]!;
}

/**
 * The outbox row's INSERT, as a statement to send: enqueueCallback sends it alone, and the engine's write path sends
 * it with the change's status event and event-log entries, in one round trip (engine/service.ts writeTrail).
 */
export async function callbackInsert(tx: Tx, inv: InvoiceRow, at: Date, type: WebhookType = 'invoice.status') {
  const manual = type === 'invoice.manual';
  const payload = JSON.stringify(await webhookPayloadOf(tx, inv, type));
  return sql`
    INSERT INTO callbacks (invoice_id, merchant_id, url, payload, invoice_status, status, manual, next_attempt_at, create_date)
    SELECT ${inv.id}, ${inv.merchantId}, COALESCE(${inv.callbackUrl}::text, t.callback_url), ${payload}::jsonb,
      ${inv.status},
      CASE WHEN COALESCE(${inv.callbackUrl}::text, t.callback_url) IS NULL THEN 'NO_URL' ELSE 'PENDING' END,
      ${manual}, ${at.toISOString()}::timestamptz, ${at.toISOString()}::timestamptz
    FROM terminals t WHERE t.id = ${inv.terminalId}`;
}

/** An invoice's callbacks, for the merchant it belongs to (another merchant's invoice: 404). */
export async function listCallbacksOf(db: DbOrTx, merchantId: string, invoiceId: string): Promise<CallbackItem[]> {
  await ownedInvoice(db, merchantId, invoiceId);
  return listCallbacks(db, invoiceId);
}

async function listCallbacks(db: DbOrTx, invoiceId: string): Promise<CallbackItem[]> {
  const rows = await db
    .select()
    .from(callbacks)
    .where(eq(callbacks.invoiceId, invoiceId))
    .orderBy(asc(callbacks.createDate), asc(callbacks.id));
  if (!rows.length) return [];
  const attempts = await db
    .select()
    .from(callbackAttempts)
    .where(
      inArray(
        callbackAttempts.callbackId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(callbackAttempts.attemptedAt), asc(callbackAttempts.id));
  const receipts = await db
    .select()
    .from(demoCallbackInbox)
    .where(eq(demoCallbackInbox.invoiceId, invoiceId))
    .orderBy(asc(demoCallbackInbox.receivedAt), asc(demoCallbackInbox.id));
  return rows.map((r) => ({
    id: r.id,
    status: r.status as CallbackItem['status'],
    invoiceStatus: r.invoiceStatus,
    manual: r.manual,
    createDate: r.createDate.toISOString(),
    executionDate: r.executionDate?.toISOString() ?? null,
    attempts: attempts
      .filter((a) => a.callbackId === r.id)
      .map((a) => ({
        attemptedAt: a.attemptedAt.toISOString(),
        responseCode: a.responseCode,
        latencyMs: a.latencyMs,
        error: a.error,
      })),
    received: receipts
      .filter((x) => x.webhookId === r.id)
      .map((x) => ({
        receivedAt: x.receivedAt.toISOString(),
        headers: x.headers as Record<string, string>,
        body: x.body,
        verified: x.verified,
        result: x.result,
      })),
  }));
}

/** Standard Webhooks signature: v1,base64(HMAC-SHA256(secret, `${id}.${timestamp}.${body}`)). */
function signWebhook(secret: string, id: string, timestamp: number, body: string) {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * The webhook-signature header: the current secret's signature, and during a rotation's overlap the
 * previous secret's too, space-separated as Standard Webhooks allows, so either verifier accepts it.
 */
function webhookSignatureHeader(secrets: readonly string[], id: string, timestamp: number, body: string) {
  return secrets.map((s) => signWebhook(s, id, timestamp, body)).join(' ');
}

type Claimed = {
  id: string;
  merchantId: string;
  url: string;
  payload: unknown;
  attempts: number;
  createDate: Date;
  secrets: string[];
};

/**
 * A tick's share of replayed deliveries (callbacks/replay.ts), at most: the merchants' live callbacks are claimed
 * first, and replays only fill what room is left, up to this share of the batch. A bulk replay of thousands therefore
 * never holds back a live status change, and reaches the merchant at a bounded rate.
 */
const REPLAY_SHARE_OF_TICK = 0.5;

/**
 * One pass of the callback worker: claims due rows (FOR UPDATE SKIP LOCKED, lease by bumping
 * next_attempt_at) in a short transaction, delivers them outside it, then records each attempt.
 * Live callbacks (an event's first delivery, and its retries) come first; replays take what room is left, at most
 * `replayLimit`. Returns how many were attempted.
 */
export async function tickCallbacks(ctx: AppContext, opts: { limit?: number; replayLimit?: number } = {}) {
  return (await sendDueCallbacks(ctx, opts)).done;
}

/**
 * A pass of the callback worker (tickCallbacks), and whether another pass may find more due at once: the live
 * callbacks filled the batch, or the replays filled their share of it. The worker then runs again without waiting, so
 * that a replay is sent at the rate its deliveries fall due (callbackReplayPerSecond), not at one share a tick.
 */
export async function sendDueCallbacks(
  ctx: AppContext,
  opts: { limit?: number; replayLimit?: number } = {},
): Promise<{ done: number; more: boolean }> {
  const now = ctx.now();
  const limit = opts.limit ?? 50;
  const replayLimit = opts.replayLimit ?? Math.max(1, Math.floor(limit * REPLAY_SHARE_OF_TICK));
  const due = sql`status = 'PENDING' AND next_attempt_at <= ${now.toISOString()}::timestamptz`;
  let more = false;
  const claimed = await ctx.db.transaction(async (tx) => {
    // each from its own partial index (callbacks_due_first_idx, callbacks_due_replay_idx)
    const live = await tx.execute<{ id: string }>(sql`
      SELECT id FROM callbacks WHERE ${due} AND replay_of IS NULL
      ORDER BY next_attempt_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED`);
    const room = Math.min(replayLimit, limit - live.rows.length);
    const replays =
      room > 0
        ? await tx.execute<{ id: string }>(sql`
            SELECT id FROM callbacks WHERE ${due} AND replay_of IS NOT NULL
            ORDER BY next_attempt_at, id LIMIT ${room} FOR UPDATE SKIP LOCKED`)
        : { rows: [] };
    more = live.rows.length >= limit || (room > 0 && replays.rows.length >= room);
    const ids = [...live.rows, ...replays.rows].map((r) => r.id);
    if (!ids.length) return [];
    const res = await tx.execute<{
      id: string;
      merchant_id: string;
      url: string;
      payload: unknown;
      attempts: number;
      create_date: string | Date;
      secret: string;
      previous_secret: string | null;
    }>(sql`
      UPDATE callbacks cb SET next_attempt_at = ${new Date(now.getTime() + CLAIM_LEASE_MS).toISOString()}::timestamptz
      FROM merchants m
      WHERE cb.id IN (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )}) AND m.id = cb.merchant_id
      RETURNING cb.id, cb.merchant_id, cb.url, cb.payload, cb.attempts, cb.create_date, m.webhook_secret AS secret,
        CASE WHEN m.previous_webhook_secret_until > ${now.toISOString()}::timestamptz
             THEN m.previous_webhook_secret END AS previous_secret`);
    // in the order claimed (due time): UPDATE … RETURNING gives rows in no particular order, and deliveries start in
    // this order, so that an invoice's callbacks leave as they were made
    const order = new Map(ids.map((id, i) => [id, i]));
    return res.rows
      .sort((a, b) => order.get(a.id)! - order.get(b.id)!)
      .map((r): Claimed => ({
        id: r.id,
        merchantId: r.merchant_id,
        url: r.url,
        payload: r.payload,
        attempts: r.attempts,
        createDate: new Date(r.create_date),
        secrets: r.previous_secret ? [r.secret, r.previous_secret] : [r.secret],
      }));
  });
  const outcomes = await Promise.all(claimed.map((c) => deliver(ctx, c)));
  await recordOutcomes(ctx, outcomes).catch(async () => {
    // the pass's transaction failed: each outcome on its own, so that one bad row loses no other (an outcome not
    // recorded is sent again once its lease runs out); the first failure is reported
    let failed: unknown;
    for (const o of outcomes) await recordOutcomes(ctx, [o]).catch((e: unknown) => (failed ??= e));
    if (failed !== undefined) throw failed;
  });
  return { done: claimed.length, more };
}

async function deliver(ctx: AppContext, c: Claimed) {
  const body = JSON.stringify(c.payload);
  const attemptedAt = ctx.now();
  const timestamp = Math.floor(attemptedAt.getTime() / 1000);
  const started = performance.now();
  let responseCode: number | null = null;
  let error: string | null = null;
  try {
    // the address is checked where the connection is made (publicOnlyDispatcher), not resolved twice
    const refused = ctx.config.callbackAllowPrivate ? null : literalPrivateTarget(c.url);
    if (refused) throw new Error(refused);
    const res = await undiciFetch(c.url, {
      dispatcher: ctx.config.callbackAllowPrivate ? undefined : publicOnlyDispatcher,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Paydesk-Webhooks/1.0',
        'webhook-id': c.id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': webhookSignatureHeader(c.secrets, c.id, timestamp, body),
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    responseCode = res.status;
    await res.body?.cancel().catch(() => undefined);
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    error =
      e.name === 'TimeoutError'
        ? 'Timed out after 10 s'
        : (e.cause?.code === 'EPRIVATEADDRESS' ? e.cause.message! : (e.cause?.code ?? e.message)).slice(0, 300);
  }
  const latencyMs = Math.round(performance.now() - started);
  const delivered = responseCode !== null && responseCode >= 200 && responseCode < 300;
  const attempts = c.attempts + 1;
  const after = ctx.now();
  const giveUp = !delivered && after.getTime() - c.createDate.getTime() >= CALLBACK_GIVE_UP_MS;
  return {
    id: c.id,
    merchantId: c.merchantId,
    attempts,
    status: delivered ? 'DELIVERED' : giveUp ? 'FAILED' : 'PENDING',
    executionDate: after,
    nextAttemptAt: delivered || giveUp ? after : new Date(after.getTime() + callbackBackoffMs(attempts)),
    attemptedAt,
    responseCode,
    latencyMs,
    error,
  };
}

type Outcome = Awaited<ReturnType<typeof deliver>>;

/**
 * A pass's outcomes in one transaction: each callback's new state, then its attempt. One transaction a pass, not one
 * a delivery: every attempt's trigger adds to its merchant's hour (callback_attempt_hours), a row all of a merchant's
 * deliveries touch, and a pass of deliveries to one merchant each waiting for it held as many pooled connections.
 */
async function recordOutcomes(ctx: AppContext, out: Outcome[]) {
  if (!out.length) return;
  const states = out.map((o) => ({
    id: o.id,
    attempts: o.attempts,
    status: o.status,
    execution_date: o.executionDate,
    next_attempt_at: o.nextAttemptAt,
  }));
  await ctx.db.transaction(async (tx) => {
    await tx.execute(sql`
      UPDATE callbacks c SET attempts = v.attempts, status = v.status, execution_date = v.execution_date,
        next_attempt_at = v.next_attempt_at
      FROM jsonb_to_recordset(${JSON.stringify(states)}::jsonb)
        AS v(id uuid, attempts int, status text, execution_date timestamptz, next_attempt_at timestamptz)
      WHERE c.id = v.id AND c.status = 'PENDING'`);
    // last: the attempts' trigger holds the merchants' hour rows only until the commit that follows; in one order
    // (merchant, then time), so that two processes' passes never wait for each other's hour rows crosswise
    const ordered = [...out].sort(
      (x, y) =>
        (x.merchantId < y.merchantId ? -1 : x.merchantId > y.merchantId ? 1 : 0) ||
        x.attemptedAt.getTime() - y.attemptedAt.getTime(),
    );
    await tx.insert(callbackAttempts).values(
      ordered.map((o) => ({
        callbackId: o.id,
        merchantId: o.merchantId,
        attemptedAt: o.attemptedAt,
        responseCode: o.responseCode,
        latencyMs: o.latencyMs,
        error: o.error,
      })),
    );
  });
}
