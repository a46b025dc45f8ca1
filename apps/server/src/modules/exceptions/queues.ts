import { sql, type SQL } from 'drizzle-orm';
import {
  STUCK_PAYED_AFTER_MS,
  STUCK_PAYOUT_AFTER_MS,
  type ExceptionCsvQuery,
  type ExceptionCsvQueue,
  type ExceptionQueue,
  type FlowType,
  type IncomingQueueQuery,
  type InvoiceStatus,
  type StuckItem,
  type StuckKind,
  type StuckQuery,
} from '@paydesk/contracts';
import type { Readable } from 'node:stream';
import type { DbOrTx } from '../../db/create-db';
import type { AppContext } from '../../lib/context';
import { copyOut } from '../../lib/copy-out';
import { CURRENCY_SCALE, copyCsvOf, isoTime, major, safeText } from '../../lib/csv-sql';
import { badRequest } from '../../lib/errors';
import { openLineSql } from '../statements/service';
import { accountHealthSql } from '../routing/service';

/*
 * The desk's queues as SQL, each read from a partial or leading-status index so that its count and first page stay
 * small whatever the history (docs/operations.md, "queues"): PAYED deposits and pending payouts are few at any time,
 * failed callbacks and unmatched money are what staff have not dealt with yet.
 */

type StuckRow = {
  invoice_id: string;
  merchant_id: string;
  merchant_name: string;
  merchant_invoice_id: string;
  flow_type: FlowType;
  status: InvoiceStatus;
  amount: string;
  currency: string;
  since: string | Date;
  detail: string;
};

/** The rows of one stuck queue: invoice id, since when it waits, and what it waits for. */
export function stuckSource(kind: StuckKind, now: Date): SQL {
  switch (kind) {
    case 'PAYED':
      return sql`SELECT i.id AS invoice_id, i.status_date AS since,
          'the customer pressed "Have paid"; no money reported' AS detail
        FROM invoices i WHERE i.status = 'PAYED'
          AND i.status_date < ${new Date(now.getTime() - STUCK_PAYED_AFTER_MS).toISOString()}::timestamptz`;
    case 'PAYOUT':
      return sql`SELECT pt.invoice_id, pt.create_date AS since,
          'payout attempt ' || pt.attempt || ' with ' || p.name
            || CASE WHEN pt.decided_status IS NULL THEN '' ELSE ' (staff set ' || pt.decided_status || ')' END AS detail
        FROM provider_transactions pt
        JOIN provider_accounts a ON a.id = pt.account_id JOIN providers p ON p.id = a.provider_id
        WHERE pt.status = 'PENDING' AND pt.type = 'PAYOUT'
          AND pt.create_date < ${new Date(now.getTime() - STUCK_PAYOUT_AFTER_MS).toISOString()}::timestamptz`;
    case 'CALLBACK':
      // the invoice's latest callback gave up: an earlier failure that a later delivery replaced is not stuck
      return sql`SELECT cb.invoice_id, cb.create_date AS since,
          'callback for ' || cb.invoice_status || ' failed after ' || cb.attempts || ' attempts' AS detail
        FROM callbacks cb WHERE cb.status = 'FAILED'
          AND NOT EXISTS (SELECT 1 FROM callbacks later WHERE later.invoice_id = cb.invoice_id
                          AND later.create_date > cb.create_date)`;
  }
}

/**
 * Unmatched money's filters as conditions on `ip` (incoming_payments): its list and its CSV apply the same ones, so
 * the file holds what the desk shows.
 */
export function incomingFilterSql(
  q: Pick<IncomingQueueQuery, 'providerId' | 'accountId' | 'amountFrom' | 'amountTo' | 'from' | 'to'>,
): SQL[] {
  const where: SQL[] = [];
  if (q.providerId !== undefined) where.push(sql`ip.provider_id = ${q.providerId}`);
  if (q.accountId !== undefined) where.push(sql`ip.account_id = ${q.accountId}`);
  if (q.amountFrom !== undefined) where.push(sql`ip.amount >= ${q.amountFrom}`);
  if (q.amountTo !== undefined) where.push(sql`ip.amount <= ${q.amountTo}`);
  if (q.from) where.push(sql`ip.created_at >= ${q.from}::timestamptz`);
  if (q.to) where.push(sql`ip.created_at < ${q.to}::timestamptz`);
  return where;
}

/** The stuck queues' filter as a condition on `i` (invoices), for their list and their CSV. */
const stuckFilterSql = (q: Pick<StuckQuery, 'merchant'>): SQL[] =>
  q.merchant ? [sql`i.merchant_id = ${q.merchant}`] : [];

const NEXT_STEP: Record<StuckKind, string> = {
  PAYED: 'Ask the provider, or check unmatched money on the account',
  PAYOUT: 'Ask the provider for the payout result',
  CALLBACK: "Check the merchant's endpoint, then send the callback again",
};

export async function listStuck(db: DbOrTx, q: StuckQuery, now: Date) {
  const where = stuckFilterSql(q);
  if (q.after) {
    const cut = q.after.indexOf('_');
    const id = q.after.slice(cut + 1);
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw badRequest('Not a cursor this list gave', { after: 'Not a cursor' });
    where.push(sql`(s.since, s.invoice_id) > (${q.after.slice(0, cut)}::timestamptz, ${id}::uuid)`);
  }
  const res = await db.execute<StuckRow>(sql`
    SELECT s.invoice_id, i.merchant_id, m.name AS merchant_name, i.merchant_invoice_id, i.flow_type, i.status,
      i.amount::text AS amount, c.code AS currency, s.since, s.detail
    FROM (${stuckSource(q.kind, now)}) s
    JOIN invoices i ON i.id = s.invoice_id JOIN merchants m ON m.id = i.merchant_id
    JOIN currencies c ON c.id = i.currency_id
    ${where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``}
    ORDER BY s.since, s.invoice_id LIMIT ${q.limit + 1}`);
  const data: StuckItem[] = res.rows.slice(0, q.limit).map((r) => ({
    kind: q.kind,
    invoiceId: r.invoice_id,
    merchantId: r.merchant_id,
    merchantName: r.merchant_name,
    merchantInvoiceId: r.merchant_invoice_id,
    flowType: r.flow_type,
    status: r.status,
    amount: Number(r.amount),
    currency: r.currency,
    since: new Date(r.since).toISOString(),
    detail: r.detail,
    nextStep: NEXT_STEP[q.kind],
  }));
  const last = data.at(-1);
  return { data, next: res.rows.length > q.limit && last ? `${last.since}_${last.invoiceId}` : null };
}

/** Every queue's size and oldest item, in one round trip. */
export async function exceptionSummary(db: DbOrTx, now: Date) {
  const queue = (name: ExceptionQueue, source: SQL, at: string) =>
    sql`SELECT ${name}::text AS queue, count(*)::int AS count, min(${sql.raw(at)}) AS oldest FROM (${source}) q`;
  const res = await db.execute<{ queue: ExceptionQueue; count: number; oldest: string | Date | null }>(sql`
    ${queue('unmatched', sql`SELECT created_at FROM incoming_payments WHERE status = 'UNMATCHED'`, 'created_at')}
    UNION ALL ${queue('payedStuck', stuckSource('PAYED', now), 'since')}
    UNION ALL ${queue('payoutStuck', stuckSource('PAYOUT', now), 'since')}
    UNION ALL ${queue('callbacksFailed', stuckSource('CALLBACK', now), 'since')}
    UNION ALL ${queue('contradictions', sql`SELECT created_at FROM provider_contradictions WHERE status = 'OPEN'`, 'created_at')}
    UNION ALL ${queue(
      'pausedAccounts',
      sql`SELECT paused_at FROM account_limits WHERE paused_at IS NOT NULL`,
      'paused_at',
    )}
    UNION ALL ${queue(
      'statementExceptions',
      // provider statements' lines still to resolve, as old as their statement's upload
      sql`SELECT ps.uploaded_at FROM statement_lines sl JOIN provider_statements ps ON ps.id = sl.statement_id
        WHERE ${openLineSql('sl')}`,
      'uploaded_at',
    )}`);
  return res.rows.map((r) => ({
    queue: r.queue,
    count: Number(r.count),
    oldestAt: r.oldest === null ? null : new Date(r.oldest).toISOString(),
  }));
}

/**
 * The paused accounts as the desk lists them (longest paused first), each with its health over the last day: the
 * deposits given its requisites, how many were paid and their share, and when money last arrived on it.
 */
const pausedAccountsCsvSql = (now: Date) =>
  sql`SELECT ${sql.raw(isoTime('h.paused_at'))} AS "Paused since", h.account_id AS "Account",
      ${sql.raw(safeText('h.provider'))} AS "Provider", ${sql.raw(safeText('h.method'))} AS "Payment method",
      CASE WHEN h.is_sandbox THEN 'test' ELSE 'live' END AS "Book", ${sql.raw(safeText('h.paused_reason'))} AS "Why",
      ${sql.raw(safeText("coalesce(h.paused_by, 'health check')"))} AS "Paused by",
      h.given AS "Given (24 h)", h.paid AS "Paid (24 h)",
      CASE WHEN h.given = 0 THEN NULL ELSE round(h.paid * 100.0 / h.given, 1) END AS "Success rate (%)",
      ${sql.raw(isoTime('h.last_money_at'))} AS "Money last arrived"
    FROM (${accountHealthSql(now)}) h
    WHERE h.paused_at IS NOT NULL ORDER BY h.paused_at, h.account_id`;

/** The file a queue is downloaded as (the desk's "Download CSV"). */
export const exceptionCsvFilename = (queue: ExceptionCsvQueue) => `Exceptions-${queue}.csv`;

/**
 * One queue as CSV, streamed with COPY (lib/copy-out.ts): what is waiting now, oldest first, amounts in major units
 * of their currency, narrowed by the filters its list on the desk has (the query allows no others). Text a
 * spreadsheet would run as a formula is quoted (csv-sql.ts safeText).
 */
export function exportExceptionCsv(ctx: AppContext, q: ExceptionCsvQuery): Promise<Readable> {
  const now = ctx.now();
  const { queue } = q;
  if (queue === 'paused') return copyOut(ctx, async () => copyCsvOf(pausedAccountsCsvSql(now)));
  const and = (conditions: SQL[]) => (conditions.length ? sql` AND ${sql.join(conditions, sql` AND `)}` : sql``);
  const select =
    queue === 'unmatched'
      ? sql`SELECT ${sql.raw(isoTime('ip.created_at'))} AS "Reported", p.name AS "Provider", ip.account_id AS "Account",
            ${sql.raw(major('ip.amount'))} AS "Amount", c.code AS "Currency", ${sql.raw(safeText('ip.reference'))} AS "Reference",
            ip.book AS "Book"
          FROM incoming_payments ip JOIN providers p ON p.id = ip.provider_id
          JOIN ${sql.raw(CURRENCY_SCALE)} c ON c.id = ip.currency_id
          WHERE ip.status = 'UNMATCHED'${and(incomingFilterSql(q))} ORDER BY ip.created_at, ip.id`
      : queue === 'contradictions'
        ? sql`SELECT ${sql.raw(isoTime('pc.created_at'))} AS "Created", ${sql.raw(safeText('m.name'))} AS "Merchant",
              ${sql.raw(safeText('i.merchant_invoice_id'))} AS "Invoice", i.id AS "Invoice ID", i.flow_type AS "Flow",
              i.status AS "Books say", pc.provider_status AS "Provider says", ${sql.raw(major('pc.amount'))} AS "Amount",
              c.code AS "Currency"
            FROM provider_contradictions pc JOIN invoices i ON i.id = pc.invoice_id JOIN merchants m ON m.id = pc.merchant_id
            JOIN ${sql.raw(CURRENCY_SCALE)} c ON c.id = pc.currency_id
            WHERE pc.status = 'OPEN' ORDER BY pc.created_at, pc.id`
        : sql`SELECT ${sql.raw(isoTime('s.since'))} AS "Waiting since", ${sql.raw(safeText('m.name'))} AS "Merchant",
              ${sql.raw(safeText('i.merchant_invoice_id'))} AS "Invoice", i.id AS "Invoice ID", i.status AS "Status",
              ${sql.raw(major('i.amount'))} AS "Amount", c.code AS "Currency", s.detail AS "Waiting for"
            FROM (${stuckSource(queue, now)}) s JOIN invoices i ON i.id = s.invoice_id
            JOIN merchants m ON m.id = i.merchant_id JOIN ${sql.raw(CURRENCY_SCALE)} c ON c.id = i.currency_id
            WHERE true${and(stuckFilterSql(q))}
            ORDER BY s.since, s.invoice_id`;
  return copyOut(ctx, async () => copyCsvOf(select));
}
