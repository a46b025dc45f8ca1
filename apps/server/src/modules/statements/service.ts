import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { eq, sql, type SQL } from 'drizzle-orm';
import { maskRequisitesInText } from '@paydesk/contracts/masking';
import {
  DEFAULT_STATEMENT_MAPPING,
  statementMapping,
  statementSummaryFilename,
  type StatementCounts,
  type StatementDetailQuery,
  type StatementItem,
  type StatementLineItem,
  type StatementListQuery,
  type StatementMapping,
  type StatementMappingBody,
  type StatementResolveBody,
  type StatementSummaryQuery,
  type StatementUploadFields,
} from '@paydesk/contracts';
import type { DbOrTx, Tx } from '../../db/create-db';
import { providerAccounts, providers, providerStatements, statementMappings } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import type { Caller } from '../../plugins/auth';
import { copyOut } from '../../lib/copy-out';
import { CURRENCY_SCALE, copyCsvOf, major } from '../../lib/csv-sql';
import { AppError, badRequest, invalidState, notFound } from '../../lib/errors';
import { recordAudit, staffActor, type AuditActor } from '../audit/service';
import { changeInvoiceAmount, changeInvoiceStatus } from '../invoices/service';
import { reportIncoming } from '../provider-api/service';
import {
  CLASSIFIED,
  MATCH_CHUNK,
  addBooksOnly,
  classifyLines,
  connectionOf,
  copyFile,
  createStaging,
  fullCounts,
  insertFile,
  storeLines,
  type MatchScope,
} from './match';
import { fileError, readHeader, statementRows, type ParseRules } from './parse';

/*
 * Provider statements (docs/operations.md, "Provider statements"): upload and reconcile, read, resolve exceptions,
 * each provider's columns, and the daily summary. Every write is one transaction with its audit record.
 */

const iso = (v: string | Date) => new Date(v).toISOString();
const isoOrNull = (v: string | Date | null) => (v === null ? null : iso(v));

/* ---- Upload ---- */

export type UploadArgs = StatementUploadFields & {
  filename: string;
  /** the file as it arrives */
  file: Readable;
  actor: AuditActor;
};

/**
 * Uploads a statement: the file is first written to a temporary file as it arrives (hashing it), so that a slow
 * upload holds no database connection and the same file uploaded again is recognised before anything is read. Then,
 * in one transaction: the lines are staged (read by the database's own CSV reader, or by csv-parse on the embedded
 * one), classified against the books and stored (match.ts), the IN lines the books did not have are reported as incoming money through the provider API's own path
 * (provider-api/service.ts reportIncoming: matched to the deposit waiting for it, else unmatched in suspense), and
 * the counts and the audit record are written. A bad line refuses the whole file (400, nothing written).
 */
export async function uploadStatement(
  ctx: AppContext,
  args: UploadArgs,
): Promise<{ statement: StatementItem; duplicate: boolean }> {
  const providerId = args.providerId;
  const [provider] = await ctx.db
    .select({ id: providers.id, name: providers.name })
    .from(providers)
    .where(eq(providers.id, providerId));
  if (!provider) {
    args.file.resume();
    throw badRequest('No such provider', { providerId: 'No such provider' });
  }
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'paydesk-statement-'));
  try {
    const spooled = path.join(dir, 'statement.csv');
    const hash = createHash('sha256');
    await pipeline(
      args.file,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          hash.update(chunk);
          yield chunk;
        }
      },
      fs.createWriteStream(spooled),
    );
    const contentHash = hash.digest('hex');
    const existing = await statementByHash(ctx.db, providerId, contentHash);
    if (existing) return { statement: existing, duplicate: true };

    const rules: ParseRules = {
      ...(await mappingOf(ctx.db, providerId)),
      accounts: new Set(
        (
          await ctx.db
            .select({ id: providerAccounts.id })
            .from(providerAccounts)
            .where(eq(providerAccounts.providerId, providerId))
        ).map((a) => a.id),
      ),
      providerName: provider.name,
      hash: (value) => ctx.vault.hash(value),
    };
    const periodFrom = new Date(args.periodFrom);
    const periodTo = new Date(args.periodTo);
    const header = await readHeader(spooled, rules);
    const reconcile = () =>
      ctx.db.transaction(async (tx) => {
        // a million lines take longer than an interactive statement may: the exports' limit, for this transaction only
        await tx.execute(sql.raw(`SET LOCAL statement_timeout = ${Math.trunc(ctx.config.exportTimeoutMs)}`));
        // a few hash joins and aggregates over the whole file, run once: memory for them (this transaction only), no
        // JIT (compiling these statements' expressions costs seconds, more than it saves), and no merge join (it would
        // sort the million lines by reference to join a hundred thousand payouts)
        await tx.execute(
          sql.raw(`SET LOCAL work_mem = '256MB'; SET LOCAL jit = off; SET LOCAL enable_mergejoin = off`),
        );
        await createStaging(tx, header);
        const client = connectionOf(tx);
        // a counterparty column: read here, so that its numbers reach the database hashed and masked only
        if (ctx.dbh.kind === 'postgres' && header.counterparty === null) await copyFile(client, spooled, header);
        else await insertFile(client, spooled, rules);

        const now = ctx.now();
        const [row] = await tx
          .insert(providerStatements)
          .values({
            providerId,
            periodFrom,
            periodTo,
            filename: args.filename,
            contentHash,
            lineCount: 0,
            uploadedBy: args.actor.userId,
            uploadedAt: now,
          })
          .onConflictDoNothing()
          .returning({ id: providerStatements.id });
        // the same file, uploaded at the same moment by someone else, committed first
        if (!row) return { duplicateOf: contentHash } as const;

        const scope: MatchScope = {
          statementId: row.id,
          providerId,
          accounts: [...rules.accounts],
          periodFrom,
          periodTo,
        };
        const badLine = await classifyLines(tx, scope);
        if (badLine !== null) throw new BadLine(badLine);
        const lines = fullCounts(await storeLines(tx, scope));
        const lineCount = Object.values(lines).reduce((a, b) => a + b, 0);
        const counts: StatementCounts = { ...lines, BOOKS_ONLY: await addBooksOnly(tx, scope) };
        const reported = await reportStatementOnly(ctx, tx, row.id, providerId);
        await tx.update(providerStatements).set({ counts, lineCount }).where(eq(providerStatements.id, row.id));
        await recordAudit(
          tx,
          args.actor,
          {
            action: 'statement.uploaded',
            targetType: 'statement',
            targetId: row.id,
            after: {
              providerId,
              periodFrom: periodFrom.toISOString(),
              periodTo: periodTo.toISOString(),
              filename: args.filename,
              contentHash,
              lineCount,
              counts,
              reportedIncoming: reported,
            },
          },
          now,
        );
        return { id: row.id } as const;
      });
    let outcome: Awaited<ReturnType<typeof reconcile>>;
    try {
      outcome = await reconcile();
    } catch (err) {
      throw await explainBadFile(spooled, rules, err);
    }
    if ('duplicateOf' in outcome) {
      return { statement: (await statementByHash(ctx.db, providerId, contentHash))!, duplicate: true };
    }
    return { statement: (await statementById(ctx.db, outcome.id))!, duplicate: false };
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

/** The database found a line that breaks a rule of the format (its number); parse.ts says which and why. */
class BadLine extends Error {
  constructor(readonly lineNo: number) {
    super(`line ${lineNo} of the statement breaks a rule`);
  }
}

/** COPY's own account of where a file went wrong: "COPY statement_staging, line 12, column amount: …". */
const COPY_WHERE = /COPY \w+, line (\d+)/;

/**
 * Why a file was refused, as a 400 naming the line (and the column): the file read again by parse.ts, which stops at
 * the first bad line with its own message. The database is stricter in a few corners parse.ts lets pass (a byte that
 * is not UTF-8, mixed line endings): then its own words, with the line it names. Anything else (the database going
 * away, a timeout) is not the file's fault and is thrown as it was.
 */
async function explainBadFile(spooled: string, rules: ParseRules, err: unknown): Promise<unknown> {
  if (err instanceof AppError) return err;
  // node-postgres's error, as COPY throws it or as Drizzle wraps it (its cause)
  type PgError = { code?: string; where?: string; message?: string; cause?: unknown };
  const dbError = ((err as PgError).code ? err : ((err as PgError).cause ?? err)) as PgError;
  const fromDb = err instanceof BadLine || (typeof dbError.code === 'string' && dbError.code.startsWith('22'));
  if (!fromDb) return err;
  const source = fs.createReadStream(spooled);
  try {
    for await (const batch of statementRows(source, rules)) void batch;
  } catch (parsed) {
    if (parsed instanceof AppError) return parsed;
    throw parsed;
  } finally {
    source.destroy();
  }
  const line = err instanceof BadLine ? err.lineNo : Number(COPY_WHERE.exec(dbError.where ?? '')?.[1] ?? NaN);
  return fileError(Number.isFinite(line) ? line : 1, null, `not a valid statement line (${dbError.message ?? 'bad'})`);
}

/**
 * The IN lines the books did not have, reported as the provider would have (provider-api reportIncoming, in this
 * transaction: each in a savepoint of its own): the engine matches each to the one deposit waiting for it, or posts
 * it to suspense as unmatched money. The line keeps its outcome (the books had not seen it) and names the payment.
 * The payment gets the reference as the bank wrote it (the classified lines, until the transaction ends), not the
 * line's masked copy: it is the payment's key, the one the provider's own report of it will name.
 * OUT lines the books did not have are flagged only. Returns how many were reported.
 */
async function reportStatementOnly(ctx: AppContext, tx: Tx, statementId: string, providerId: number) {
  const lines = await tx.execute<{
    id: string;
    occurred_at: string | Date;
    account_id: number;
    amount: string;
    reference: string;
  }>(sql`
    SELECT l.id, l.occurred_at, l.account_id, l.amount::text AS amount, c.reference
    FROM statement_lines l JOIN ${sql.raw(CLASSIFIED)} c ON c.line_no = l.line_no
    WHERE l.statement_id = ${statementId}::uuid AND l.outcome = 'STATEMENT_ONLY' AND l.direction = 'IN'
    ORDER BY l.id`);
  // the provider API's own path, in this transaction: its transaction becomes a savepoint of this one
  const inTx: AppContext = { ...ctx, db: tx as unknown as AppContext['db'] };
  for (const l of lines.rows) {
    const item = await reportIncoming(inTx, providerId, {
      accountId: Number(l.account_id),
      amount: Number(l.amount),
      occurredAt: iso(l.occurred_at),
      reference: l.reference,
    });
    const detail =
      item.status === 'MATCHED' && item.matchedInvoiceId
        ? `reported to the books from the statement: it paid deposit ${item.matchedInvoiceId}`
        : 'reported to the books from the statement: unmatched money, in suspense';
    await tx.execute(
      sql`UPDATE statement_lines SET incoming_id = ${item.id}::uuid, detail = ${detail} WHERE id = ${l.id}`,
    );
  }
  return lines.rows.length;
}

/* ---- Reading ---- */

/**
 * A line still to resolve: an exception nobody resolved, or one whose correction was asked for (APPROVAL) and then
 * rejected, or left to expire. The one definition of "open" for the statement's count, its filter and the desk's queue.
 */
export const openLineSql = (l: string) =>
  sql.raw(`(${l}.outcome <> 'MATCHED' AND (${l}.resolved_at IS NULL OR
  (${l}.approval_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM approval_requests ar WHERE ar.id = ${l}.approval_id
    AND (ar.status = 'APPROVED' OR (ar.status = 'PENDING' AND ar.expires_at > now()))))))`);

type StatementRow = {
  id: string;
  provider_id: number;
  provider_name: string;
  period_from: string | Date;
  period_to: string | Date;
  filename: string;
  content_hash: string;
  line_count: number;
  counts: Partial<StatementCounts> | null;
  open: number;
  uploaded_at: string | Date;
  uploaded_by: string | null;
};

const STATEMENT_SELECT = sql`
  SELECT ps.id, ps.provider_id, p.name AS provider_name, ps.period_from, ps.period_to, ps.filename, ps.content_hash,
    ps.line_count, ps.counts, ps.uploaded_at, u.username AS uploaded_by,
    (SELECT count(*)::int FROM statement_lines l WHERE l.statement_id = ps.id AND ${openLineSql('l')}) AS open
  FROM provider_statements ps JOIN providers p ON p.id = ps.provider_id LEFT JOIN users u ON u.id = ps.uploaded_by`;

const toStatement = (r: StatementRow): StatementItem => ({
  id: r.id,
  providerId: Number(r.provider_id),
  providerName: r.provider_name,
  periodFrom: iso(r.period_from),
  periodTo: iso(r.period_to),
  filename: r.filename,
  contentHash: r.content_hash,
  lineCount: Number(r.line_count),
  counts: fullCounts(r.counts ?? {}),
  open: Number(r.open),
  uploadedAt: iso(r.uploaded_at),
  uploadedBy: r.uploaded_by,
});

async function oneStatement(db: DbOrTx, where: SQL) {
  const res = await db.execute<StatementRow>(sql`${STATEMENT_SELECT} WHERE ${where}`);
  return res.rows[0] ? toStatement(res.rows[0]) : null;
}
const statementById = (db: DbOrTx, id: string) => oneStatement(db, sql`ps.id = ${id}::uuid`);
const statementByHash = (db: DbOrTx, providerId: number, hash: string) =>
  oneStatement(db, sql`ps.provider_id = ${providerId} AND ps.content_hash = ${hash}`);

/** Statements, newest first, one keyset page. */
export async function listStatements(db: DbOrTx, q: StatementListQuery) {
  const where: SQL[] = [];
  if (q.providerId !== undefined) where.push(sql`ps.provider_id = ${q.providerId}`);
  if (q.after) {
    const cut = q.after.indexOf('_');
    where.push(sql`(ps.uploaded_at, ps.id) < (${q.after.slice(0, cut)}::timestamptz, ${q.after.slice(cut + 1)}::uuid)`);
  }
  const res = await db.execute<StatementRow>(sql`${STATEMENT_SELECT}
    ${where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``}
    ORDER BY ps.uploaded_at DESC, ps.id DESC LIMIT ${q.limit + 1}`);
  const data = res.rows.slice(0, q.limit).map(toStatement);
  const last = data.at(-1);
  return { data, next: res.rows.length > q.limit && last ? `${last.uploadedAt}_${last.id}` : null };
}

type LineRow = {
  id: string;
  statement_id: string;
  line_no: number | null;
  occurred_at: string | Date;
  account_id: number;
  amount: string;
  currency: string;
  direction: StatementLineItem['direction'];
  reference: string;
  counterparty_masked: string | null;
  outcome: StatementLineItem['outcome'];
  incoming_id: string | null;
  transaction_id: string | null;
  detail: string | null;
  resolution: StatementLineItem['resolution'];
  resolved_at: string | Date | null;
  resolved_by: string | null;
  resolution_reason: string | null;
  approval_id: string | null;
  approval_status: StatementLineItem['approvalStatus'];
  open: boolean;
};

const LINE_SELECT = sql`
  SELECT l.id, l.statement_id, l.line_no, l.occurred_at, l.account_id, l.amount::text AS amount, c.code AS currency,
    l.direction, l.reference, l.counterparty_masked, l.outcome, l.incoming_id, l.transaction_id, l.detail, l.resolution, l.resolved_at,
    u.username AS resolved_by, l.resolution_reason, l.approval_id,
    CASE WHEN ar.status = 'PENDING' AND ar.expires_at <= now() THEN 'EXPIRED' ELSE ar.status END AS approval_status,
    ${openLineSql('l')} AS open
  FROM statement_lines l
  JOIN provider_accounts a ON a.id = l.account_id JOIN payment_methods pm ON pm.id = a.payment_method_id
  JOIN currencies c ON c.id = pm.currency_id
  LEFT JOIN users u ON u.id = l.resolved_by
  LEFT JOIN approval_requests ar ON ar.id = l.approval_id`;

const toLine = (r: LineRow): StatementLineItem => ({
  id: Number(r.id),
  statementId: r.statement_id,
  lineNo: r.line_no === null ? null : Number(r.line_no),
  occurredAt: iso(r.occurred_at),
  accountId: Number(r.account_id),
  amount: Number(r.amount),
  currency: r.currency,
  direction: r.direction,
  // masked when stored; masked again in case a number reached the books' reference another way
  reference: maskRequisitesInText(r.reference),
  counterparty: r.counterparty_masked,
  outcome: r.outcome,
  incomingId: r.incoming_id,
  transactionId: r.transaction_id,
  detail: r.detail,
  resolution: r.resolution,
  resolvedAt: isoOrNull(r.resolved_at),
  resolvedBy: r.resolved_by,
  resolutionReason: r.resolution_reason,
  approvalId: r.approval_id,
  approvalStatus: r.approval_status,
  open: r.open,
});

/** A books-only entry's place in the listing: after every line of the file (line numbers stay far below). */
const BOOKS_ONLY_BASE = 1_000_000_000_000;
/** An entry's place in the statement's listing: its line number, BOOKS_ONLY entries after the lines. */
const positionOf = (l: StatementLineItem) => l.lineNo ?? BOOKS_ONLY_BASE + l.id!;

/**
 * A statement with one keyset page of its entries, in file order (BOOKS_ONLY after the lines): its exceptions from
 * statement_lines and its matched lines from statement_matches, merged by position. The cursor is the last position.
 */
export async function statementDetail(db: DbOrTx, id: string, q: StatementDetailQuery) {
  const statement = await statementById(db, id);
  if (!statement) throw notFound('Statement');
  const after = q.after ? Number(q.after) : 0;
  const want = q.limit + 1;
  const wantMatched = (!q.outcome || q.outcome === 'MATCHED') && q.open !== 'true' && after < BOOKS_ONLY_BASE;
  const wantExceptions = q.outcome !== 'MATCHED';
  let exceptions: StatementLineItem[] = [];
  if (wantExceptions) {
    const where: SQL[] = [
      sql`l.statement_id = ${id}::uuid`,
      sql`coalesce(l.line_no::bigint, ${BOOKS_ONLY_BASE}::bigint + l.id) > ${after}`,
    ];
    if (q.outcome) where.push(sql`l.outcome = ${q.outcome}`);
    if (q.open === 'true') where.push(openLineSql('l'));
    if (q.open === 'false') where.push(sql`NOT ${openLineSql('l')}`);
    const res = await db.execute<LineRow>(
      sql`${LINE_SELECT} WHERE ${sql.join(where, sql` AND `)}
        ORDER BY coalesce(l.line_no::bigint, ${BOOKS_ONLY_BASE}::bigint + l.id) LIMIT ${want}`,
    );
    exceptions = res.rows.map(toLine);
  }
  const matched = wantMatched ? await matchedLines(db, id, after, want) : [];
  const page = [...exceptions, ...matched].sort((x, y) => positionOf(x) - positionOf(y)).slice(0, want);
  const lines = page.slice(0, q.limit);
  const last = lines.at(-1);
  return { data: { statement, lines }, next: page.length > q.limit && last ? String(positionOf(last)) : null };
}

type MatchedRow = {
  line_no: number;
  occurred_at: string | Date;
  kind: 'I' | 'O' | 'P';
  book_id: string;
  account_id: number;
  amount: string;
  currency: string;
  reference: string;
  counterparty: string | null;
};

/**
 * Up to `want` matched lines after line `after`, in line order: read a few chunks at a time from statement_matches,
 * each line shown with the books' record it is (its account, amount, reference).
 */
async function matchedLines(db: DbOrTx, statementId: string, after: number, want: number) {
  const [range] = (
    await db.execute<{ last: number | null }>(
      sql`SELECT max(chunk) AS last FROM statement_matches WHERE statement_id = ${statementId}::uuid`,
    )
  ).rows;
  const lastChunk = range?.last === null || range?.last === undefined ? -1 : Number(range.last);
  const out: StatementLineItem[] = [];
  for (let chunk = Math.floor(after / MATCH_CHUNK); out.length < want && chunk <= lastChunk; chunk += 2) {
    const res = await db.execute<MatchedRow>(sql`
      SELECT u.line_no, u.occurred_at, u.kind, u.book_id,
        coalesce(ip.account_id, pt.account_id) AS account_id, coalesce(ip.amount, i.amount)::text AS amount,
        c.code AS currency,
        CASE u.kind WHEN 'I' THEN ip.reference WHEN 'P' THEN i.provider_invoice_id ELSE pt.id::text END AS reference,
        u.counterparty
      FROM statement_matches m
      -- (a chunk without counterparties: a null array, unnested as nulls beside the other arrays)
      CROSS JOIN LATERAL unnest(m.line_nos, m.occurred_at, string_to_array(m.kinds, NULL), m.book_ids, m.counterparties)
        AS u(line_no, occurred_at, kind, book_id, counterparty)
      LEFT JOIN incoming_payments ip ON u.kind = 'I' AND ip.id = u.book_id
      LEFT JOIN provider_transactions pt ON u.kind <> 'I' AND pt.id = u.book_id
      LEFT JOIN invoices i ON i.id = pt.invoice_id
      JOIN provider_accounts a ON a.id = coalesce(ip.account_id, pt.account_id)
      JOIN payment_methods pm ON pm.id = a.payment_method_id JOIN currencies c ON c.id = pm.currency_id
      WHERE m.statement_id = ${statementId}::uuid AND m.chunk >= ${chunk} AND m.chunk < ${chunk + 2}
        AND u.line_no > ${after}
      ORDER BY u.line_no LIMIT ${want - out.length}`);
    for (const r of res.rows) {
      const incoming = r.kind === 'I';
      out.push({
        id: null,
        statementId,
        lineNo: Number(r.line_no),
        occurredAt: iso(r.occurred_at),
        accountId: Number(r.account_id),
        amount: Number(r.amount),
        currency: r.currency,
        direction: incoming ? 'IN' : 'OUT',
        // the books' record's reference, as shown anywhere: a card or phone number in it masked
        reference: maskRequisitesInText(r.reference),
        counterparty: r.counterparty,
        outcome: 'MATCHED',
        incomingId: incoming ? r.book_id : null,
        transactionId: incoming ? null : r.book_id,
        detail: null,
        resolution: null,
        resolvedAt: null,
        resolvedBy: null,
        resolutionReason: null,
        approvalId: null,
        approvalStatus: null,
        open: false,
      });
    }
  }
  return out;
}

async function lineById(db: DbOrTx, id: number) {
  const res = await db.execute<LineRow>(sql`${LINE_SELECT} WHERE l.id = ${id}`);
  return res.rows[0] ? toLine(res.rows[0]) : null;
}

/* ---- Resolving an exception ---- */

/**
 * Resolves an exception (any outcome but MATCHED, still open), audited with the reason. APPROVAL asks for a correction
 * of the invoice behind the line through that correction's own path, held for a second person whatever the policies
 * (askCorrection); the line stays resolved while its request waits or once it is approved. Otherwise nothing moves on
 * the books. MATCH names what the line is: for an IN line an incoming payment of the statement's provider, for an OUT
 * line a payout transaction on one of its accounts; the statement's BOOKS_ONLY entry for that payment, if open, is
 * resolved with it (one explanation for both). An IN line reported to the books when the statement was uploaded can
 * only be matched to the payment it became: matching it to another would count its money twice; resolve that payment
 * on the desk's unmatched money, then accept the line. ACCEPT records that staff accept the difference.
 */
export async function resolveLine(
  ctx: AppContext,
  args: { id: number; body: StatementResolveBody; caller: Caller },
): Promise<StatementLineItem> {
  const { body } = args;
  const actor = staffActor(args.caller.user, args.caller.ip);
  return ctx.db.transaction(async (tx) => {
    const res = await tx.execute<{
      id: string;
      statement_id: string;
      line_no: number | null;
      direction: 'IN' | 'OUT';
      outcome: string;
      incoming_id: string | null;
      transaction_id: string | null;
      resolved_at: string | Date | null;
      provider_id: number;
      detail: string | null;
      open: boolean;
      resolution: string | null;
    }>(sql`SELECT l.id, l.statement_id, l.line_no, l.direction, l.outcome, l.incoming_id, l.transaction_id,
        l.resolved_at, ps.provider_id, l.detail, ${openLineSql('l')} AS open, l.resolution
      FROM statement_lines l JOIN provider_statements ps ON ps.id = l.statement_id
      WHERE l.id = ${args.id} FOR UPDATE OF l`);
    const line = res.rows[0];
    if (!line) throw notFound('Statement line');
    if (line.outcome === 'MATCHED') throw invalidState('This line matched the books: there is nothing to resolve');
    if (!line.open) {
      throw invalidState(
        line.resolution === 'APPROVAL'
          ? 'A correction of this line is waiting for approval, or was approved'
          : 'This line was already resolved',
      );
    }
    const now = ctx.now();
    let incomingId = line.incoming_id;
    let transactionId = line.transaction_id;
    let alsoResolved: number[] = [];
    let approvalId: string | null = null;
    if (body.resolution === 'APPROVAL') {
      approvalId = await askCorrection(
        { ...ctx, db: tx as unknown as AppContext['db'] },
        { incomingId, transactionId },
        body,
        args.caller,
      );
    }
    if (body.resolution === 'MATCH') {
      if (line.line_no === null) {
        throw badRequest('A books-only entry has no statement line to match: accept it with a reason', {
          resolution: 'Accept it with a reason',
        });
      }
      if (line.direction === 'IN') {
        if (!body.incomingId) {
          throw badRequest('An IN line is an incoming payment: give incomingId', { incomingId: 'Give incomingId' });
        }
        await checkIncoming(tx, body.incomingId, Number(line.provider_id));
        if (line.outcome === 'STATEMENT_ONLY' && line.incoming_id && line.incoming_id !== body.incomingId) {
          throw invalidState(
            `This line's money was put on the books as incoming payment ${line.incoming_id} when the statement was ` +
              'uploaded; matching it to another payment would count it twice. Resolve that payment under Unmatched ' +
              'money, then accept this line.',
          );
        }
        incomingId = body.incomingId;
      } else {
        if (!body.transactionId) {
          throw badRequest('An OUT line is a payout: give transactionId', { transactionId: 'Give transactionId' });
        }
        await checkPayout(tx, body.transactionId, Number(line.provider_id));
        transactionId = body.transactionId;
      }
      const same =
        line.direction === 'IN' ? sql`incoming_id = ${incomingId}::uuid` : sql`transaction_id = ${transactionId}::uuid`;
      const others = await tx.execute<{ id: string }>(sql`
        UPDATE statement_lines SET resolution = 'MATCH', resolved_at = ${now.toISOString()}::timestamptz,
          resolved_by = ${actor.userId}::uuid, resolution_reason = ${body.reason},
          detail = concat_ws('; ', detail, ${`matched by hand to line ${line.line_no}`}::text)
        WHERE statement_id = ${line.statement_id}::uuid AND outcome = 'BOOKS_ONLY' AND resolved_at IS NULL AND ${same}
        RETURNING id`);
      alsoResolved = others.rows.map((r) => Number(r.id));
    }
    await tx.execute(sql`
      UPDATE statement_lines SET resolution = ${body.resolution}, resolved_at = ${now.toISOString()}::timestamptz,
        resolved_by = ${actor.userId}::uuid, resolution_reason = ${body.reason},
        incoming_id = ${incomingId}::uuid, transaction_id = ${transactionId}::uuid, approval_id = ${approvalId}::uuid
      WHERE id = ${args.id}`);
    await recordAudit(
      tx,
      actor,
      {
        action: 'statement.line_resolved',
        targetType: 'statement_line',
        targetId: args.id,
        before: {
          statementId: line.statement_id,
          lineNo: line.line_no,
          outcome: line.outcome,
          incomingId: line.incoming_id,
          transactionId: line.transaction_id,
        },
        after: { resolution: body.resolution, incomingId, transactionId, alsoResolved, approvalId },
        reason: body.reason,
      },
      now,
    );
    return (await lineById(tx, args.id))!;
  });
}

/**
 * The correction a line asks for, on the invoice behind it (the deposit its incoming payment paid, the withdrawal its
 * payout belongs to), through the invoice's own correction path with a second person always required: the request's
 * id. Refused when the line names no invoice, or when the caller may not ask for that correction.
 */
async function askCorrection(
  ctx: AppContext,
  book: { incomingId: string | null; transactionId: string | null },
  body: StatementResolveBody,
  caller: Caller,
): Promise<string> {
  const res = await ctx.db.execute<{ invoice_id: string; merchant_id: string }>(sql`
    SELECT i.id AS invoice_id, i.merchant_id FROM invoices i
    WHERE i.id = (SELECT matched_invoice_id FROM incoming_payments WHERE id = ${book.incomingId}::uuid)
       OR i.id = (SELECT invoice_id FROM provider_transactions WHERE id = ${book.transactionId}::uuid)
    LIMIT 1`);
  const invoice = res.rows[0];
  if (!invoice) {
    throw badRequest('This line names no invoice on the books: there is nothing to correct; accept it with a reason', {
      resolution: 'Nothing to correct: accept it with a reason',
    });
  }
  const reason = `${body.reason} (provider statement)`;
  const answer =
    body.statusId !== undefined
      ? await changeInvoiceStatus(
          ctx,
          invoice.merchant_id,
          { invoiceId: invoice.invoice_id, statusId: body.statusId, reason },
          caller,
          { askApproval: true },
        )
      : await changeInvoiceAmount(
          ctx,
          invoice.merchant_id,
          { invoiceId: invoice.invoice_id, amount: body.amount!, reason },
          caller,
          { askApproval: true },
        );
  if (!('held' in answer)) throw new Error('a correction asked for approval was carried out at once');
  return answer.held.approvalRequestId;
}

async function checkIncoming(tx: Tx, id: string, providerId: number) {
  const res = await tx.execute<{ provider_id: number }>(
    sql`SELECT provider_id FROM incoming_payments WHERE id = ${id}::uuid`,
  );
  const row = res.rows[0];
  if (!row) throw badRequest('No such incoming payment', { incomingId: 'No such incoming payment' });
  if (Number(row.provider_id) !== providerId) {
    throw badRequest("That incoming payment is another provider's", {
      incomingId: "Another provider's incoming payment",
    });
  }
}

async function checkPayout(tx: Tx, id: string, providerId: number) {
  const res = await tx.execute<{ type: string; provider_id: number | null }>(sql`
    SELECT pt.type, a.provider_id FROM provider_transactions pt LEFT JOIN provider_accounts a ON a.id = pt.account_id
    WHERE pt.id = ${id}::uuid`);
  const row = res.rows[0];
  if (!row || row.type !== 'PAYOUT') {
    throw badRequest('No such payout transaction', { transactionId: 'No such payout transaction' });
  }
  if (Number(row.provider_id) !== providerId) {
    throw badRequest("That payout went out on another provider's account", {
      transactionId: "Another provider's payout",
    });
  }
}

/* ---- Column mappings ---- */

type MappingRow = typeof statementMappings.$inferSelect;

/** The columns a provider's files are read with: its own mapping, else the default header. */
async function mappingOf(db: DbOrTx, providerId: number): Promise<{ mapping: StatementMapping; custom: boolean }> {
  const [row] = await db.select().from(statementMappings).where(eq(statementMappings.providerId, providerId));
  const parsed = row ? statementMapping.safeParse(row.mapping) : null;
  return parsed?.success
    ? { mapping: parsed.data, custom: true }
    : { mapping: DEFAULT_STATEMENT_MAPPING, custom: false };
}

async function mappingView(db: DbOrTx, providerId: number, row: MappingRow | undefined) {
  let updatedBy: string | null = null;
  if (row?.updatedBy) {
    const res = await db.execute<{ username: string }>(sql`SELECT username FROM users WHERE id = ${row.updatedBy}`);
    updatedBy = res.rows[0]?.username ?? null;
  }
  const parsed = row ? statementMapping.safeParse(row.mapping) : null;
  return {
    providerId,
    mapping: parsed?.success ? parsed.data : DEFAULT_STATEMENT_MAPPING,
    custom: !!parsed?.success,
    updatedAt: row ? row.updatedAt.toISOString() : null,
    updatedBy,
  };
}

async function requireProvider(db: DbOrTx, providerId: number) {
  const [p] = await db
    .select({ id: providers.id, code: providers.code })
    .from(providers)
    .where(eq(providers.id, providerId));
  if (!p) throw notFound('Provider');
  return p;
}

export async function getMapping(db: DbOrTx, providerId: number) {
  await requireProvider(db, providerId);
  const [row] = await db.select().from(statementMappings).where(eq(statementMappings.providerId, providerId));
  return mappingView(db, providerId, row);
}

/** Sets (or, with null, removes) a provider's columns; audited with the mapping before and after. */
export async function setMapping(
  ctx: AppContext,
  args: { providerId: number; body: StatementMappingBody; actor: AuditActor },
) {
  return ctx.db.transaction(async (tx) => {
    await requireProvider(tx, args.providerId);
    const [before] = await tx
      .select()
      .from(statementMappings)
      .where(eq(statementMappings.providerId, args.providerId))
      .for('update');
    const now = ctx.now();
    let after: MappingRow | undefined;
    if (args.body.mapping === null) {
      await tx.delete(statementMappings).where(eq(statementMappings.providerId, args.providerId));
    } else {
      [after] = await tx
        .insert(statementMappings)
        .values({
          providerId: args.providerId,
          mapping: args.body.mapping,
          updatedAt: now,
          updatedBy: args.actor.userId,
        })
        .onConflictDoUpdate({
          target: statementMappings.providerId,
          set: { mapping: args.body.mapping, updatedAt: now, updatedBy: args.actor.userId },
        })
        .returning();
    }
    await recordAudit(
      tx,
      args.actor,
      {
        action: 'statement.mapping_changed',
        targetType: 'provider',
        targetId: args.providerId,
        before: { mapping: before?.mapping ?? null },
        after: { mapping: args.body.mapping },
        reason: args.body.reason,
      },
      now,
    );
    return mappingView(tx, args.providerId, after);
  });
}

/* ---- The daily summary ---- */

/**
 * A provider's reconciliation per UTC day and currency, as CSV streamed with COPY: over its statements' entries whose
 * time falls on the day, the statement lines, how they came out, the books-only entries, and the lines' amounts in
 * and out (major units). Entries of two statements that cover the same day are both counted.
 */
export async function exportSummary(ctx: AppContext, q: StatementSummaryQuery) {
  const provider = await requireProvider(ctx.db, q.providerId);
  const from = `${q.from}T00:00:00Z`;
  const to = new Date(Date.parse(`${q.to}T00:00:00Z`) + 86_400_000).toISOString();
  const select = sql`
    SELECT d.day AS "Day", c.code AS "Currency", d.lines AS "Lines", d.matched AS "Matched",
      d.statement_only AS "Statement only", d.books_only AS "Books only", d.mismatches AS "Mismatches",
      ${sql.raw(major('d.amount_in'))} AS "Amount in", ${sql.raw(major('d.amount_out'))} AS "Amount out"
    FROM (
      SELECT day, currency_id, sum(lines) AS lines, sum(matched) AS matched, sum(statement_only) AS statement_only,
        sum(books_only) AS books_only, sum(mismatches) AS mismatches, sum(amount_in)::bigint AS amount_in,
        sum(amount_out)::bigint AS amount_out
      FROM (
        -- the lines, counted per day when their statement was uploaded
        SELECT sd.day, sd.currency_id, sd.lines, sd.matched, sd.statement_only, 0 AS books_only, sd.mismatches,
          sd.amount_in, sd.amount_out
        FROM statement_days sd JOIN provider_statements ps ON ps.id = sd.statement_id
        WHERE ps.provider_id = ${q.providerId} AND sd.day >= ${q.from}::date AND sd.day <= ${q.to}::date
        UNION ALL
        -- what the books held that no line found
        SELECT (l.occurred_at AT TIME ZONE 'UTC')::date, pm.currency_id, 0, 0, 0, 1, 0, 0, 0
        FROM statement_lines l JOIN provider_statements ps ON ps.id = l.statement_id
        JOIN provider_accounts a ON a.id = l.account_id JOIN payment_methods pm ON pm.id = a.payment_method_id
        WHERE ps.provider_id = ${q.providerId} AND l.outcome = 'BOOKS_ONLY'
          AND l.occurred_at >= ${from}::timestamptz AND l.occurred_at < ${to}::timestamptz) x
      GROUP BY 1, 2) d
    JOIN ${sql.raw(CURRENCY_SCALE)} c ON c.id = d.currency_id
    ORDER BY d.day, c.code`;
  const stream = await copyOut(ctx, async () => copyCsvOf(select));
  return { stream, filename: statementSummaryFilename(provider.code, q) };
}
