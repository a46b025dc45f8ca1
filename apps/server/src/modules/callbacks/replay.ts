import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { CALLBACK_REPLAY_MAX, type CallbackDeliveryFilter, type CallbackReplayBody } from '@paydesk/contracts';
import type { AppContext } from '../../lib/context';
import { badRequest } from '../../lib/errors';
import type { SessionUser } from '../../plugins/auth';
import { recordAudit, staffActor } from '../audit/service';
import { checkRange, deliveryScope, matchingDeliveries } from './deliveries';

/*
 * Bulk replay (docs/operations.md, "Callbacks"): after a merchant's endpoint was down, send each event it missed once
 * more. An event is what a delivery reported (its first delivery's row); a replay is a new delivery of it, with its own
 * webhook-id (the row id), the first delivery's body, and `replay_of` naming that delivery.
 */

/** Replays of one merchant are made one at a time: two of them could otherwise both find an event idle. */
const REPLAY_LOCK = 0x636272; // "cbr"

/**
 * The deliveries a replay picks (at most one more than the cap: a wider filter is refused without reading it all) and
 * the events it sends, oldest first: an event is skipped while any delivery of it is pending (its latest one: there
 * is never more than one), and when neither its invoice nor its terminal has a callback URL now. Replays go where the
 * invoice's callbacks go today, so a merchant that moved its endpoint gets them at the new one.
 */
function eventsToReplay(scope: string, f: CallbackDeliveryFilter) {
  return sql`
    matched AS (SELECT * FROM (${matchingDeliveries(scope, f)}) d LIMIT ${CALLBACK_REPLAY_MAX + 1}),
    events AS (SELECT DISTINCT coalesce(replay_of, id) AS id FROM matched),
    todo AS (
      SELECT o.id, o.invoice_id, o.merchant_id, o.payload, o.invoice_status, o.manual, o.create_date,
        coalesce(i.callback_url, t.callback_url) AS url
      FROM events e
      JOIN callbacks o ON o.id = e.id
      JOIN invoices i ON i.id = o.invoice_id
      JOIN terminals t ON t.id = i.terminal_id
      WHERE o.status <> 'PENDING'
        AND NOT EXISTS (SELECT 1 FROM callbacks p WHERE p.replay_of = o.id AND p.status = 'PENDING')
        AND coalesce(i.callback_url, t.callback_url) IS NOT NULL
    )`;
}

const tooMany = () =>
  badRequest(
    `More than ${CALLBACK_REPLAY_MAX.toLocaleString('en')} deliveries match: a replay takes at most that many. ` +
      'Narrow the filter, e.g. to a shorter time range or one status.',
    { to: `At most ${CALLBACK_REPLAY_MAX.toLocaleString('en')} deliveries per replay` },
  );

/** The filter as the audit record keeps it: what was asked, nothing more. */
const filterOf = (b: CallbackReplayBody, merchant: string) =>
  Object.fromEntries(
    Object.entries({ ...b, merchant, preview: undefined }).filter(([, v]) => v !== undefined && v !== null),
  );

export type ReplayResult =
  | { preview: true; count: number; perSecond: number }
  | { preview: false; count: number; replayId: string; perSecond: number };

/**
 * Counts (preview) or queues a replay of the events among the deliveries the filter picks. Platform staff name the
 * merchant (one merchant per replay, so its audit trail shows it); merchant staff replay their own. Queued replays
 * fall due `callbackReplayPerSecond` (config) a second in the order their events happened, and the worker takes them only
 * after the live callbacks (tickCallbacks). The rows and their audit record are written in one transaction.
 */
export async function replayCallbacks(
  ctx: AppContext,
  user: SessionUser,
  ip: string,
  body: CallbackReplayBody,
): Promise<ReplayResult> {
  checkRange(body);
  const perSecond = ctx.config.callbackReplayPerSecond;
  if (user.permissions.includes('merchant.rw.all') && !body.merchant) {
    throw badRequest('Choose the merchant whose callbacks to replay', { merchant: 'Choose a merchant' });
  }
  const merchant = (await deliveryScope(ctx.db, user, body.merchant))!;
  if (body.preview) {
    const res = await ctx.db.execute<{ matched: number; n: number }>(sql`WITH ${eventsToReplay(merchant, body)}
      SELECT (SELECT count(*)::int FROM matched) AS matched, (SELECT count(*)::int FROM todo) AS n`);
    if (Number(res.rows[0]!.matched) > CALLBACK_REPLAY_MAX) throw tooMany();
    return { preview: true, count: Number(res.rows[0]!.n), perSecond };
  }
  const replayId = randomUUID();
  const now = ctx.now();
  const spacingMs = 1000 / perSecond;
  return ctx.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${REPLAY_LOCK}::int, hashtext(${merchant}::text))`);
    // up to 100,000 rows in one statement: the explicit limit of the long reads, not the interactive one
    await tx.execute(sql.raw(`SET LOCAL statement_timeout = ${Math.trunc(ctx.config.exportTimeoutMs)}`));
    // a filter past the cap is refused before anything is written (a read of the index entries only)
    const wide = await tx.execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM (SELECT 1 FROM (${matchingDeliveries(merchant, body)}) d
        LIMIT ${CALLBACK_REPLAY_MAX + 1}) x`);
    if (Number(wide.rows[0]!.n) > CALLBACK_REPLAY_MAX) throw tooMany();
    const res = await tx.execute<{ matched: number; n: number }>(sql`
      WITH ${eventsToReplay(merchant, body)},
      queued AS (
        INSERT INTO callbacks (invoice_id, merchant_id, url, payload, invoice_status, status, manual, next_attempt_at,
          create_date, replay_of, replay_id)
        SELECT invoice_id, merchant_id, url, payload, invoice_status, 'PENDING', manual,
          ${now.toISOString()}::timestamptz
            + ((row_number() OVER (ORDER BY create_date, id) - 1) * ${spacingMs}::float8) * interval '1 millisecond',
          ${now.toISOString()}::timestamptz, id, ${replayId}
        FROM todo
        RETURNING 1
      )
      SELECT (SELECT count(*)::int FROM matched) AS matched, (SELECT count(*)::int FROM queued) AS n`);
    // (the replays of this merchant wait for each other, but deliveries come and go: checked again, and past the cap
    // nothing is kept, the transaction rolls back)
    if (Number(res.rows[0]!.matched) > CALLBACK_REPLAY_MAX) throw tooMany();
    const count = Number(res.rows[0]!.n);
    await recordAudit(
      tx,
      staffActor(user, ip),
      {
        action: 'callbacks.replayed',
        merchantId: merchant,
        targetType: 'callback_replay',
        targetId: replayId,
        after: { filter: filterOf(body, merchant), count },
      },
      now,
    );
    return { preview: false, count, replayId, perSecond };
  });
}
