import {
  INVOICE_TOTAL_CAP,
  parseDdMmYyyy,
  statusByCode,
  statusById,
  toSafeInt,
  utcDayRange,
  type FlowType,
  type Invoice,
  type InvoiceCursor,
  type InvoiceFilter,
  type InvoiceStatus,
} from '@paydesk/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import * as csvSql from '../../lib/csv-sql';
import { processingColumnsSql, type ProcessingRow } from '../engine/lifecycle';

/**
 * SQL of the invoice list, details and CSV export, in Drizzle's `sql` template (the data-access style of
 * the README): one filter serves the list (bind parameters) and COPY, which takes no parameters —
 * Drizzle inlines them as quoted literals there (`inlineParams`). Values never reach SQL by concatenation.
 */
const dialect = new PgDialect();
/** The text and bind parameters of a statement, for a pool client of its own (COPY's transaction). */
export const toQuery = (q: SQL) => dialect.sqlToQuery(q);

/**
 * `requisiteHash`: the lookup hash of the search term when it reads as a card or phone number (service.ts
 * filterOptions): the search then also finds invoices paid to or from that number, by hash, never by the number.
 */
export type FilterOptions = { merchantId: string; canReadProvider: boolean; requisiteHash?: string | null };

/** A search term that may be a card or phone number: its digits, else null. */
export function requisiteDigits(term: string | undefined): string | null {
  const digits = (term ?? '')
    .trim()
    .replace(/^\+/, '')
    .replace(/[\s()-]/g, '');
  return /^\d{9,19}$/.test(digits) ? digits : null;
}

/** The WHERE clause (over alias `i`) of a filter; each condition is served by an index of invoices (db/schema.ts). */
function whereSql(f: InvoiceFilter, opts: FilterOptions): SQL {
  const c: SQL[] = [sql`i.merchant_id = ${opts.merchantId}::uuid`];
  if (f.terminalId) c.push(sql`i.terminal_id = ${f.terminalId}::uuid`);
  if (f.statusIds?.length) {
    const codes = [...new Set(f.statusIds.map((id) => statusById(id)!.code))];
    c.push(
      sql`i.status IN (${sql.join(
        codes.map((code) => sql`${code}`),
        sql`, `,
      )})`,
    );
  }
  if (f.dateFrom)
    c.push(sql`i.created_at >= ${utcDayRange(parseDdMmYyyy(f.dateFrom)!).start.toISOString()}::timestamptz`);
  if (f.dateTo) c.push(sql`i.created_at < ${utcDayRange(parseDdMmYyyy(f.dateTo)!).end.toISOString()}::timestamptz`);
  if (f.lastStatusDate) {
    const { start, end } = utcDayRange(parseDdMmYyyy(f.lastStatusDate)!);
    c.push(
      sql`i.status_date >= ${start.toISOString()}::timestamptz`,
      sql`i.status_date < ${end.toISOString()}::timestamptz`,
      // a status is never older than its invoice: this bound lets the newest-first scan start at that day
      sql`i.created_at < ${end.toISOString()}::timestamptz`,
    );
  }
  if (f.flowType) c.push(sql`i.flow_type = ${f.flowType}`);
  if (f.sumFrom !== undefined) c.push(sql`i.amount >= ${f.sumFrom}::bigint`);
  if (f.sumTo !== undefined) c.push(sql`i.amount <= ${f.sumTo}::bigint`);
  if (f.search) {
    // A case-insensitive prefix of any of the ids a person has at hand, each on an index of its own (a BitmapOr
    // of index range scans, or the newest-first scan when the prefix matches much): the invoice id as a uuid
    // range on the primary key, the merchant's and the provider's invoice ids and the customer's external id
    // on lower(…) text_pattern_ops indexes (migration 0008).
    const term = f.search.trim();
    const prefix = `${term.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    const any: SQL[] = [];
    const range = uuidPrefixRange(term);
    if (range) any.push(sql`i.id BETWEEN ${range.low}::uuid AND ${range.high}::uuid`);
    any.push(sql`lower(i.merchant_invoice_id) LIKE ${prefix}`);
    if (opts.canReadProvider) any.push(sql`lower(i.provider_invoice_id) LIKE ${prefix}`);
    any.push(
      sql`i.customer_id = ANY (ARRAY(SELECT cu.id FROM customers cu WHERE cu.merchant_id = ${opts.merchantId}::uuid
        AND lower(cu.external_id) LIKE ${prefix} LIMIT ${SEARCH_CUSTOMERS_MAX}))`,
    );
    // a whole card or phone number: the invoices paid to or from it (invoices_merchant_credential_hash_idx)
    if (opts.requisiteHash) any.push(sql`i.credential_hash = ${opts.requisiteHash}`);
    c.push(sql`(${sql.join(any, sql` OR `)})`);
  }
  return sql.join(c, sql` AND `);
}

/**
 * Customers a search prefix may name at most (a prefix like "c" must not expand to every customer): their invoices are
 * gathered one customer at a time (1,000 customers with ten invoices each took 46–94 ms on 1,000,000 invoices; 200,
 * a fifth of it).
 */
const SEARCH_CUSTOMERS_MAX = 200;

/**
 * The uuids an invoice-id prefix covers ("0b6c7a52-6a" → 0b6c7a52-6a00-0000-… … 0b6c7a52-6aff-ffff-…), or null when
 * the term is not the start of a uuid. Hyphens may be typed or left out.
 */
function uuidPrefixRange(term: string): { low: string; high: string } | null {
  const hex = term.toLowerCase().replace(/-/g, '');
  // hyphens, when typed, only where a uuid has them
  const hyphensInPlace = [...term].every((ch, at) => ch !== '-' || [8, 13, 18, 23].includes(at));
  if (!/^[0-9a-f]{1,32}$/.test(hex) || !hyphensInPlace) return null;
  const asUuid = (h: string) =>
    `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  return { low: asUuid(hex.padEnd(32, '0')), high: asUuid(hex.padEnd(32, 'f')) };
}

/** Newest first, in the order of invoices_merchant_created_idx (merchant_id, created_at DESC NULLS LAST, id). */
const ORDER = sql.raw('i.created_at DESC NULLS LAST, i.id');

const ITEM_COLUMNS = sql.raw(`
  i.id, i.merchant_invoice_id, i.provider_invoice_id, i.created_at, to_char(i.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position, i.amount, i.fee,
  c.id AS currency_id, c.code AS currency_code, c.name AS currency_name, c.dimension,
  i.flow_type, i.status, i.status_date, i.is_test,
  cu.external_id, cu.first_name, cu.last_name,
  t.id AS terminal_id, t.name AS terminal_name,
  pm.name AS payment_method_name,
  i.credential_masked,
  CASE WHEN i.flow_type = 'WITHDRAWAL' THEN COALESCE(bank.value, pa.bank_name) ELSE pa.bank_name END AS bank_name,
  CASE WHEN i.flow_type = 'DEPOSIT' THEN pa.owner_name END AS owner_name,
  pr.name AS provider_name`);

const ITEM_JOINS = sql.raw(`
  JOIN terminals t ON t.id = i.terminal_id
  JOIN currencies c ON c.id = i.currency_id
  LEFT JOIN customers cu ON cu.id = i.customer_id
  LEFT JOIN payment_methods pm ON pm.id = i.payment_method_id
  LEFT JOIN provider_accounts pa ON pa.id = i.account_id
  LEFT JOIN providers pr ON pr.id = pa.provider_id
  LEFT JOIN "references" bank ON bank.id = i.bank_code AND bank.header_id = 205`);

/** One page: the LIMIT/OFFSET applies to invoices alone, the joins only to the rows shown. */
export function listSql(f: InvoiceFilter, opts: FilterOptions, page: number, size: number): SQL {
  return sql`
    SELECT ${ITEM_COLUMNS}
    FROM (SELECT * FROM invoices i WHERE ${whereSql(f, opts)} ORDER BY ${ORDER}
          LIMIT ${size}::int OFFSET ${page * size}::bigint) i
    ${ITEM_JOINS}
    ORDER BY ${ORDER}`;
}

/**
 * A page by position (keyset): the `size + 1` rows after (older than) or before (newer than) a cursor row in
 * the list's order, so the cost is the same at any depth; the one extra row says whether there is more. `before`
 * reads newest-last and the caller reverses it. The created_at bound is redundant with the OR but gives the index
 * scan its start.
 */
export function keysetSql(
  f: InvoiceFilter,
  opts: FilterOptions,
  at: { after?: InvoiceCursor; before?: InvoiceCursor },
  size: number,
): SQL {
  const { position, order } = keysetPosition(at);
  return sql`
    SELECT ${ITEM_COLUMNS}
    FROM (SELECT * FROM invoices i WHERE ${whereSql(f, opts)} AND ${position} ORDER BY ${order}
          LIMIT ${size + 1}::int) i
    ${ITEM_JOINS}
    ORDER BY ${order}`;
}

/** The rows `i` past a cursor in the list's order (after: older; before: newer, read newest-last) and that order. */
function keysetPosition(at: { after?: InvoiceCursor; before?: InvoiceCursor }) {
  const c = (at.after ?? at.before)!;
  const position = at.after
    ? sql`i.created_at <= ${c.createdAt}::timestamptz
        AND (i.created_at < ${c.createdAt}::timestamptz OR (i.created_at = ${c.createdAt}::timestamptz AND i.id > ${c.id}::uuid))`
    : sql`i.created_at >= ${c.createdAt}::timestamptz
        AND (i.created_at > ${c.createdAt}::timestamptz OR (i.created_at = ${c.createdAt}::timestamptz AND i.id < ${c.id}::uuid))`;
  return { position, order: at.after ? ORDER : REVERSE };
}

/** The list's order backwards (for `before`). */
const REVERSE = sql.raw('i.created_at ASC NULLS FIRST, i.id DESC');

/** Every match counted, past the cap ("Count exactly"): an index-only count where the filters allow it. */
export function exactCountSql(f: InvoiceFilter, opts: FilterOptions): SQL {
  return sql`SELECT count(*)::int AS n FROM invoices i WHERE ${whereSql(f, opts)}`;
}

const CAP_PLUS_ONE = sql.raw(String(INVOICE_TOTAL_CAP + 1));

/**
 * How many matches a search sorts itself (searchPageSql). Past it a search names a large share of the merchant's
 * invoices, and the list's newest-first walk finds a page of them after a few rows. Gathering costs ~0.45 ms a
 * thousand matches on 1,000,000 invoices (a prefix matching every row paid 45 ms at 100,000, 28 ms at 30,000).
 */
export const SEARCH_SORT_MAX = 20_000;

/**
 * A search's count (up to SEARCH_SORT_MAX + 1) and, when it matches at most SEARCH_SORT_MAX invoices, its page (by
 * number, or by position: `size + 1` rows past a cursor), in one query: the matches are gathered once through their
 * indexes (ids and times only), counted, and only they are sorted. The newest-first walk the planner would pick
 * otherwise passes every newer invoice when the matches sit together in the past (a prefix of ids made on one day
 * months ago: 570,000 rows walked for ten). Every row carries `matches`; a page without rows (or a search with more
 * matches than the sort takes: listSql and keysetSql page those) is one row whose other columns are null.
 */
export function searchPageSql(
  f: InvoiceFilter,
  opts: FilterOptions,
  at: { page: number } | { after?: InvoiceCursor; before?: InvoiceCursor },
  size: number,
): SQL {
  const keyset = 'page' in at ? null : keysetPosition(at);
  const order = keyset?.order ?? ORDER;
  const page = keyset
    ? sql`AND ${keyset.position} ORDER BY ${order} LIMIT ${size + 1}::int`
    : sql`ORDER BY ${order} LIMIT ${size}::int OFFSET ${(at as { page: number }).page * size}::bigint`;
  return sql`
    WITH m AS MATERIALIZED (SELECT i.id, i.created_at FROM invoices i WHERE ${whereSql(f, opts)}
          LIMIT ${sql.raw(String(SEARCH_SORT_MAX + 1))}),
    n AS (SELECT count(*)::int AS matches FROM m),
    p AS (SELECT i.id FROM m i WHERE (SELECT matches FROM n) <= ${SEARCH_SORT_MAX}::int ${page})
    SELECT n.matches, ${ITEM_COLUMNS}
    FROM n LEFT JOIN (p JOIN invoices i ON i.id = p.id ${ITEM_JOINS}) ON true
    ORDER BY ${order}`;
}

/** Exact count up to the cap: reads at most INVOICE_TOTAL_CAP + 1 index entries. */
export function countSql(f: InvoiceFilter, opts: FilterOptions): SQL {
  return sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM invoices i WHERE ${whereSql(f, opts)}
    LIMIT ${CAP_PLUS_ONE}) s`;
}

/** One invoice with what its actions depend on (engine/processing.ts), for its details page. */
export function detailSql(invoiceId: string, merchantId: string): SQL {
  return sql`
    SELECT ${ITEM_COLUMNS}, ${processingColumnsSql('i')}
    FROM invoices i ${ITEM_JOINS}
    WHERE i.id = ${invoiceId}::uuid AND i.merchant_id = ${merchantId}::uuid`;
}
export type DetailRow = ItemRow & ProcessingRow;

export type ItemRow = {
  id: string;
  merchant_invoice_id: string;
  provider_invoice_id: string | null;
  /** timestamptz arrives as text through Drizzle's execute */
  created_at: string | Date;
  /** created_at at the database's precision (microseconds), for cursors */
  position: string;
  amount: string;
  fee: string | null;
  currency_id: number;
  currency_code: string;
  currency_name: string;
  dimension: number;
  flow_type: string;
  status: string;
  status_date: string | Date;
  is_test: boolean;
  external_id: string | null;
  first_name: string | null;
  last_name: string | null;
  terminal_id: string;
  terminal_name: string;
  payment_method_name: string | null;
  credential_masked: string | null;
  bank_name: string | null;
  owner_name: string | null;
  provider_name: string | null;
};

export type Visibility = { canReadProvider: boolean; canReadCredentials: boolean };

export function statusRef(code: string) {
  const s = statusByCode(code);
  if (!s) throw new Error(`Unknown invoice status in the database: ${code}`);
  return { id: s.id, code: s.code as InvoiceStatus, value: s.value };
}

/** A database row as the API's Invoice (contracts' invoice schema), with the permission-gated fields blanked. */
export function toInvoice(r: ItemRow, v: Visibility): Invoice {
  const hasCredentials = r.bank_name !== null || r.owner_name !== null || r.provider_name !== null;
  return {
    invoiceId: r.id,
    merchantInvoiceId: r.merchant_invoice_id,
    providerInvoiceId: v.canReadProvider ? r.provider_invoice_id : null,
    createdDate: new Date(r.created_at).toISOString(),
    // int8 arrives as text; money columns are CHECKed to the exact range of a number
    amount: toSafeInt(r.amount),
    fee: toSafeInt(r.fee ?? 0),
    currency: { id: r.currency_id, code: r.currency_code, name: r.currency_name, dimension: r.dimension },
    flowType: { code: r.flow_type as FlowType },
    invoiceStatus: statusRef(r.status),
    statusDate: new Date(r.status_date).toISOString(),
    isTestProcessing: r.is_test,
    customer:
      r.external_id === null
        ? null
        : { externalId: r.external_id, people: { firstName: r.first_name ?? '', lastName: r.last_name ?? '' } },
    terminal: { id: r.terminal_id, name: r.terminal_name },
    paymentMethod: r.payment_method_name === null ? null : { paymentMethod: { name: r.payment_method_name } },
    // always masked (a card's BIN + last four, a phone's ends); the full value only by an audited reveal
    // (service.ts revealInvoiceCredentials)
    account: r.credential_masked === null ? null : { value: r.credential_masked },
    credentials: hasCredentials ? { bankName: r.bank_name, owner: r.owner_name, provider: r.provider_name } : null,
  };
}

// the CSV cells are formatted in SQL by the helpers the reports share (lib/csv-sql.ts)
const safeText = (expr: string) => sql.raw(csvSql.safeText(expr));
const isoTime = (expr: string) => sql.raw(csvSql.isoTime(expr));
const major = (expr: string) => sql.raw(csvSql.major(expr));
const CURRENCY_SCALE = sql.raw(csvSql.CURRENCY_SCALE);

/** The SELECT of Invoices.csv over the invoices `where` picks. */
const csvSelect = (opts: FilterOptions, where: SQL) => sql`
    SELECT
      i.id AS "Invoice ID",
      ${safeText('i.merchant_invoice_id')} AS "Merchant Invoice ID",
      ${opts.canReadProvider ? safeText('i.provider_invoice_id') : sql.raw('NULL::text')} AS "Provider Invoice ID",
      ${isoTime('i.created_at')} AS "Created",
      ${isoTime('i.status_date')} AS "Status Date",
      i.flow_type AS "Flow Type",
      i.status AS "Status",
      ${major('i.amount')} AS "Amount",
      ${major('i.fee')} AS "Fee",
      c.code AS "Currency",
      CASE WHEN i.is_test THEN 'true' ELSE 'false' END AS "Test",
      t.id AS "Terminal ID",
      ${safeText('t.name')} AS "Terminal",
      ${safeText('cu.external_id')} AS "User ID",
      ${safeText('cu.first_name')} AS "First Name",
      ${safeText('cu.last_name')} AS "Last Name",
      pm.name AS "Payment Method"
    FROM invoices i
    JOIN terminals t ON t.id = i.terminal_id
    JOIN ${CURRENCY_SCALE} c ON c.id = i.currency_id
    LEFT JOIN customers cu ON cu.id = i.customer_id
    LEFT JOIN payment_methods pm ON pm.id = i.payment_method_id
    WHERE ${where}`;

/**
 * The COPY statement of Invoices.csv: ISO-8601 UTC times with offset, amounts in major units by the
 * currency's dimension. `ordered` sorts newest first like the list; unordered, rows stream in storage
 * order from the first byte (sorting a million rows first would hold the download back for seconds).
 */
export function csvCopySql(f: InvoiceFilter, opts: FilterOptions, ordered: boolean): string {
  return csvSql.copyCsvOf(sql`${csvSelect(opts, whereSql(f, opts))}
    ${ordered ? sql`ORDER BY ${ORDER}` : sql``}`);
}

/** A row's place in the list's order (newest first), as text that casts back exactly. */
export type CsvKey = { at: string; id: string };

/** Rows after `k` in the list's order (the keyset condition of the list's `after=`). */
const afterRow = (k: CsvKey) => keysetPosition({ after: { createdAt: k.at, id: k.id } }).position;
/** Rows up to and including `k` in the list's order. */
const untilKey = (k: CsvKey) =>
  sql`i.created_at >= ${k.at}::timestamptz
    AND (i.created_at > ${k.at}::timestamptz OR (i.created_at = ${k.at}::timestamptz AND i.id <= ${k.id}::uuid))`;

/**
 * The export in keyset batches (the embedded database, lib/copy-out.ts copyInBatches), newest first like the list
 * and its index: the key of the last of the next `n` rows after `after`…
 */
export function csvBatchEndSql(f: InvoiceFilter, opts: FilterOptions, after: CsvKey | null, n: number): SQL {
  return sql`
    SELECT created_at::text AS at, id::text AS id
    FROM (SELECT i.created_at, i.id FROM invoices i
          WHERE ${whereSql(f, opts)} ${after ? sql`AND ${afterRow(after)}` : sql``}
          ORDER BY ${ORDER} LIMIT ${n}::int) i
    ORDER BY i.created_at ASC, i.id DESC LIMIT 1`;
}

/** …and the COPY of the rows after `after` up to and including `until` (null: none, the header alone). */
export function csvBatchCopySql(
  f: InvoiceFilter,
  opts: FilterOptions,
  after: CsvKey | null,
  until: CsvKey | null,
  header: boolean,
): string {
  const range = [whereSql(f, opts)];
  if (after) range.push(afterRow(after));
  range.push(until ? untilKey(until) : sql`false`);
  return csvSql.copyCsvOf(sql`${csvSelect(opts, sql.join(range, sql` AND `))} ORDER BY ${ORDER}`, header);
}
