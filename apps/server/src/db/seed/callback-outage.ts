import { sql } from 'drizzle-orm';
import { CALLBACK_GIVE_UP_MS, callbackBackoffMs } from '@paydesk/contracts';
import type { Tx } from '../create-db';

const DAY = 24 * 3600_000;
/** The day the demo merchant's endpoint was down: from six to five days before the seed's "now". */
export const OUTAGE_FROM_DAYS_AGO = 6;
export const OUTAGE_TO_DAYS_AGO = 5;

/**
 * When a callback that never gets a 2xx is attempted, after its creation: the worker's schedule (30 s doubling, capped
 * at 1 h) up to the first attempt at or past the 72 h give-up, after which it is FAILED.
 */
export function givenUpSchedule(): number[] {
  const offsets = [1000];
  while (offsets.at(-1)! < CALLBACK_GIVE_UP_MS) offsets.push(offsets.at(-1)! + callbackBackoffMs(offsets.length));
  return offsets;
}

/**
 * A day-long outage of a merchant's callback endpoint in the demo history (what the Merchant page's Callback endpoint
 * card, the deliveries list and the bulk replay are for): every callback created that day was refused or timed out on
 * each attempt of its schedule and ended FAILED after 72 h; later callbacks were delivered as usual. Written over the
 * generated history with no draws of its own, so the rest of the seed stays as it was.
 */
export async function seedCallbackOutage(tx: Tx, merchantId: string, now: number) {
  const from = new Date(now - OUTAGE_FROM_DAYS_AGO * DAY).toISOString();
  const to = new Date(now - OUTAGE_TO_DAYS_AGO * DAY).toISOString();
  const offsets = givenUpSchedule();
  const hit = sql`SELECT id FROM callbacks
    WHERE merchant_id = ${merchantId} AND create_date >= ${from}::timestamptz AND create_date < ${to}::timestamptz`;
  await tx.execute(sql`DELETE FROM callback_attempts WHERE callback_id IN (${hit})`);
  // every fourth attempt timed out, the others got a 503 from the merchant's load balancer
  await tx.execute(sql`
    INSERT INTO callback_attempts (callback_id, merchant_id, attempted_at, response_code, latency_ms, error)
    SELECT c.id, c.merchant_id, c.create_date + o.ms * interval '1 millisecond',
      CASE WHEN o.n % 4 = 0 THEN NULL ELSE 503 END,
      CASE WHEN o.n % 4 = 0 THEN 10000 ELSE 40 + (o.n * 7) % 60 END,
      CASE WHEN o.n % 4 = 0 THEN 'Timed out after 10 s' END
    FROM callbacks c
    CROSS JOIN unnest(${`{${offsets.join(',')}}`}::float8[]) WITH ORDINALITY AS o(ms, n)
    WHERE c.id IN (${hit})`);
  // the hourly counts were made as the generated attempts went in: made again from what the merchant's attempts are now
  await tx.execute(sql`DELETE FROM callback_attempt_hours WHERE merchant_id = ${merchantId}`);
  await tx.execute(sql`
    INSERT INTO callback_attempt_hours (merchant_id, hour, attempts, succeeded)
    SELECT merchant_id, date_trunc('hour', attempted_at, 'UTC'), count(*),
      count(*) FILTER (WHERE response_code BETWEEN 200 AND 299)
    FROM callback_attempts WHERE merchant_id = ${merchantId} GROUP BY 1, 2`);
  const last = offsets.at(-1)!;
  await tx.execute(sql`
    UPDATE callbacks SET status = 'FAILED', attempts = ${offsets.length},
      execution_date = create_date + ${last}::float8 * interval '1 millisecond',
      next_attempt_at = create_date + ${last}::float8 * interval '1 millisecond'
    WHERE id IN (${hit})`);
}
