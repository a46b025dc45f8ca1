import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/create-db';

/**
 * What replays must never break, read from the database (the replay tests and the engine's model test): an event is
 * never in flight twice, a replay sends its event's own body for its own invoice and merchant, it names the event's
 * first delivery (never another replay), each bulk replay queued exactly the count its audit record says, and the
 * hourly attempt counts that endpoint health reads are the attempts themselves.
 * Throws with the offending rows (and the log of actions that led there) on the first one broken.
 */
export async function checkCallbackInvariants(db: DbOrTx, log: readonly string[] = []) {
  const q = async (s: ReturnType<typeof sql>) => (await db.execute<Record<string, unknown>>(s)).rows;
  const fail = (msg: string, rows: unknown) => {
    throw new Error(`${msg}: ${JSON.stringify(rows)}\nafter:\n${log.join('\n')}`);
  };
  const twice = await q(sql`SELECT coalesce(replay_of, id) AS event, count(*)::int AS n FROM callbacks
    WHERE status = 'PENDING' GROUP BY 1 HAVING count(*) > 1 LIMIT 5`);
  if (twice.length) fail('an event has two deliveries in flight', twice);
  const unlike = await q(sql`SELECT r.id, r.replay_of FROM callbacks r JOIN callbacks o ON o.id = r.replay_of
    WHERE o.replay_of IS NOT NULL OR r.payload <> o.payload OR r.invoice_id <> o.invoice_id
      OR r.merchant_id <> o.merchant_id OR r.replay_id IS NULL LIMIT 5`);
  if (unlike.length) fail('a replay is not its event sent again', unlike);
  const miscounted = await q(sql`
    SELECT a.target_id, (a.after ->> 'count')::int AS audited, count(c.id)::int AS queued
    FROM audit_log a LEFT JOIN callbacks c ON c.replay_id::text = a.target_id
    WHERE a.action = 'callbacks.replayed'
    GROUP BY a.target_id, a.after HAVING (a.after ->> 'count')::int <> count(c.id) LIMIT 5`);
  if (miscounted.length) fail('a replay queued another number of deliveries than its audit record says', miscounted);
  const unaudited = await q(sql`SELECT DISTINCT c.replay_id FROM callbacks c
    WHERE c.replay_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM audit_log a
      WHERE a.action = 'callbacks.replayed' AND a.target_id = c.replay_id::text) LIMIT 5`);
  if (unaudited.length) fail('deliveries were replayed without an audit record', unaudited);
  // the hourly counts endpoint health reads are the attempts, hour by hour
  const hours = await q(sql`
    WITH counted AS (
      SELECT merchant_id, date_trunc('hour', attempted_at, 'UTC') AS hour, count(*)::int AS attempts,
        (count(*) FILTER (WHERE response_code BETWEEN 200 AND 299))::int AS succeeded
      FROM callback_attempts GROUP BY 1, 2)
    SELECT coalesce(c.merchant_id, h.merchant_id) AS merchant_id, coalesce(c.hour, h.hour) AS hour,
      c.attempts, h.attempts AS kept, c.succeeded, h.succeeded AS kept_succeeded
    FROM counted c FULL OUTER JOIN callback_attempt_hours h ON h.merchant_id = c.merchant_id AND h.hour = c.hour
    WHERE c.attempts IS DISTINCT FROM h.attempts OR c.succeeded IS DISTINCT FROM h.succeeded LIMIT 5`);
  if (hours.length) fail('the hourly attempt counts differ from the attempts', hours);
}
