import { createHash, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import {
  DEFAULT_INVOICE_EXPIRY_SECONDS,
  feeFor,
  isCancellable,
  isFinal,
  type CreateInvoiceBody,
  type CreateInvoiceResult,
  type MerchantInvoice,
} from '@paydesk/contracts';
import { currencies } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import { AppError, badRequest, invalidState, notFound } from '../../lib/errors';
import { createInvoiceSql, type NewInvoiceRow } from '../engine/lifecycle';
import { prepared } from '../../lib/prepared';
import { secureRandom } from '../../lib/random';
import { createGuardSql, type CreateGuard } from './signature';
import { terminalInfoSql, type TerminalInfo } from './terminal-info';
import { applyTransition, lockInvoice } from '../engine/service';

const IDEMPOTENCY_TTL_MS = 24 * 3600_000;

async function terminalInfo(ctx: AppContext, terminalId: string): Promise<TerminalInfo | undefined> {
  const res = await ctx.db.execute<TerminalInfo>(terminalInfoSql(terminalId));
  return res.rows[0];
}

/** Checks a create request against the terminal; everything the client can get wrong is a 4xx here. */
async function validateCreate(
  ctx: AppContext,
  merchantId: string,
  body: CreateInvoiceBody,
  prefetched?: TerminalInfo | null,
) {
  const usePrefetched = prefetched !== undefined && prefetched?.id === body.terminalId;
  const t = usePrefetched ? prefetched : await terminalInfo(ctx, body.terminalId);
  if (!t || t.merchant_id !== merchantId) throw notFound('Terminal');
  if (!t.enabled) throw badRequest('The terminal is disabled', { terminalId: 'Terminal is disabled' });
  if (t.flow_type !== body.flowType) {
    throw badRequest(`The terminal accepts ${t.flow_type} invoices, not ${body.flowType}`, {
      flowType: `Must be ${t.flow_type}`,
    });
  }
  if (t.currency_code !== body.currency) {
    const [known] = await ctx.db
      .select({ id: currencies.id })
      .from(currencies)
      .where(eq(currencies.code, body.currency));
    if (!known) throw badRequest(`Unknown currency '${body.currency}'`, { currency: 'Unknown currency' });
    throw badRequest(`The terminal works in ${t.currency_code}, not ${body.currency}`, {
      currency: `Must be ${t.currency_code}`,
    });
  }
  if (!t.methods.length) throw badRequest('The terminal has no payment methods', { terminalId: 'No payment methods' });
  let method: TerminalInfo['methods'][number] | undefined;
  let min: number;
  let max: number;
  if (body.paymentMethod) {
    method = t.methods.find((m) => m.code === body.paymentMethod);
    if (!method) {
      throw badRequest(
        `Payment method '${body.paymentMethod}' is not available on this terminal (available: ${t.methods.map((m) => m.code).join(', ')})`,
        {
          paymentMethod: 'Not available on this terminal',
        },
      );
    }
    min = method.min;
    max = method.max;
  } else {
    min = Math.min(...t.methods.map((m) => m.min));
    max = Math.max(...t.methods.map((m) => m.max));
  }
  // the terminal's own ceiling, when one is set, lowers the methods' maximum
  const terminalMax =
    t.max_invoice_amount && /^\d{1,15}$/.test(t.max_invoice_amount.trim()) ? Number(t.max_invoice_amount) : null;
  if (terminalMax !== null) max = Math.min(max, terminalMax);
  if (body.amount < min || body.amount > max) {
    throw new AppError(
      'AMOUNT_OUT_OF_RANGE',
      `Amount ${body.amount} is outside the limits ${min}–${max} (minor units of ${t.currency_code})${method ? ` of method ${method.code}` : ''}`,
      { amount: `Must be between ${min} and ${max}` },
    );
  }
  return { terminal: t, method };
}

/**
 * The merchant's key or the terminal changed after the request was checked against them as remembered: nothing was
 * written. The route checks the request again against what the database holds; should they change again meanwhile,
 * the client gets this 409 and retries.
 */
export class StaleCredentials extends AppError {
  constructor() {
    super('CONFLICT', 'The terminal or the merchant key changed while the request ran; retry it');
  }
}

export type CreateOutcome = { statusCode: number; body: unknown; replayed: boolean };

type GuardedRow = NewInvoiceRow & Pick<CreateGuard, 'pem' | 'terminal'>;
let createStatements: ReturnType<typeof buildCreateStatements> | undefined;
/** The create, rendered once per form, on first use. */
const buildCreateStatements = () => ({
  plain: prepared<NewInvoiceRow>('paydesk_create_invoice', (p) => createInvoiceSql(p)),
  guarded: prepared<GuardedRow>('paydesk_create_invoice_guarded', (p) =>
    createInvoiceSql(
      p,
      createGuardSql({ merchantId: p.merchantId, terminalId: p.terminalId, pem: p.pem, terminal: p.terminal }),
    ),
  ),
});

function requestHash(rawBody: string) {
  return createHash('sha256').update(rawBody).digest('base64url');
}

/**
 * Creates an invoice. With an Idempotency-Key the key row is inserted in the same transaction as
 * the invoice, so concurrent duplicates wait on its unique index until the first commits, then
 * replay its stored response (or get 409 for another body); a failed first attempt leaves no key.
 */
export async function createInvoice(
  ctx: AppContext,
  args: {
    merchantId: string;
    body: CreateInvoiceBody;
    rawBody: string;
    idempotencyKey?: string;
    baseUrl: string;
    /** The terminal as read with the merchant's key (see verifyMerchantRequest); saves a round trip. */
    terminal?: TerminalInfo | null;
    /** What the request was checked against must still hold when it is written (signature.ts createGuardSql). */
    guard?: CreateGuard;
  },
): Promise<CreateOutcome> {
  const { merchantId, body, guard } = args;
  const hash = args.idempotencyKey ? requestHash(args.rawBody) : '';
  if (args.idempotencyKey) {
    const replay = await findIdempotent(ctx, merchantId, args.idempotencyKey, hash);
    if (replay) return replay;
  }
  const { terminal, method } = await validateCreate(ctx, merchantId, body, args.terminal);
  // the guard holds the insert to the key and terminal it was checked against: the same merchant and terminal
  if (guard && (guard.merchantId !== merchantId || guard.terminalId !== terminal.id)) throw new StaleCredentials();
  const now = ctx.now();
  const id = randomUUID();
  const random = secureRandom(29);
  const formId = random.subarray(0, 24).toString('base64url');
  const expiresAt = new Date(now.getTime() + (body.expiresInSeconds ?? DEFAULT_INVOICE_EXPIRY_SECONDS) * 1000);
  const result: CreateInvoiceResult = {
    invoiceId: id,
    formId,
    formUrl: `${args.baseUrl}/payment/${formId}`,
    status: 'NEW',
    expiresAt: expiresAt.toISOString(),
  };
  const response = { data: result };
  const nowIso = now.toISOString();
  const row: GuardedRow = {
    id,
    merchantId,
    terminalId: terminal.id,
    merchantInvoiceId: body.merchantInvoiceId,
    formId,
    flowType: body.flowType,
    amount: body.amount,
    fee: feeFor(body.amount, terminal.fee_bps),
    currencyId: terminal.currency_id,
    customerExternalId: body.customer.externalId,
    customerFirstName: body.customer.firstName,
    customerLastName: body.customer.lastName,
    paymentMethodId: method?.id ?? null,
    canChangeAmount: body.canChangeAmount ?? false,
    isTest: terminal.is_test,
    successUrl: body.successUrl,
    cancelUrl: body.cancelUrl,
    errorUrl: body.errorUrl,
    callbackUrl: body.callbackUrl ?? null,
    supportCode: random.subarray(24).toString('hex').toUpperCase(),
    expiresAt: result.expiresAt,
    at: nowIso,
    // what the guard holds the insert to (unused without one)
    pem: guard?.pem ?? '',
    terminal: guard?.terminal ?? 'null',
  };
  const written = (res: { rowCount: number | null }) => {
    if (!res.rowCount) throw new StaleCredentials();
  };
  try {
    if (!args.idempotencyKey) {
      // the hot path: the statement rendered once (a named prepared statement on PostgreSQL)
      const statements = (createStatements ??= buildCreateStatements());
      written(await (guard ? statements.guarded : statements.plain).run(ctx.dbh, row));
      return { statusCode: 201, body: response, replayed: false };
    }
    const key = args.idempotencyKey;
    const outcome = await ctx.db.transaction(async (tx) => {
      const claimed = await tx.execute(sql`
        INSERT INTO idempotency_keys (merchant_id, key, request_hash, status_code, response_body, created_at)
        VALUES (${merchantId}, ${key}, ${hash}, 201, ${JSON.stringify(response)}::jsonb, ${nowIso}::timestamptz)
        ON CONFLICT (merchant_id, key) DO UPDATE
          SET request_hash = EXCLUDED.request_hash, status_code = EXCLUDED.status_code,
              response_body = EXCLUDED.response_body, created_at = EXCLUDED.created_at
          WHERE idempotency_keys.created_at < ${new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString()}::timestamptz
        RETURNING 1`);
      if (!claimed.rowCount) return null; // a live row exists: the first request committed meanwhile
      written(await tx.execute(createInvoiceSql(row, guard && createGuardSql(guard))));
      return { statusCode: 201, body: response, replayed: false } as CreateOutcome;
    });
    if (outcome) return outcome;
    const replay = await findIdempotent(ctx, merchantId, key, hash);
    if (replay) return replay;
    throw new AppError('CONFLICT', 'A request with this Idempotency-Key is still being processed; retry shortly');
  } catch (err) {
    const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
    const pgCode = e.code ?? e.cause?.code;
    const constraint = e.constraint ?? e.cause?.constraint;
    if (pgCode === '23505' && constraint === 'invoices_merchant_mid_uq') {
      throw new AppError('DUPLICATE', `An invoice with merchantInvoiceId '${body.merchantInvoiceId}' already exists`, {
        merchantInvoiceId: 'Already used',
      });
    }
    throw err;
  }
}

async function findIdempotent(
  ctx: AppContext,
  merchantId: string,
  key: string,
  hash: string,
): Promise<CreateOutcome | null> {
  const res = await ctx.db.execute<{
    request_hash: string;
    status_code: number | null;
    response_body: unknown;
    created_at: string | Date;
  }>(sql`
    SELECT request_hash, status_code, response_body, created_at FROM idempotency_keys
    WHERE merchant_id = ${merchantId} AND key = ${key}`);
  const row = res.rows[0];
  if (!row || row.status_code === null) return null;
  if (new Date(row.created_at).getTime() < ctx.now().getTime() - IDEMPOTENCY_TTL_MS) return null;
  if (row.request_hash !== hash) {
    throw new AppError('IDEMPOTENCY_CONFLICT', 'This Idempotency-Key was already used with a different request body');
  }
  return { statusCode: row.status_code, body: row.response_body, replayed: true };
}

export async function getMerchantInvoice(
  ctx: AppContext,
  merchantId: string,
  invoiceId: string,
  baseUrl: string,
): Promise<MerchantInvoice> {
  const res = await ctx.db.execute<{
    id: string;
    merchant_invoice_id: string;
    provider_invoice_id: string | null;
    terminal_id: string;
    flow_type: 'DEPOSIT' | 'WITHDRAWAL';
    status: MerchantInvoice['status'];
    amount: number;
    fee: number;
    currency: string;
    method: string | null;
    form_id: string;
    created_at: string | Date;
    status_date: string | Date;
    expires_at: string | Date;
  }>(sql`
    SELECT i.id, i.merchant_invoice_id, i.provider_invoice_id, i.terminal_id, i.flow_type, i.status, i.amount, i.fee,
      c.code AS currency, m.code AS method, i.form_id, i.created_at, i.status_date, i.expires_at
    FROM invoices i JOIN currencies c ON c.id = i.currency_id LEFT JOIN payment_methods m ON m.id = i.payment_method_id
    WHERE i.id = ${invoiceId} AND i.merchant_id = ${merchantId}`);
  const r = res.rows[0];
  if (!r) throw notFound('Invoice');
  return {
    invoiceId: r.id,
    merchantInvoiceId: r.merchant_invoice_id,
    providerInvoiceId: r.provider_invoice_id,
    terminalId: r.terminal_id,
    flowType: r.flow_type,
    status: r.status,
    amount: Number(r.amount),
    fee: Number(r.fee),
    currency: r.currency,
    paymentMethod: r.method,
    formUrl: `${baseUrl}/payment/${r.form_id}`,
    createdAt: new Date(r.created_at).toISOString(),
    statusDate: new Date(r.status_date).toISOString(),
    expiresAt: new Date(r.expires_at).toISOString(),
  };
}

/** Merchant cancel: deposits until paid out, withdrawals only before the payout started. */
export async function cancelMerchantInvoice(ctx: AppContext, merchantId: string, invoiceId: string) {
  await ctx.db.transaction(async (tx) => {
    const inv = await lockInvoice(tx, { id: invoiceId, merchantId });
    if (!inv) throw notFound('Invoice');
    if (!isCancellable(inv)) {
      throw invalidState(
        inv.flowType === 'WITHDRAWAL' && !isFinal(inv.status)
          ? `The withdrawal is ${inv.status}; only a NEW withdrawal can be canceled`
          : `The invoice is ${inv.status}; it cannot be canceled`,
      );
    }
    await applyTransition(ctx, tx, inv, 'CANCELED', { kind: 'merchant' }, { reason: 'canceled by the merchant' });
  });
}
