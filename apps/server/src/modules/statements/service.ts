import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { eq, sql, type SQL } from 'drizzle-orm';
import {
  DEFAULT_STATEMENT_MAPPING,
  STATEMENT_EXCEPTIONS,
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
import { copyOut } from '../../lib/copy-out';
import { CURRENCY_SCALE, copyCsvOf, major } from '../../lib/csv-sql';
import { badRequest, invalidState, notFound } from '../../lib/errors';
import { recordAudit, type AuditActor } from '../audit/service';
import { reportIncoming } from '../provider-api/service';
import {
  addBooksOnly,
  classifyLines,
  connectionOf,
  copyStager,
  createStaging,
  fullCounts,
  insertStager,
  type MatchScope,
  type Stager,
} from './match';
import { fileError, statementRows, type ParseRules } from './parse';

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
 * in one transaction: the lines are parsed as a stream and staged, classified against the books (match.ts), the IN
 * lines the books did not have are reported as incoming money through the provider API's own path
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
    let bytes = 0;
    await pipeline(
      args.file,
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          hash.update(chunk);
          bytes += chunk.length;
          yield chunk;
        }
      },
      fs.createWriteStream(spooled),
    );
    if (bytes === 0) throw fileError(1, null, `the file is empty: its first line must be the header`);
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
    };
    const periodFrom = new Date(args.periodFrom);
    const periodTo = new Date(args.periodTo);
    const outcome = await ctx.db.transaction(async (tx) => {
      // a million lines take longer than an interactive statement may: the exports' limit, for this transaction only
      await tx.execute(sql.raw(`SET LOCAL statement_timeout = ${Math.trunc(ctx.config.exportTimeoutMs)}`));
      // one big sort and a few hash joins over the whole file, run once: memory for them (this transaction only), and no
      // JIT (compiling this statement's expressions costs seconds, more than it saves)
      await tx.execute(sql.raw(`SET LOCAL work_mem = '256MB'; SET LOCAL jit = off`));
      await createStaging(tx);
      const client = connectionOf(tx);
      const stager = ctx.dbh.kind === 'postgres' ? copyStager(client) : insertStager(client);
      await stage(fs.createReadStream(spooled), rules, stager);

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
      const lines = fullCounts(await classifyLines(tx, scope));
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
    if ('duplicateOf' in outcome) {
      return { statement: (await statementByHash(ctx.db, providerId, contentHash))!, duplicate: true };
    }
    return { statement: (await statementById(ctx.db, outcome.id))!, duplicate: false };
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

/** The file's lines into the staging table; on a bad line the load is stopped and the error thrown. */
async function stage(source: Readable, rules: ParseRules, stager: Stager) {
  try {
    for await (const batch of statementRows(source, rules)) await stager.write(batch);
    await stager.end();
  } catch (err) {
    await stager.abort();
    throw err;
  } finally {
    source.destroy();
  }
}

/**
 * The IN lines the books did not have, reported as the provider would have (provider-api reportIncoming, in this
 * transaction: each in a savepoint of its own): the engine matches each to the one deposit waiting for it, or posts
 * it to suspense as unmatched money. The line keeps its outcome (the books had not seen it) and names the payment.
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
    SELECT id, occurred_at, account_id, amount::text AS amount, reference FROM statement_lines
    WHERE statement_id = ${statementId}::uuid AND outcome = 'STATEMENT_ONLY' AND direction = 'IN' ORDER BY id`);
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
    (SELECT count(*)::int FROM statement_lines l WHERE l.statement_id = ps.id
       AND l.outcome IN (${sql.join(
         STATEMENT_EXCEPTIONS.map((o) => sql`${o}`),
         sql`, `,
       )}) AND l.resolved_at IS NULL) AS open
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
export const statementById = (db: DbOrTx, id: string) => oneStatement(db, sql`ps.id = ${id}::uuid`);
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
  outcome: StatementLineItem['outcome'];
  incoming_id: string | null;
  transaction_id: string | null;
  detail: string | null;
  resolution: StatementLineItem['resolution'];
  resolved_at: string | Date | null;
  resolved_by: string | null;
  resolution_reason: string | null;
};

const LINE_SELECT = sql`
  SELECT l.id, l.statement_id, l.line_no, l.occurred_at, l.account_id, l.amount::text AS amount, c.code AS currency,
    l.direction, l.reference, l.outcome, l.incoming_id, l.transaction_id, l.detail, l.resolution, l.resolved_at,
    u.username AS resolved_by, l.resolution_reason
  FROM statement_lines l
  JOIN provider_accounts a ON a.id = l.account_id JOIN payment_methods pm ON pm.id = a.payment_method_id
  JOIN currencies c ON c.id = pm.currency_id
  LEFT JOIN users u ON u.id = l.resolved_by`;

const toLine = (r: LineRow): StatementLineItem => ({
  id: Number(r.id),
  statementId: r.statement_id,
  lineNo: r.line_no === null ? null : Number(r.line_no),
  occurredAt: iso(r.occurred_at),
  accountId: Number(r.account_id),
  amount: Number(r.amount),
  currency: r.currency,
  direction: r.direction,
  reference: r.reference,
  outcome: r.outcome,
  incomingId: r.incoming_id,
  transactionId: r.transaction_id,
  detail: r.detail,
  resolution: r.resolution,
  resolvedAt: isoOrNull(r.resolved_at),
  resolvedBy: r.resolved_by,
  resolutionReason: r.resolution_reason,
});

/** A statement with one keyset page of its entries, in file order (BOOKS_ONLY after the lines). */
export async function statementDetail(db: DbOrTx, id: string, q: StatementDetailQuery) {
  const statement = await statementById(db, id);
  if (!statement) throw notFound('Statement');
  const where: SQL[] = [sql`l.statement_id = ${id}::uuid`];
  if (q.outcome) where.push(sql`l.outcome = ${q.outcome}`);
  if (q.open === 'true') where.push(sql`l.outcome <> 'MATCHED' AND l.resolved_at IS NULL`);
  if (q.open === 'false') where.push(sql`(l.outcome = 'MATCHED' OR l.resolved_at IS NOT NULL)`);
  if (q.after) where.push(sql`l.id > ${q.after}::bigint`);
  const res = await db.execute<LineRow>(
    sql`${LINE_SELECT} WHERE ${sql.join(where, sql` AND `)} ORDER BY l.id LIMIT ${q.limit + 1}`,
  );
  const lines = res.rows.slice(0, q.limit).map(toLine);
  const last = lines.at(-1);
  return { data: { statement, lines }, next: res.rows.length > q.limit && last ? String(last.id) : null };
}

async function lineById(db: DbOrTx, id: number) {
  const res = await db.execute<LineRow>(sql`${LINE_SELECT} WHERE l.id = ${id}`);
  return res.rows[0] ? toLine(res.rows[0]) : null;
}

/* ---- Resolving an exception ---- */

/**
 * Resolves an exception (any outcome but MATCHED, not resolved yet), audited with the reason; nothing moves on the
 * books. MATCH names what the line is: for an IN line an incoming payment of the statement's provider, for an OUT
 * line a payout transaction on one of its accounts; the statement's BOOKS_ONLY entry for that payment, if open, is
 * resolved with it (one explanation for both). An IN line reported to the books when the statement was uploaded can
 * only be matched to the payment it became: matching it to another would count its money twice; resolve that payment
 * on the desk's unmatched money, then accept the line. ACCEPT records that staff accept the difference.
 */
export async function resolveLine(
  ctx: AppContext,
  args: { id: number; body: StatementResolveBody; actor: AuditActor },
): Promise<StatementLineItem> {
  const { body } = args;
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
    }>(sql`SELECT l.id, l.statement_id, l.line_no, l.direction, l.outcome, l.incoming_id, l.transaction_id,
        l.resolved_at, ps.provider_id, l.detail
      FROM statement_lines l JOIN provider_statements ps ON ps.id = l.statement_id
      WHERE l.id = ${args.id} FOR UPDATE OF l`);
    const line = res.rows[0];
    if (!line) throw notFound('Statement line');
    if (line.outcome === 'MATCHED') throw invalidState('This line matched the books: there is nothing to resolve');
    if (line.resolved_at !== null) throw invalidState('This line was already resolved');
    const now = ctx.now();
    let incomingId = line.incoming_id;
    let transactionId = line.transaction_id;
    let alsoResolved: number[] = [];
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
          resolved_by = ${args.actor.userId}::uuid, resolution_reason = ${body.reason},
          detail = concat_ws('; ', detail, ${`matched by hand to line ${line.line_no}`}::text)
        WHERE statement_id = ${line.statement_id}::uuid AND outcome = 'BOOKS_ONLY' AND resolved_at IS NULL AND ${same}
        RETURNING id`);
      alsoResolved = others.rows.map((r) => Number(r.id));
    }
    await tx.execute(sql`
      UPDATE statement_lines SET resolution = ${body.resolution}, resolved_at = ${now.toISOString()}::timestamptz,
        resolved_by = ${args.actor.userId}::uuid, resolution_reason = ${body.reason},
        incoming_id = ${incomingId}::uuid, transaction_id = ${transactionId}::uuid
      WHERE id = ${args.id}`);
    await recordAudit(
      tx,
      args.actor,
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
        after: { resolution: body.resolution, incomingId, transactionId, alsoResolved },
        reason: body.reason,
      },
      now,
    );
    return (await lineById(tx, args.id))!;
  });
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
      SELECT (l.occurred_at AT TIME ZONE 'UTC')::date AS day, pm.currency_id,
        count(*) FILTER (WHERE l.line_no IS NOT NULL) AS lines,
        count(*) FILTER (WHERE l.outcome = 'MATCHED') AS matched,
        count(*) FILTER (WHERE l.outcome = 'STATEMENT_ONLY') AS statement_only,
        count(*) FILTER (WHERE l.outcome = 'BOOKS_ONLY') AS books_only,
        count(*) FILTER (WHERE l.outcome = 'MISMATCH') AS mismatches,
        coalesce(sum(l.amount) FILTER (WHERE l.line_no IS NOT NULL AND l.direction = 'IN'), 0)::bigint AS amount_in,
        coalesce(sum(l.amount) FILTER (WHERE l.line_no IS NOT NULL AND l.direction = 'OUT'), 0)::bigint AS amount_out
      FROM statement_lines l JOIN provider_statements ps ON ps.id = l.statement_id
      JOIN provider_accounts a ON a.id = l.account_id JOIN payment_methods pm ON pm.id = a.payment_method_id
      WHERE ps.provider_id = ${q.providerId} AND l.occurred_at >= ${from}::timestamptz AND l.occurred_at < ${to}::timestamptz
      GROUP BY 1, 2) d
    JOIN ${sql.raw(CURRENCY_SCALE)} c ON c.id = d.currency_id
    ORDER BY d.day, c.code`;
  const stream = await copyOut(ctx, async () => copyCsvOf(select));
  return { stream, filename: statementSummaryFilename(provider.code, q) };
}
