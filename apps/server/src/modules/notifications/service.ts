import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import {
  CLOSED_LOOKBACK_MS,
  durationText,
  ENDPOINT_FAILING_ATTEMPTS,
  formatMoney,
  NOTIFICATION_KIND_LIMIT,
  OUTCOME_STATUSES,
  STUCK_PAYOUT_AFTER_MS,
  SUCCESS_RATE_WINDOW_MINUTES,
  successLevel,
  successRate,
  UNMATCHED_ALERT_AFTER_MS,
  visibleNotificationKinds,
  type NotificationItem,
  type NotificationKind,
  type NotificationListQuery,
  type RoleScope,
} from '@paydesk/contracts';
import type { DbOrTx } from '../../db/create-db';
import { stuckSource } from '../exceptions/service';

/*
 * Alerts derived from what the database holds now (docs/operations.md, "Alerts"); nothing is stored. Each kind reads
 * its In process items from the index its condition leads with (the desk's queues, the outbox's PENDING rows, a
 * terminal's invoices of the last two hours) and its Closed items from what records a resolution: the audit trail,
 * a contradiction's resolution, a payout's answer, a callback delivered after failing.
 */

/** Whose alerts: the kinds the user may see, and the merchant they concern (null: every merchant). */
export type NotificationScope = { kinds: ReadonlySet<NotificationKind>; merchantId: string | null; userId: string };

export function notificationScope(user: {
  id: string;
  permissions: readonly string[];
  scope: RoleScope;
  merchantId: string | null;
}): NotificationScope {
  return {
    userId: user.id,
    kinds: new Set(visibleNotificationKinds(user.permissions, user.scope)),
    // merchant staff: their own merchant, whatever else; platform staff see every merchant's (merchant.rw.all)
    merchantId: user.scope === 'merchant' ? user.merchantId : null,
  };
}

/** One kind's answer: what holds now (at most the kind's limit, oldest first), how many hold, and what ended lately. */
type KindResult = { open: NotificationItem[]; openCount: number; closed: NotificationItem[] };

type Window = { now: Date; closed: boolean };

const iso = (v: string | Date) => new Date(v).toISOString();
const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const ago = (now: Date, ms: number) => new Date(now.getTime() - ms);
const money = (amount: string, dimension: number, code: string) =>
  formatMoney(BigInt(amount), Number(dimension), 'en', code);
const percent = (n: number) => `${n} %`;

/** A terminal attribute's threshold as monitoring reads it: a finite number, else none. */
function threshold(v: string | null): number | null {
  if (v === null || v.trim() === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

const merchantFilter = (column: SQL, merchantId: string | null) =>
  merchantId ? sql`AND ${column} = ${merchantId}` : sql``;

/**
 * A terminal whose success rate over the last hour (monitoring's rule: DONE among the finished invoices created in the
 * period) is below its low threshold. Nothing finished in the hour: no rate, no alert. Closed: the hour before was
 * below and this hour is not.
 */
async function lowSuccessRate(db: DbOrTx, w: Window, merchantId: string | null): Promise<KindResult> {
  const span = SUCCESS_RATE_WINDOW_MINUTES * 60_000;
  const cur = ago(w.now, span);
  const prev = ago(w.now, 2 * span);
  const finished = sql.join(
    OUTCOME_STATUSES.map((s) => sql`${s}`),
    sql`, `,
  );
  const res = await db.execute<{
    id: string;
    name: string;
    merchant_id: string;
    merchant_name: string;
    low: string | null;
    done_now: number;
    fin_now: number;
    done_prev: number;
    fin_prev: number;
  }>(sql`
    SELECT t.id, t.name, t.merchant_id, m.name AS merchant_name, a.value AS low,
      c.done_now, c.fin_now, c.done_prev, c.fin_prev
    FROM terminals t
    JOIN merchants m ON m.id = t.merchant_id
    JOIN terminal_attributes a ON a.terminal_id = t.id
    JOIN "references" r ON r.id = a.attr_type_id AND r.header_id = 105 AND r.code = 'SUCCESS_PERCENT_LOW_THRESHOLD'
    CROSS JOIN LATERAL (
      SELECT count(*) FILTER (WHERE i.created_at > ${ts(cur)} AND i.status = 'DONE')::int AS done_now,
        count(*) FILTER (WHERE i.created_at > ${ts(cur)} AND i.status IN (${finished}))::int AS fin_now,
        count(*) FILTER (WHERE i.created_at <= ${ts(cur)} AND i.status = 'DONE')::int AS done_prev,
        count(*) FILTER (WHERE i.created_at <= ${ts(cur)} AND i.status IN (${finished}))::int AS fin_prev
      FROM invoices i
      WHERE i.terminal_id = t.id AND i.created_at > ${ts(prev)} AND i.created_at <= ${ts(w.now)}
    ) c
    WHERE true ${merchantFilter(sql`t.merchant_id`, merchantId)}
    ORDER BY t.created_at, t.name`);
  const out: KindResult = { open: [], openCount: 0, closed: [] };
  for (const r of res.rows) {
    const low = threshold(r.low);
    if (low === null) continue;
    const [doneNow, finNow] = [Number(r.done_now), Number(r.fin_now)];
    const rateNow = successRate(doneNow, finNow);
    const ratePrev = successRate(Number(r.done_prev), Number(r.fin_prev));
    const base = {
      id: `LOW_SUCCESS_RATE:${r.id}`,
      kind: 'LOW_SUCCESS_RATE' as const,
      name: `Low success rate: ${r.name}`,
      merchantId: r.merchant_id,
      merchantName: r.merchant_name,
      link: '/monitoring',
    };
    if (rateNow !== null && successLevel(rateNow, low, null) === 'low') {
      if (out.openCount++ >= NOTIFICATION_KIND_LIMIT) continue;
      out.open.push({
        ...base,
        paymentStatus:
          `Success rate ${percent(rateNow)} in the last hour (${doneNow} of ${finNow} finished invoices DONE), ` +
          `below the ${percent(low)} threshold`,
        status: 'In process',
        since: cur.toISOString(),
        closedAt: null,
      });
    } else if (w.closed && rateNow !== null && ratePrev !== null && successLevel(ratePrev, low, null) === 'low') {
      out.closed.push({
        ...base,
        paymentStatus:
          `Success rate back to ${percent(rateNow)} in the last hour, from ${percent(ratePrev)} the hour before ` +
          `(threshold ${percent(low)})`,
        status: 'Closed',
        since: prev.toISOString(),
        closedAt: cur.toISOString(),
      });
    }
  }
  return out;
}

/** An endpoint as staff may read it: no query string or credentials (a merchant may put a token there). */
function endpointText(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url.split('?')[0]!;
  }
}
const endpointId = (merchantId: string, url: string) =>
  `CALLBACK_FAILED:${merchantId}:${createHash('sha256').update(url).digest('hex').slice(0, 16)}`;

/**
 * A merchant's callback endpoint (merchant and URL) is failing when its last ENDPOINT_FAILING_ATTEMPTS delivery
 * attempts or more failed in a row: the attempts of its callbacks not delivered yet (still retrying, or given up in the
 * last day), made after the endpoint last took one. Only such callbacks are read (the outbox's PENDING rows and the
 * day's FAILED ones, by callbacks_due_idx), and deliveries only from the first failure on. Closed: a callback to it
 * delivered in the last day after at least as many failed attempts, the endpoint no longer failing.
 */
async function callbackFailing(db: DbOrTx, w: Window, merchantId: string | null): Promise<KindResult> {
  const lookback = ago(w.now, CLOSED_LOOKBACK_MS);
  const res = await db.execute<{
    merchant_id: string;
    merchant_name: string;
    url: string;
    failed: number;
    since: string | Date;
    invoice_id: string;
    last_error: string | null;
  }>(sql`
    WITH undelivered AS (
      SELECT cb.id, cb.merchant_id, cb.url, cb.invoice_id FROM callbacks cb
      WHERE cb.url IS NOT NULL AND cb.attempts > 0
        AND (cb.status = 'PENDING' OR (cb.status = 'FAILED' AND cb.next_attempt_at > ${ts(lookback)}))
        ${merchantFilter(sql`cb.merchant_id`, merchantId)}
    ),
    attempts AS (
      SELECT u.merchant_id, u.url, u.invoice_id, ca.attempted_at, ca.response_code, ca.error
      FROM undelivered u JOIN callback_attempts ca ON ca.callback_id = u.id
      WHERE ca.attempted_at <= ${ts(w.now)}
    ),
    endpoints AS (
      SELECT e.merchant_id, e.url,
        (SELECT max(d.execution_date) FROM callbacks d
          WHERE d.status = 'DELIVERED' AND d.next_attempt_at >= e.first_at
            AND d.merchant_id = e.merchant_id AND d.url = e.url AND d.execution_date <= ${ts(w.now)}) AS ok_at
      FROM (SELECT merchant_id, url, min(attempted_at) AS first_at FROM attempts GROUP BY 1, 2) e
    )
    SELECT a.merchant_id, m.name AS merchant_name, a.url, count(*)::int AS failed, min(a.attempted_at) AS since,
      (array_agg(a.invoice_id ORDER BY a.attempted_at DESC))[1] AS invoice_id,
      (array_agg(CASE WHEN a.response_code IS NOT NULL THEN 'HTTP ' || a.response_code ELSE a.error END
        ORDER BY a.attempted_at DESC))[1] AS last_error
    FROM attempts a
    JOIN endpoints e ON e.merchant_id = a.merchant_id AND e.url = a.url
    JOIN merchants m ON m.id = a.merchant_id
    WHERE e.ok_at IS NULL OR a.attempted_at > e.ok_at
    GROUP BY a.merchant_id, m.name, a.url
    HAVING count(*) >= ${ENDPOINT_FAILING_ATTEMPTS}
    ORDER BY min(a.attempted_at)`);
  const out: KindResult = { open: [], openCount: res.rows.length, closed: [] };
  const failing = new Set<string>();
  for (const r of res.rows.slice(0, NOTIFICATION_KIND_LIMIT)) {
    const id = endpointId(r.merchant_id, r.url);
    failing.add(id);
    out.open.push({
      id,
      kind: 'CALLBACK_FAILED',
      name: `Callback endpoint failing: ${endpointText(r.url)}`,
      paymentStatus:
        `${r.failed} delivery attempts in a row failed over ${durationText(w.now.getTime() - new Date(r.since).getTime())}` +
        (r.last_error ? ` (last: ${r.last_error})` : ''),
      status: 'In process',
      since: iso(r.since),
      closedAt: null,
      merchantId: r.merchant_id,
      merchantName: r.merchant_name,
      link: `/invoices/${r.invoice_id}`,
    });
  }
  for (const r of res.rows.slice(NOTIFICATION_KIND_LIMIT)) failing.add(endpointId(r.merchant_id, r.url));
  if (!w.closed) return out;

  const healed = await db.execute<{
    merchant_id: string;
    merchant_name: string;
    url: string;
    failed: number;
    since: string | Date;
    closed_at: string | Date;
    invoice_id: string;
  }>(sql`
    SELECT cb.merchant_id, m.name AS merchant_name, cb.url, max(cb.attempts - 1)::int AS failed,
      min(cb.create_date) AS since, max(cb.execution_date) AS closed_at,
      (array_agg(cb.invoice_id ORDER BY cb.execution_date DESC))[1] AS invoice_id
    FROM callbacks cb JOIN merchants m ON m.id = cb.merchant_id
    WHERE cb.status = 'DELIVERED' AND cb.next_attempt_at > ${ts(lookback)} AND cb.next_attempt_at <= ${ts(w.now)}
      AND cb.url IS NOT NULL AND cb.attempts > ${ENDPOINT_FAILING_ATTEMPTS}
      ${merchantFilter(sql`cb.merchant_id`, merchantId)}
    GROUP BY cb.merchant_id, m.name, cb.url
    ORDER BY max(cb.execution_date) DESC
    LIMIT ${NOTIFICATION_KIND_LIMIT}`);
  for (const r of healed.rows) {
    const id = endpointId(r.merchant_id, r.url);
    if (failing.has(id)) continue;
    out.closed.push({
      id,
      kind: 'CALLBACK_FAILED',
      name: `Callback endpoint failing: ${endpointText(r.url)}`,
      paymentStatus: `Delivering again: the endpoint took a callback after ${r.failed} failed attempts`,
      status: 'Closed',
      since: iso(r.since),
      closedAt: iso(r.closed_at),
      merchantId: r.merchant_id,
      merchantName: r.merchant_name,
      link: `/invoices/${r.invoice_id}`,
    });
  }
  return out;
}

/**
 * Money no invoice took, reported more than UNMATCHED_ALERT_AFTER_MS ago and still in suspense. Closed: matched or
 * returned from the desk in the last day (its audit record) after having waited that long.
 */
async function unmatchedMoney(db: DbOrTx, w: Window): Promise<KindResult> {
  const res = await db.execute<{
    id: string;
    amount: string;
    code: string;
    dimension: number;
    book: string;
    account_id: number;
    provider: string;
    created_at: string | Date;
    total: number;
  }>(sql`
    SELECT ip.id, ip.amount::text AS amount, c.code, c.dimension, ip.book, ip.account_id, p.name AS provider,
      ip.created_at, count(*) OVER ()::int AS total
    FROM incoming_payments ip
    JOIN currencies c ON c.id = ip.currency_id JOIN providers p ON p.id = ip.provider_id
    WHERE ip.status = 'UNMATCHED' AND ip.created_at < ${ts(ago(w.now, UNMATCHED_ALERT_AFTER_MS))}
    ORDER BY ip.created_at, ip.id
    LIMIT ${NOTIFICATION_KIND_LIMIT}`);
  const name = (r: { account_id: number; provider: string }) =>
    `Unmatched money on account ${r.account_id} (${r.provider})`;
  const amountOf = (r: { amount: string; dimension: number; code: string; book: string }) =>
    `${money(r.amount, r.dimension, r.code)}${r.book === 'test' ? ' (test)' : ''}`;
  const out: KindResult = {
    open: res.rows.map((r) => ({
      id: `UNMATCHED_MONEY:${r.id}`,
      kind: 'UNMATCHED_MONEY',
      name: name(r),
      paymentStatus: `${amountOf(r)} arrived ${durationText(w.now.getTime() - new Date(r.created_at).getTime())} ago and matched no invoice`,
      status: 'In process',
      since: iso(r.created_at),
      closedAt: null,
      merchantId: null,
      merchantName: null,
      link: '/exceptions?tab=unmatched',
    })),
    openCount: Number(res.rows[0]?.total ?? 0),
    closed: [],
  };
  if (!w.closed) return out;
  const resolved = await db.execute<{
    id: string;
    action: string;
    amount: string;
    code: string;
    dimension: number;
    book: string;
    account_id: number;
    provider: string;
    created_at: string | Date;
    resolved_at: string | Date;
  }>(sql`
    WITH r AS MATERIALIZED (
      SELECT DISTINCT ON (target_id) target_id, action, at FROM audit_log
      WHERE action IN ('incoming.matched', 'incoming.returned') AND target_type = 'incoming'
        AND at > ${ts(ago(w.now, CLOSED_LOOKBACK_MS))} AND at <= ${ts(w.now)}
      ORDER BY target_id, at DESC
    )
    SELECT ip.id, r.action, ip.amount::text AS amount, c.code, c.dimension, ip.book, ip.account_id,
      p.name AS provider, ip.created_at, ip.resolved_at
    FROM r JOIN incoming_payments ip ON ip.id = r.target_id::uuid
    JOIN currencies c ON c.id = ip.currency_id JOIN providers p ON p.id = ip.provider_id
    WHERE ip.status <> 'UNMATCHED' AND ip.resolved_at IS NOT NULL
      AND ip.resolved_at - ip.created_at >= make_interval(secs => ${UNMATCHED_ALERT_AFTER_MS / 1000})
    ORDER BY ip.resolved_at DESC
    LIMIT ${NOTIFICATION_KIND_LIMIT}`);
  out.closed = resolved.rows.map((r) => ({
    id: `UNMATCHED_MONEY:${r.id}`,
    kind: 'UNMATCHED_MONEY',
    name: name(r),
    paymentStatus:
      `${amountOf(r)} ${r.action === 'incoming.returned' ? 'returned to the payer' : 'matched to a deposit'} ` +
      `after ${durationText(new Date(r.resolved_at).getTime() - new Date(r.created_at).getTime())}`,
    status: 'Closed',
    since: iso(r.created_at),
    closedAt: iso(r.resolved_at),
    merchantId: null,
    merchantName: null,
    link: '/exceptions?tab=unmatched&status=ALL',
  }));
  return out;
}

/**
 * The desk's "Payouts with provider" queue (the same rule: a payout attempt pending with its provider for over
 * STUCK_PAYOUT_AFTER_MS, also after staff decided; read by its status, which few rows hold at a time). Closed: a
 * payout attempt the provider answered in the last day after having been pending that long (the answer is the
 * resolution the database records; it scans the transactions, so only the page asks for it, not the bell).
 */
async function payoutStuck(db: DbOrTx, w: Window): Promise<KindResult> {
  const res = await db.execute<{
    invoice_id: string;
    since: string | Date;
    detail: string;
    merchant_id: string;
    merchant_name: string;
    merchant_invoice_id: string;
    amount: string;
    code: string;
    dimension: number;
    total: number;
  }>(sql`
    SELECT s.invoice_id, s.since, s.detail, i.merchant_id, m.name AS merchant_name, i.merchant_invoice_id,
      i.amount::text AS amount, c.code, c.dimension, count(*) OVER ()::int AS total
    FROM (${stuckSource('PAYOUT', w.now)}) s
    JOIN invoices i ON i.id = s.invoice_id JOIN merchants m ON m.id = i.merchant_id
    JOIN currencies c ON c.id = i.currency_id
    ORDER BY s.since, s.invoice_id
    LIMIT ${NOTIFICATION_KIND_LIMIT}`);
  const open = new Set(res.rows.map((r) => r.invoice_id));
  const out: KindResult = {
    open: res.rows.map((r) => ({
      id: `PAYOUT_STUCK:${r.invoice_id}`,
      kind: 'PAYOUT_STUCK',
      name: `Payout with provider: ${r.merchant_invoice_id}`,
      paymentStatus: `${money(r.amount, r.dimension, r.code)}: ${r.detail}, pending for ${durationText(
        w.now.getTime() - new Date(r.since).getTime(),
      )}`,
      status: 'In process',
      since: iso(r.since),
      closedAt: null,
      merchantId: r.merchant_id,
      merchantName: r.merchant_name,
      link: '/exceptions?tab=payouts',
    })),
    openCount: Number(res.rows[0]?.total ?? 0),
    closed: [],
  };
  if (!w.closed) return out;
  const answered = await db.execute<{
    invoice_id: string;
    status: string;
    attempt: number;
    provider: string;
    since: string | Date;
    closed_at: string | Date;
    merchant_id: string;
    merchant_name: string;
    merchant_invoice_id: string;
    amount: string;
    code: string;
    dimension: number;
  }>(sql`
    SELECT DISTINCT ON (pt.invoice_id) pt.invoice_id, pt.status, pt.attempt, p.name AS provider,
      pt.create_date AS since, pt.status_date AS closed_at, i.merchant_id, m.name AS merchant_name,
      i.merchant_invoice_id, i.amount::text AS amount, c.code, c.dimension
    FROM provider_transactions pt
    JOIN provider_accounts a ON a.id = pt.account_id JOIN providers p ON p.id = a.provider_id
    JOIN invoices i ON i.id = pt.invoice_id JOIN merchants m ON m.id = i.merchant_id
    JOIN currencies c ON c.id = i.currency_id
    WHERE pt.type = 'PAYOUT' AND pt.status <> 'PENDING'
      AND pt.status_date > ${ts(ago(w.now, CLOSED_LOOKBACK_MS))} AND pt.status_date <= ${ts(w.now)}
      AND pt.status_date - pt.create_date > make_interval(secs => ${STUCK_PAYOUT_AFTER_MS / 1000})
    ORDER BY pt.invoice_id, pt.status_date DESC`);
  out.closed = answered.rows
    .filter((r) => !open.has(r.invoice_id))
    .sort((a, b) => new Date(b.closed_at).getTime() - new Date(a.closed_at).getTime())
    .slice(0, NOTIFICATION_KIND_LIMIT)
    .map((r) => ({
      id: `PAYOUT_STUCK:${r.invoice_id}`,
      kind: 'PAYOUT_STUCK',
      name: `Payout with provider: ${r.merchant_invoice_id}`,
      paymentStatus:
        `${money(r.amount, r.dimension, r.code)}: ${r.provider} answered ${r.status} for payout attempt ${r.attempt} ` +
        `after ${durationText(new Date(r.closed_at).getTime() - new Date(r.since).getTime())}`,
      status: 'Closed',
      since: iso(r.since),
      closedAt: iso(r.closed_at),
      merchantId: r.merchant_id,
      merchantName: r.merchant_name,
      link: `/invoices/${r.invoice_id}`,
    }));
  return out;
}

/** A provider's answer that contradicts the books, until staff resolve it; Closed: resolved in the last day. */
async function contradictions(db: DbOrTx, w: Window): Promise<KindResult> {
  const rows = async (status: 'OPEN' | 'RESOLVED') =>
    (
      await db.execute<{
        id: number;
        invoice_id: string;
        provider_status: string;
        books_status: string;
        resolution: string | null;
        amount: string;
        code: string;
        dimension: number;
        created_at: string | Date;
        resolved_at: string | Date | null;
        merchant_id: string;
        merchant_name: string;
        merchant_invoice_id: string;
        provider: string | null;
        total: number;
      }>(sql`
        SELECT pc.id, pc.invoice_id, pc.provider_status, pc.books_status, pc.resolution, pc.amount::text AS amount,
          c.code, c.dimension, pc.created_at, pc.resolved_at, pc.merchant_id, m.name AS merchant_name,
          i.merchant_invoice_id, p.name AS provider, count(*) OVER ()::int AS total
        FROM provider_contradictions pc
        JOIN invoices i ON i.id = pc.invoice_id JOIN merchants m ON m.id = pc.merchant_id
        JOIN currencies c ON c.id = pc.currency_id
        JOIN provider_transactions pt ON pt.id = pc.transaction_id
        LEFT JOIN provider_accounts a ON a.id = pt.account_id LEFT JOIN providers p ON p.id = a.provider_id
        WHERE pc.status = ${status}
          ${
            status === 'RESOLVED'
              ? sql`AND pc.resolved_at > ${ts(ago(w.now, CLOSED_LOOKBACK_MS))} AND pc.resolved_at <= ${ts(w.now)}`
              : sql``
          }
        ORDER BY ${status === 'OPEN' ? sql`pc.created_at, pc.id` : sql`pc.resolved_at DESC, pc.id`}
        LIMIT ${NOTIFICATION_KIND_LIMIT}`)
    ).rows;
  const item = (r: Awaited<ReturnType<typeof rows>>[number]) => {
    const said = `${r.provider ?? 'The provider'} answered ${r.provider_status} for ${money(r.amount, r.dimension, r.code)}`;
    const closed = r.resolved_at !== null;
    return {
      id: `CONTRADICTION:${r.id}`,
      kind: 'CONTRADICTION' as const,
      name: `Provider contradicts the books: ${r.merchant_invoice_id}`,
      paymentStatus: closed
        ? `${said}; resolved: ${r.resolution === 'ACCEPT_PROVIDER' ? "the invoice follows the provider's answer" : 'the books were kept'}`
        : `${said}; the books say ${r.books_status}`,
      status: closed ? ('Closed' as const) : ('In process' as const),
      since: iso(r.created_at),
      closedAt: r.resolved_at === null ? null : iso(r.resolved_at),
      merchantId: r.merchant_id,
      merchantName: r.merchant_name,
      link: closed ? `/invoices/${r.invoice_id}` : '/exceptions?tab=contradictions',
    };
  };
  const open = await rows('OPEN');
  return {
    open: open.map(item),
    openCount: Number(open[0]?.total ?? 0),
    closed: w.closed ? (await rows('RESOLVED')).map(item) : [],
  };
}

/**
 * A provider account out of routing (account_limits.paused_at). Closed: resumed in the last day, as its audit record
 * says (account.resumed), with when it had been paused (its latest account.paused record before).
 */
async function pausedAccounts(db: DbOrTx, w: Window): Promise<KindResult> {
  const res = await db.execute<{
    account_id: number;
    paused_at: string | Date;
    paused_reason: string | null;
    provider: string;
    method: string;
    total: number;
  }>(sql`
    SELECT l.account_id, l.paused_at, l.paused_reason, p.name AS provider, pm.name AS method,
      count(*) OVER ()::int AS total
    FROM account_limits l
    JOIN provider_accounts a ON a.id = l.account_id JOIN providers p ON p.id = a.provider_id
    JOIN payment_methods pm ON pm.id = a.payment_method_id
    WHERE l.paused_at IS NOT NULL
    ORDER BY l.paused_at, l.account_id
    LIMIT ${NOTIFICATION_KIND_LIMIT}`);
  const name = (r: { account_id: number; provider: string; method: string }) =>
    `Account ${r.account_id} paused (${r.provider}, ${r.method})`;
  const out: KindResult = {
    open: res.rows.map((r) => ({
      id: `ACCOUNT_PAUSED:${r.account_id}`,
      kind: 'ACCOUNT_PAUSED',
      name: name(r),
      paymentStatus:
        `Out of routing for ${durationText(w.now.getTime() - new Date(r.paused_at).getTime())}` +
        (r.paused_reason ? `: ${r.paused_reason}` : ''),
      status: 'In process',
      since: iso(r.paused_at),
      closedAt: null,
      merchantId: null,
      merchantName: null,
      link: '/accounts',
    })),
    openCount: Number(res.rows[0]?.total ?? 0),
    closed: [],
  };
  if (!w.closed) return out;
  const resumed = await db.execute<{
    account_id: number;
    resumed_at: string | Date;
    paused_at: string | Date | null;
    reason: string | null;
    provider: string;
    method: string;
  }>(sql`
    WITH r AS MATERIALIZED (
      SELECT DISTINCT ON (target_id) target_id, at, reason FROM audit_log
      WHERE action = 'account.resumed' AND target_type = 'account'
        AND at > ${ts(ago(w.now, CLOSED_LOOKBACK_MS))} AND at <= ${ts(w.now)}
      ORDER BY target_id, at DESC
    )
    SELECT l.account_id, r.at AS resumed_at, r.reason, p.name AS provider, pm.name AS method,
      (SELECT max(pa.at) FROM audit_log pa WHERE pa.action = 'account.paused' AND pa.target_type = 'account'
        AND pa.target_id = r.target_id AND pa.at <= r.at) AS paused_at
    FROM r JOIN account_limits l ON l.account_id::text = r.target_id AND l.paused_at IS NULL
    JOIN provider_accounts a ON a.id = l.account_id JOIN providers p ON p.id = a.provider_id
    JOIN payment_methods pm ON pm.id = a.payment_method_id
    ORDER BY r.at DESC
    LIMIT ${NOTIFICATION_KIND_LIMIT}`);
  out.closed = resumed.rows.map((r) => ({
    id: `ACCOUNT_PAUSED:${r.account_id}`,
    kind: 'ACCOUNT_PAUSED',
    name: name(r),
    paymentStatus:
      'Back in routing' +
      (r.paused_at
        ? ` after ${durationText(new Date(r.resumed_at).getTime() - new Date(r.paused_at).getTime())}`
        : '') +
      (r.reason ? `: ${r.reason}` : ''),
    status: 'Closed',
    since: iso(r.paused_at ?? r.resumed_at),
    closedAt: iso(r.resumed_at),
    merchantId: null,
    merchantName: null,
    link: '/accounts',
  }));
  return out;
}

/**
 * The user's own approval requests: waiting for a second person (In process), and decided or expired lately (Closed,
 * with who decided and why): how the maker is told.
 */
async function approvals(db: DbOrTx, w: Window, userId: string): Promise<KindResult> {
  const res = await db.execute<{
    id: string;
    summary: string;
    status: string;
    created_at: string | Date;
    expires_at: string | Date;
    decided_at: string | Date | null;
    decided_by: string | null;
    decision_reason: string | null;
    refusal: string | null;
    merchant_id: string | null;
    merchant_name: string | null;
  }>(sql`
    SELECT r.id, r.summary, r.status, r.created_at, r.expires_at, r.decided_at, u.username AS decided_by,
      r.decision_reason, r.refusal, r.merchant_id, m.name AS merchant_name
    FROM approval_requests r LEFT JOIN users u ON u.id = r.decided_by LEFT JOIN merchants m ON m.id = r.merchant_id
    WHERE r.maker_id = ${userId}
      AND ((r.status = 'PENDING' AND r.expires_at > ${ts(w.now)})
        OR (coalesce(r.decided_at, r.expires_at) > ${ts(ago(w.now, CLOSED_LOOKBACK_MS))}
          AND coalesce(r.decided_at, r.expires_at) <= ${ts(w.now)}))
    ORDER BY r.created_at DESC
    LIMIT ${NOTIFICATION_KIND_LIMIT}`);
  const item = (r: (typeof res.rows)[number], open: boolean): NotificationItem => ({
    id: `APPROVAL:${r.id}`,
    kind: 'APPROVAL',
    name: r.summary,
    paymentStatus: open
      ? `Waiting for another person's approval${r.refusal ? `; last approval refused: ${r.refusal}` : ''}`
      : r.status === 'APPROVED'
        ? `Approved by ${r.decided_by ?? 'a removed user'}${r.decision_reason ? `: ${r.decision_reason}` : ''}`
        : r.status === 'REJECTED'
          ? `Rejected by ${r.decided_by ?? 'a removed user'}${r.decision_reason ? `: ${r.decision_reason}` : ''}`
          : 'Expired without a decision',
    status: open ? 'In process' : 'Closed',
    since: iso(r.created_at),
    closedAt: open ? null : iso(r.decided_at ?? r.expires_at),
    merchantId: r.merchant_id,
    merchantName: r.merchant_name,
    link: '/approvals',
  });
  const isOpen = (r: (typeof res.rows)[number]) => r.status === 'PENDING' && new Date(r.expires_at) > w.now;
  const open = res.rows.filter(isOpen).map((r) => item(r, true));
  return {
    open,
    openCount: open.length,
    closed: w.closed ? res.rows.filter((r) => !isOpen(r)).map((r) => item(r, false)) : [],
  };
}

const time = (iso: string | null) => (iso === null ? 0 : Date.parse(iso));

/**
 * The alerts a user may see (see notificationScope), In process first (newest first), then Closed (latest resolved
 * first), with how many are In process in all.
 */
export async function listNotifications(
  db: DbOrTx,
  scope: NotificationScope,
  q: NotificationListQuery,
  now: Date,
): Promise<{ data: NotificationItem[]; inProcess: number }> {
  const w: Window = { now, closed: q.status !== 'IN_PROCESS' };
  const readers: Record<NotificationKind, () => Promise<KindResult>> = {
    LOW_SUCCESS_RATE: () => lowSuccessRate(db, w, scope.merchantId),
    CALLBACK_FAILED: () => callbackFailing(db, w, scope.merchantId),
    UNMATCHED_MONEY: () => unmatchedMoney(db, w),
    PAYOUT_STUCK: () => payoutStuck(db, w),
    CONTRADICTION: () => contradictions(db, w),
    ACCOUNT_PAUSED: () => pausedAccounts(db, w),
    APPROVAL: () => approvals(db, w, scope.userId),
  };
  const results = await Promise.all([...scope.kinds].map((k) => readers[k]()));
  const open = results.flatMap((r) => r.open).sort((a, b) => time(b.since) - time(a.since));
  const closed = results.flatMap((r) => r.closed).sort((a, b) => time(b.closedAt) - time(a.closedAt));
  return {
    data: q.status === 'IN_PROCESS' ? open : q.status === 'CLOSED' ? closed : [...open, ...closed],
    inProcess: results.reduce((n, r) => n + r.openCount, 0),
  };
}
