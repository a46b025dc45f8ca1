import { eq, sql, type SQL } from 'drizzle-orm';
import {
  CALLBACK_STATUSES,
  WEBHOOK_TYPES,
  type CallbackDelivery,
  type CallbackDeliveryFilter,
  type CallbackDeliveryQuery,
  type EndpointHealth,
} from '@paydesk/contracts';
import type { DbOrTx } from '../../db/create-db';
import { merchants } from '../../db/schema';
import { AppError, badRequest, notFound } from '../../lib/errors';
import type { SessionUser } from '../../plugins/auth';

/*
 * Callback deliveries across invoices and the health of each merchant's endpoint (docs/operations.md, "Callbacks").
 * Both read from indexes made for them (db/schema.ts, callbacks_merchant_list_idx, callbacks_list_idx,
 * callback_attempts_merchant_time_idx), so that a page or a merchant's health costs the same at any size of history.
 */

/**
 * Whose deliveries a caller works on: merchant staff their own merchant's, whatever they name; platform staff who may
 * work on every merchant the one they name (404 when there is none), or every merchant (null) when they name none.
 */
export async function deliveryScope(db: DbOrTx, user: SessionUser, requested?: string): Promise<string | null> {
  if (user.permissions.includes('merchant.rw.all')) {
    if (!requested) return null;
    const [m] = await db.select({ id: merchants.id }).from(merchants).where(eq(merchants.id, requested.toLowerCase()));
    if (!m) throw notFound('Merchant');
    return m.id;
  }
  if (!user.merchantId) throw new AppError('FORBIDDEN', 'Your user is not attached to a merchant');
  return user.merchantId;
}

/** The filter's time range must be a range: `to` after `from`. */
export function checkRange(f: CallbackDeliveryFilter) {
  if (f.from && f.to && new Date(f.to).getTime() <= new Date(f.from).getTime()) {
    throw badRequest('to must be after from', { to: 'Must be after from' });
  }
}

const values = (xs: readonly string[]) =>
  sql.join(
    xs.map((x) => sql`(${x}::text)`),
    sql`, `,
  );

/**
 * The deliveries a filter picks (of one merchant, given as an id or an SQL expression, or of all): their ids, creation
 * times and the event they replay. With `limit`, the newest that many after the keyset position `after`. Without an
 * invoice it reads one ordered index range per (status, event type) pair the filter allows and merges them (see
 * callbacks_merchant_list_idx; every row's status and type are among those listed, its body having been checked
 * against the webhook schema when it was written); an invoice's few deliveries come from its own index.
 */
export function matchingDeliveries(
  scope: string | SQL | null,
  f: CallbackDeliveryFilter,
  opts: { after?: { at: string; id: string } | null; limit?: number } = {},
): SQL {
  const where: SQL[] = [];
  if (scope) where.push(sql`cb.merchant_id = ${scope}`);
  if (f.from) where.push(sql`cb.create_date >= ${f.from}::timestamptz`);
  if (f.to) where.push(sql`cb.create_date < ${f.to}::timestamptz`);
  if (opts.after) where.push(sql`(cb.create_date, cb.id) < (${opts.after.at}::timestamptz, ${opts.after.id}::uuid)`);
  const page = (alias: string) =>
    opts.limit === undefined
      ? sql``
      : sql`ORDER BY ${sql.raw(alias)}.create_date DESC, ${sql.raw(alias)}.id DESC LIMIT ${opts.limit}`;
  if (f.invoiceId) {
    if (f.status) where.push(sql`cb.status = ${f.status}`);
    if (f.type) where.push(sql`(cb.payload ->> 'type') = ${f.type}`);
    return sql`SELECT cb.id, cb.create_date, cb.replay_of FROM callbacks cb
      WHERE cb.invoice_id = ${f.invoiceId} AND ${sql.join(where.length ? where : [sql`true`], sql` AND `)}
      ${page('cb')}`;
  }
  const statuses = f.status ? [f.status] : CALLBACK_STATUSES;
  const types = f.type ? [f.type] : WEBHOOK_TYPES;
  where.push(sql`cb.status = s.status`, sql`(cb.payload ->> 'type') = ty.type`);
  return sql`SELECT p.id, p.create_date, p.replay_of
    FROM (VALUES ${values(statuses)}) AS s(status)
    CROSS JOIN (VALUES ${values(types)}) AS ty(type)
    CROSS JOIN LATERAL (
      SELECT cb.id, cb.create_date, cb.replay_of FROM callbacks cb
      WHERE ${sql.join(where, sql` AND `)}
      ${page('cb')}
    ) p
    ${page('p')}`;
}

/** `<time with microseconds>_<id>`: the keyset position of a delivery, exact to the database's precision. */
function parseCursor(cursor: string | undefined) {
  if (!cursor) return null;
  const cut = cursor.indexOf('_');
  return { at: cursor.slice(0, cut), id: cursor.slice(cut + 1) };
}

type DeliveryRow = {
  id: string;
  status: CallbackDelivery['status'];
  type: CallbackDelivery['type'];
  invoice_id: string;
  merchant_invoice_id: string;
  merchant_id: string;
  merchant_name: string;
  invoice_status: string;
  url: string | null;
  attempts: number;
  response_code: number | null;
  error: string | null;
  create_date: string | Date;
  execution_date: string | Date | null;
  next_attempt_at: string | Date;
  replay_of: string | null;
  position: string;
};

const iso = (v: string | Date) => new Date(v).toISOString();

/** An endpoint as the lists show it: no query string or credentials (a merchant may put a token there). */
function endpointText(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url.split('?')[0]!;
  }
}

/** One page of deliveries, newest first; `next` is the position the following page starts after. */
export async function listDeliveries(db: DbOrTx, scope: string | null, q: CallbackDeliveryQuery) {
  checkRange(q);
  const res = await db.execute<DeliveryRow>(sql`
    WITH page AS (${matchingDeliveries(scope, q, { after: parseCursor(q.after), limit: q.limit + 1 })})
    SELECT cb.id, cb.status, cb.payload ->> 'type' AS type, cb.invoice_id,
      cb.payload ->> 'merchantInvoiceId' AS merchant_invoice_id, cb.merchant_id, m.name AS merchant_name,
      cb.invoice_status, cb.url, cb.attempts, last.response_code, last.error, cb.create_date, cb.execution_date,
      cb.next_attempt_at, cb.replay_of,
      to_char(cb.create_date AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '_' || cb.id AS position
    FROM page JOIN callbacks cb ON cb.id = page.id JOIN merchants m ON m.id = cb.merchant_id
    LEFT JOIN LATERAL (
      SELECT a.response_code, a.error FROM callback_attempts a WHERE a.callback_id = cb.id
      ORDER BY a.attempted_at DESC, a.id DESC LIMIT 1
    ) last ON true
    ORDER BY cb.create_date DESC, cb.id DESC`);
  const rows = res.rows.slice(0, q.limit);
  const data: CallbackDelivery[] = rows.map((r) => ({
    id: r.id,
    status: r.status,
    type: r.type,
    invoiceId: r.invoice_id,
    merchantInvoiceId: r.merchant_invoice_id,
    merchantId: r.merchant_id,
    merchantName: r.merchant_name,
    invoiceStatus: r.invoice_status,
    url: r.url === null ? null : endpointText(r.url),
    attempts: Number(r.attempts),
    lastResponseCode: r.response_code === null ? null : Number(r.response_code),
    lastError: r.error,
    createDate: iso(r.create_date),
    executionDate: r.execution_date === null ? null : iso(r.execution_date),
    nextAttemptAt: r.status === 'PENDING' ? iso(r.next_attempt_at) : null,
    replayOf: r.replay_of,
  }));
  return { data, next: res.rows.length > q.limit ? rows.at(-1)!.position : null };
}

/** How many of a merchant's latest deliveries name the URLs "in use". */
const URL_SAMPLE = 20;
const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

type HealthRow = {
  merchant_id: string;
  merchant_name: string;
  last_success_at: string | Date | null;
  last_attempt_at: string | Date | null;
  last_response_code: number | null;
  last_error: string | null;
  consecutive_failures: string | number;
  attempts_24h: string | number;
  succeeded_24h: string | number;
  pending: string | number;
  urls: string[] | null;
};

/**
 * Each merchant's endpoint as its attempts tell it: the last 2xx, the attempts since then, the last 24 h's attempts
 * and successes, deliveries waiting, and the URLs its latest deliveries went to. Whole hours come from
 * callback_attempt_hours; only the hour of the last 2xx and the hour the day begins in are counted attempt by attempt
 * (callback_attempts_merchant_time_idx), so a merchant's health costs the same after a day-long outage as on a quiet
 * day.
 */
export async function endpointHealth(db: DbOrTx, scope: string | null, now: Date): Promise<EndpointHealth[]> {
  const since = new Date(now.getTime() - DAY_MS);
  // the first whole hour of the last 24 h: before it, attempts are counted one by one
  const edge = new Date(Math.ceil(since.getTime() / HOUR_MS) * HOUR_MS);
  const t = (d: Date) => sql`${d.toISOString()}::timestamptz`;
  const res = await db.execute<HealthRow>(sql`
    SELECT m.id AS merchant_id, m.name AS merchant_name, ok.at AS last_success_at,
      last.attempted_at AS last_attempt_at, last.response_code AS last_response_code, last.error AS last_error,
      coalesce((SELECT sum(h.attempts) FROM callback_attempt_hours h
                WHERE h.merchant_id = m.id AND (ok.hour IS NULL OR h.hour > ok.hour)), 0)
        + (SELECT count(*) FROM callback_attempts a WHERE a.merchant_id = m.id
           AND a.attempted_at > ok.at AND a.attempted_at < ok.hour + interval '1 hour') AS consecutive_failures,
      coalesce(day.attempts, 0) + early.attempts AS attempts_24h,
      coalesce(day.succeeded, 0) + early.succeeded AS succeeded_24h,
      (SELECT count(*) FROM callbacks cb WHERE cb.merchant_id = m.id AND cb.status = 'PENDING') AS pending,
      (SELECT array_agg(u.url ORDER BY u.latest DESC) FROM (
        SELECT r.url, max(r.create_date) AS latest FROM (
          ${matchingDeliveries(sql`m.id`, {}, { limit: URL_SAMPLE })}
        ) p JOIN callbacks r ON r.id = p.id WHERE r.url IS NOT NULL GROUP BY r.url
      ) u) AS urls
    FROM merchants m
    -- the last 2xx: the latest hour that had one, then the attempt within that hour
    LEFT JOIN LATERAL (
      SELECT h.hour, (SELECT max(a.attempted_at) FROM callback_attempts a
        WHERE a.merchant_id = m.id AND a.attempted_at >= h.hour AND a.attempted_at < h.hour + interval '1 hour'
          AND a.response_code BETWEEN 200 AND 299) AS at
      FROM callback_attempt_hours h WHERE h.merchant_id = m.id AND h.succeeded > 0
      ORDER BY h.hour DESC LIMIT 1
    ) ok ON true
    LEFT JOIN LATERAL (
      SELECT a.attempted_at, a.response_code, a.error FROM callback_attempts a
      WHERE a.merchant_id = m.id ORDER BY a.attempted_at DESC, a.id DESC LIMIT 1
    ) last ON true
    CROSS JOIN LATERAL (
      SELECT sum(h.attempts) AS attempts, sum(h.succeeded) AS succeeded FROM callback_attempt_hours h
      WHERE h.merchant_id = m.id AND h.hour >= ${t(edge)}
    ) day
    CROSS JOIN LATERAL (
      SELECT count(*) AS attempts, count(*) FILTER (WHERE a.response_code BETWEEN 200 AND 299) AS succeeded
      FROM callback_attempts a
      WHERE a.merchant_id = m.id AND a.attempted_at >= ${t(since)} AND a.attempted_at < ${t(edge)}
    ) early
    ${scope ? sql`WHERE m.id = ${scope}` : sql``}
    ORDER BY m.name, m.id`);
  return res.rows.map((r) => {
    const attempts = Number(r.attempts_24h);
    const succeeded = Number(r.succeeded_24h);
    const code = r.last_response_code === null ? null : Number(r.last_response_code);
    return {
      merchantId: r.merchant_id,
      merchantName: r.merchant_name,
      state: r.last_attempt_at === null ? 'IDLE' : code !== null && code >= 200 && code < 300 ? 'HEALTHY' : 'FAILING',
      lastSuccessAt: r.last_success_at === null ? null : iso(r.last_success_at),
      lastAttemptAt: r.last_attempt_at === null ? null : iso(r.last_attempt_at),
      lastResponseCode: code,
      lastError: r.last_error,
      consecutiveFailures: Number(r.consecutive_failures),
      attempts24h: attempts,
      succeeded24h: succeeded,
      successRate24h: attempts ? succeeded / attempts : null,
      pending: Number(r.pending),
      urls: [...new Set((r.urls ?? []).map(endpointText))],
    };
  });
}
