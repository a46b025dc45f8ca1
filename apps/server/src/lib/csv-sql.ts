import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

/**
 * CSV cells formatted in SQL, for files streamed with `COPY (SELECT …) TO STDOUT (FORMAT csv)`: the invoice and audit
 * exports and the reports. PostgreSQL's CSV format quotes a cell that holds the delimiter, a quote, CR or LF (RFC 4180)
 * exactly like csv-stringify did; each helper takes a SQL expression (column or computed) and gives one.
 */

/** Text a spreadsheet would run as a formula gets a leading quote (OWASP CSV injection). */
export const safeText = (expr: string) =>
  `CASE WHEN left(${expr}, 1) IN ('=', '+', '-', '@', E'\\t', E'\\r') THEN '''' || ${expr} ELSE ${expr} END`;

/**
 * safeText with an empty string as an empty cell: COPY writes NULL as an empty cell but '' as `""`, while the
 * reports (csv-stringify before) wrote both as empty.
 */
export const reportText = (expr: string) => `NULLIF(${safeText(expr)}, '')`;

/** ISO-8601 in UTC with its offset and microseconds, whatever the session's TimeZone; much cheaper than to_char. */
export const isoTime = (expr: string) => `replace((${expr} AT TIME ZONE 'UTC')::text, ' ', 'T') || '+00:00'`;

/**
 * ISO-8601 in UTC with milliseconds and Z, as JavaScript's Date#toISOString writes it (the reports' format):
 * the timestamp's text (`YYYY-MM-DD HH:MM:SS[.ffffff]`, trailing zeros dropped) padded to milliseconds. Cheaper than
 * to_char; both truncate the microseconds.
 */
export const isoMillis = (expr: string) =>
  `overlay(rpad(CASE WHEN length(t.v) = 19 THEN t.v || '.' ELSE t.v END, 23, '0') placing 'T' from 11) || 'Z'`.replaceAll(
    't.v',
    `(${expr} AT TIME ZONE 'UTC')::text`,
  );

/**
 * Minor units as a major-unit decimal with `dimension` digits (minorToMajorString of contracts), in integer
 * arithmetic; `c` names a row with `dimension` and `scale` = 10^dimension (CURRENCY_SCALE).
 */
export const major = (expr: string, c = 'c') =>
  `CASE WHEN ${c}.dimension = 0 THEN (${expr})::text ELSE CASE WHEN ${expr} < 0 THEN '-' ELSE '' END || ` +
  `(abs(${expr}) / ${c}.scale)::text || '.' || lpad((abs(${expr}) % ${c}.scale)::text, ${c}.dimension, '0') END`;

/** Currencies with `scale` = 10^dimension, for `major`. */
export const CURRENCY_SCALE =
  '(SELECT id, code, dimension, (10::numeric ^ dimension)::bigint AS scale FROM currencies)';

/** `COPY (select) TO STDOUT` as CSV, with the header row (the column aliases) or without it. */
export const copyCsv = (select: string, header = true) =>
  `COPY (${select}) TO STDOUT WITH (FORMAT csv, HEADER ${header ? 'true' : 'false'})`;

const dialect = new PgDialect();

/**
 * copyCsv of a Drizzle SELECT. COPY takes no bind parameters: its values are inlined as quoted literals, which copyOut
 * runs with standard_conforming_strings on, so a backslash in a value is just a character.
 */
export const copyCsvOf = (select: SQL, header = true) => copyCsv(inlined(select), header);

/** A statement's text with its values inlined as literals (for COPY, and what travels in one simple query with it). */
export const inlined = (statement: SQL) => dialect.sqlToQuery(statement.inlineParams()).sql;
