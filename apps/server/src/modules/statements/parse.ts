import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { parse, CsvError } from 'csv-parse';
import { luhnValid } from '@paydesk/contracts/card';
import { maskRequisite } from '@paydesk/contracts/masking';
import {
  DEFAULT_STATEMENT_HEADER,
  STATEMENT_COUNTERPARTY,
  STATEMENT_FIELDS,
  STATEMENT_REFERENCE_MAX,
  type StatementDirection,
  type StatementField,
  type StatementMapping,
} from '@paydesk/contracts';
import { AppError } from '../../lib/errors';

/**
 * A statement file read as a stream with csv-parse (RFC 4180: quoted cells, a UTF-8 BOM), checked line by line and
 * handed on in batches: memory holds one batch, whatever the file's size. The header (line 1) names the columns, in
 * any order: the default ones, or the provider's mapping (`statement_mappings`). Every other line is a line of the
 * statement. A line number is the record's number, the header being 1 (a quoted cell holding a line break is still
 * one line). The optional counterparty column (a card or phone number) leaves here as its keyed hash and masked form
 * only: the number itself never reaches the database.
 */

export type StatementRow = {
  lineNo: number;
  /** ISO 8601 as written (checked) */
  occurredAt: string;
  accountId: number;
  amount: number;
  direction: StatementDirection;
  reference: string;
  /** the reference when it is a UUID (lower case): a payout transaction's id, looked up by it */
  refUuid: string | null;
  /** the counterparty's keyed lookup hash and masked form; null when the line names none */
  counterpartyHash: string | null;
  counterpartyMasked: string | null;
};

/** What a line is checked against: the columns to read and the provider's accounts. */
export type ParseRules = {
  mapping: StatementMapping;
  /** the mapping is the provider's own (the messages say so) */
  custom: boolean;
  accounts: ReadonlySet<number>;
  providerName: string;
  /** the keyed lookup hash of a card or phone number (the vault's: it normalises the number itself) */
  hash: (value: string) => string;
};

/** A bad file: 400 naming the line (and the column), nothing written. */
export function fileError(line: number, column: string | null, problem: string) {
  const message = `Line ${line}${column ? `, column "${column}"` : ''}: ${problem}`;
  return new AppError('VALIDATION_ERROR', message, { file: message });
}

const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)$/;
const DIGITS = /^\d{1,16}$/;
const ACCOUNT_ID = /^\d{1,10}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** A written date that exists (Date.parse would take 2026-02-30 as 2 March). */
function realDay(y: string, m: string, d: string) {
  const month = Number(m);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1) return false;
  if (day <= 28) return true;
  const year = Number(y);
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= DAYS_IN_MONTH[month - 1]! + (leap ? 1 : 0);
}

/** Quote a cell for a message: short, printable. */
const shown = (v: string) => JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);

/** A file's header: which column holds each field, the counterparty's (null: none), and how many columns a line has. */
export type StatementHeader = { at: Record<StatementField, number>; counterparty: number | null; width: number };

/** The column index of each field, from the header line. */
function columnsOf(header: string[], rules: ParseRules): StatementHeader {
  const names = header.map((h) => h.trim().toLowerCase());
  const out = {} as Record<StatementField, number>;
  const expected = rules.custom
    ? `this provider's columns: ${STATEMENT_FIELDS.map((f) => rules.mapping[f]).join(', ')}`
    : `the header is ${DEFAULT_STATEMENT_HEADER}`;
  for (const field of STATEMENT_FIELDS) {
    const name = rules.mapping[field];
    const at = names.indexOf(name.toLowerCase());
    if (at < 0) throw fileError(1, name, `the header has no such column (${expected})`);
    if (names.indexOf(name.toLowerCase(), at + 1) >= 0) throw fileError(1, name, 'the header names this column twice');
    out[field] = at;
  }
  // optional: a file without the column names no counterparty
  const name = rules.mapping[STATEMENT_COUNTERPARTY];
  const counterparty = name === undefined ? -1 : names.indexOf(name.toLowerCase());
  if (name !== undefined && counterparty >= 0 && names.indexOf(name.toLowerCase(), counterparty + 1) >= 0) {
    throw fileError(1, name, 'the header names this column twice');
  }
  return { at: out, counterparty: counterparty < 0 ? null : counterparty, width: header.length };
}

const EMPTY_FILE = `the file is empty: its first line must be the header (${DEFAULT_STATEMENT_HEADER})`;

/** The header of a file on disk (line 1), or a 400 naming what is wrong with it. */
export async function readHeader(file: string, rules: ParseRules): Promise<StatementHeader> {
  const source = fs.createReadStream(file, { end: 64 * 1024 - 1 });
  const parser = source.pipe(parse({ bom: true, to_line: 1, relax_column_count: true, relax_quotes: true }));
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      return columnsOf(record, rules);
    }
  } catch (err) {
    if (err instanceof CsvError)
      throw fileError(1, null, `not valid CSV (${err.message.replace(/\s*at line \d+/, '')})`);
    throw err;
  } finally {
    source.destroy();
  }
  throw fileError(1, null, EMPTY_FILE);
}

const CARD_WRITTEN = /^\d(?:[ -]?\d)*$/;
const PHONE_WRITTEN = /^\+\d(?:[ ()-]{0,2}\d)*$/;
const COUNTERPARTY_RULE =
  'the counterparty is neither a card number (13 to 19 digits passing the Luhn check, spaces or dashes between them) ' +
  "nor a phone number ('+' and 9 to 15 digits, or 9 to 12 digits)";

/**
 * A counterparty cell as its lookup hash and masked form (null: the cell is empty), or the rule it breaks. A card: 13–19
 * digits passing the Luhn check, single spaces or dashes between them; a phone: '+' and 9–15 digits (spaces, dashes,
 * brackets between them), or 9–12 digits without the '+'. A phone without its country code ('901234567', '8 916 …')
 * cannot be compared with the books' international numbers: it keeps its masked form and no hash, so it is never
 * taken for another number. The value itself goes no further than this function, and a message never quotes it.
 */
export function counterpartyOf(
  cell: string,
  hash: (value: string) => string,
): { hash: string | null; masked: string } | null | string {
  const value = cell.trim();
  if (!value) return null;
  let type: 'CARD' | 'PHONE' | null = null;
  let digits = '';
  if (PHONE_WRITTEN.test(value)) {
    digits = value.replace(/\D/g, '');
    if (digits.length >= 9 && digits.length <= 15) type = 'PHONE';
  } else if (CARD_WRITTEN.test(value)) {
    digits = value.replace(/\D/g, '');
    if (digits.length >= 13 && digits.length <= 19 && luhnValid(digits)) type = 'CARD';
    else if (digits.length >= 9 && digits.length <= 12) type = 'PHONE';
  }
  if (!type) return COUNTERPARTY_RULE;
  if (type === 'PHONE' && !value.startsWith('+')) return { hash: null, masked: maskRequisite(type, value) };
  // the digits alone: what invoices' credential_hash is computed over (the vault drops separators and a '+' too)
  return { hash: hash(digits), masked: maskRequisite(type, value) };
}

/** One line of the file as a statement row, or a 400 naming what is wrong with it (no closure per line: hot path). */
function rowOf(record: string[], lineNo: number, header: StatementHeader, rules: ParseRules) {
  const { at, width } = header;
  if (record.length !== width) {
    throw fileError(lineNo, null, `${record.length} column${record.length === 1 ? '' : 's'}, the header has ${width}`);
  }
  const occurredAt = record[at.occurredAt]!.trim();
  const iso = ISO_INSTANT.exec(occurredAt);
  if (!iso || !realDay(iso[1]!, iso[2]!, iso[3]!)) {
    throw fileError(
      lineNo,
      rules.mapping.occurredAt,
      `${shown(occurredAt)} is not an ISO 8601 date-time with its offset, e.g. 2026-03-01T10:15:00Z`,
    );
  }
  const accountText = record[at.accountId]!.trim();
  const accountId = ACCOUNT_ID.test(accountText) ? Number(accountText) : NaN;
  if (!rules.accounts.has(accountId)) {
    throw fileError(
      lineNo,
      rules.mapping.accountId,
      Number.isNaN(accountId)
        ? `${shown(accountText)} is not an account id`
        : `account ${accountId} is not an account of ${rules.providerName}`,
    );
  }
  const amountText = record[at.amount]!.trim();
  const amount = DIGITS.test(amountText) ? Number(amountText) : NaN;
  if (!(amount > 0 && amount <= Number.MAX_SAFE_INTEGER)) {
    throw fileError(
      lineNo,
      rules.mapping.amount,
      `${shown(amountText)} is not an amount: a whole number of minor units above 0 (100.50 is written 10050)`,
    );
  }
  const directionCell = record[at.direction]!;
  const direction =
    directionCell === 'IN' || directionCell === 'OUT' ? directionCell : directionCell.trim().toUpperCase();
  if (direction !== 'IN' && direction !== 'OUT') {
    throw fileError(lineNo, rules.mapping.direction, `${shown(directionCell.trim())} is not a direction: IN or OUT`);
  }
  const reference = record[at.reference]!.trim();
  if (!reference || reference.length > STATEMENT_REFERENCE_MAX || reference.includes('\u0000')) {
    throw fileError(
      lineNo,
      rules.mapping.reference,
      !reference
        ? 'the reference is empty'
        : reference.length > STATEMENT_REFERENCE_MAX
          ? `the reference is longer than ${STATEMENT_REFERENCE_MAX} characters`
          : 'the reference holds a NUL character',
    );
  }
  let counterparty: ReturnType<typeof counterpartyOf> = null;
  if (header.counterparty !== null) {
    counterparty = counterpartyOf(record[header.counterparty]!, rules.hash);
    if (typeof counterparty === 'string') {
      throw fileError(lineNo, rules.mapping[STATEMENT_COUNTERPARTY] ?? STATEMENT_COUNTERPARTY, counterparty);
    }
  }
  const row: StatementRow = {
    lineNo,
    occurredAt,
    accountId,
    amount,
    direction,
    reference,
    refUuid: reference.length === 36 && UUID.test(reference) ? reference.toLowerCase() : null,
    counterpartyHash: counterparty?.hash ?? null,
    counterpartyMasked: counterparty?.masked ?? null,
  };
  return row;
}

/**
 * The statement's lines in batches of `batchSize` (small: what a batch holds is promoted to V8's old space before it
 * is dropped, and the process's memory grows with it), read from `source` as it streams. Throws a 400 (fileError) at the
 * first bad line: an empty file, a header without the columns, a line of another column count, a bad date, account,
 * amount, direction, reference or counterparty, or CSV that does not parse (an unclosed quote…).
 */
export async function* statementRows(
  source: Readable,
  rules: ParseRules,
  batchSize = 1_000,
): AsyncGenerator<StatementRow[]> {
  const parser = source.pipe(parse({ bom: true, relax_column_count: true, max_record_size: 64 * 1024 }));
  source.once('error', (err) => parser.destroy(err));
  let lineNo = 0;
  let header: StatementHeader | null = null;
  let batch: StatementRow[] = [];
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      lineNo++;
      if (!header) {
        header = columnsOf(record, rules);
        continue;
      }
      batch.push(rowOf(record, lineNo, header, rules));
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
  } catch (err) {
    if (err instanceof CsvError) {
      const line = Number((err as CsvError & { lines?: number }).lines) || lineNo + 1;
      throw fileError(line, null, `not valid CSV (${err.message.replace(/\s*at line \d+/, '')})`);
    }
    throw err;
  } finally {
    parser.destroy();
  }
  if (!header) {
    throw fileError(1, null, EMPTY_FILE);
  }
  if (batch.length) yield batch;
}
