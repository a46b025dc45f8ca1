import { sql, type SQL } from 'drizzle-orm';
import {
  EXPIRY_GRACE_MS,
  FLOW_TYPES,
  INITIAL_STATUS,
  REQUISITE_STATUSES,
  type FlowType,
  type InvoiceProcessing,
  type InvoiceStatus,
} from '@paydesk/contracts';
import type { DbOrTx } from '../../db/create-db';
import type { Params } from '../../lib/prepared';

/**
 * The lifecycle's rules (contracts/statuses.ts) as SQL, for the queries that must select by them.
 * Every status list a query needs is built here from the contracts' lists, never written out again.
 */

const list = (statuses: readonly InvoiceStatus[]) =>
  sql.join(
    statuses.map((s) => sql`${s}`),
    sql`, `,
  );

/** `<alias>.status IN (…)` over a list of the contracts. */
const statusIn = (alias: string, statuses: readonly InvoiceStatus[]): SQL =>
  sql`${sql.raw(`${alias}.status`)} IN (${list(statuses)})`;

/** A deposit that holds its account's requisites (and reserves room under its limit). */
export const holdsRequisitesSql = (alias: string): SQL =>
  sql`${sql.raw(`${alias}.flow_type`)} = 'DEPOSIT' AND ${statusIn(alias, REQUISITE_STATUSES)}`;

/** Invoices of `alias` that expiry cancels at `now` (contracts' EXPIRY_GRACE_MS, per flow and status). */
export function expiredSql(alias: string, now: Date): SQL {
  const col = (c: string) => sql.raw(`${alias}.${c}`);
  const arms = FLOW_TYPES.flatMap((flow) =>
    Object.entries(EXPIRY_GRACE_MS[flow]).map(
      ([status, grace]) =>
        sql`(${col('flow_type')} = ${flow} AND ${col('status')} = ${status}
             AND ${col('expires_at')} < ${new Date(now.getTime() - grace!).toISOString()}::timestamptz)`,
    ),
  );
  return sql`(${sql.join(arms, sql` OR `)})`;
}

/** What a created invoice is written with (flat: createInvoiceSql also renders it once with placeholders). */
export type NewInvoiceRow = {
  id: string;
  merchantId: string;
  terminalId: string;
  merchantInvoiceId: string;
  formId: string;
  flowType: FlowType;
  amount: number;
  fee: number;
  currencyId: number;
  customerExternalId: string;
  customerFirstName: string;
  customerLastName: string;
  paymentMethodId: number | null;
  canChangeAmount: boolean;
  isTest: boolean;
  successUrl: string;
  cancelUrl: string;
  errorUrl: string;
  callbackUrl: string | null;
  supportCode: string;
  /** ISO timestamps */
  expiresAt: string;
  at: string;
};

/**
 * Creation: one statement that upserts the customer and writes the invoice in its initial status,
 * its first status event and the event-log entry (the merchant API's hot path: one round trip).
 * `onlyIf`: writes only while the merchant's key and the terminal (as terminalInfoSql reads it) are still what the
 * caller checked the request against; otherwise the statement writes nothing and reports no row (the merchant API
 * then reads them again: see merchant-api/signature.ts).
 */
export function createInvoiceSql(v: Params<NewInvoiceRow>, onlyIf?: SQL): SQL {
  return sql`
    WITH ok AS (SELECT 1 ${onlyIf ? sql`WHERE ${onlyIf}` : sql``}), c AS (
      INSERT INTO customers (merchant_id, external_id, first_name, last_name)
      SELECT ${v.merchantId}, ${v.customerExternalId}, ${v.customerFirstName}, ${v.customerLastName} FROM ok
      ON CONFLICT (merchant_id, external_id) DO UPDATE SET first_name = EXCLUDED.first_name, last_name = EXCLUDED.last_name
      RETURNING id
    ), i AS (
      INSERT INTO invoices (id, merchant_id, terminal_id, merchant_invoice_id, form_id, flow_type, status, amount, fee,
        currency_id, customer_id, payment_method_id, can_change_amount, is_test, success_url, cancel_url, error_url,
        callback_url, support_code, expires_at, status_date, created_at)
      SELECT ${v.id}, ${v.merchantId}, ${v.terminalId}, ${v.merchantInvoiceId}, ${v.formId}, ${v.flowType},
        ${INITIAL_STATUS}, ${v.amount}, ${v.fee}, ${v.currencyId}, c.id, ${v.paymentMethodId}, ${v.canChangeAmount},
        ${v.isTest}, ${v.successUrl}, ${v.cancelUrl}, ${v.errorUrl}, ${v.callbackUrl}, ${v.supportCode},
        ${v.expiresAt}::timestamptz, ${v.at}::timestamptz, ${v.at}::timestamptz
      FROM c
      RETURNING id, merchant_id
    ), ev AS (
      INSERT INTO invoice_status_events (invoice_id, status, status_date) SELECT id, ${INITIAL_STATUS}, ${v.at}::timestamptz FROM i
    )
    INSERT INTO event_log (merchant_id, invoice_id, code, description, data, event_time)
    SELECT merchant_id, id, 'INVOICE_CREATED', 'Invoice created through the merchant API',
      ${JSON.stringify({ actor: 'merchant' })}::jsonb, ${v.at}::timestamptz FROM i`;
}

/**
 * What the invoice action rules (contracts statuses.ts: retryRefusal, statusChangeRefusal) read beyond the status, as
 * columns over an invoices row aliased `alias`: the engine reads them under the invoice's lock before it refuses or
 * acts, and the invoice details send them, so that the page disables exactly what the engine would refuse. A
 * transaction is pending until the provider answers it (whatever the invoice's status became meanwhile); a payout is
 * paid once the provider answered one DONE.
 */
export function processingColumnsSql(alias: string): SQL {
  const i = sql.raw(alias);
  return sql`
    (SELECT max(pt.attempt) FROM provider_transactions pt
      WHERE pt.invoice_id = ${i}.id AND pt.status = 'PENDING')::int AS pending_attempt,
    ${i}.credential_value IS NOT NULL AS payout_details_given,
    EXISTS (SELECT 1 FROM provider_transactions pt
      WHERE pt.invoice_id = ${i}.id AND pt.type = 'PAYOUT' AND pt.status = 'DONE') AS paid_out,
    ${i}.account_id IS NOT NULL AS account_assigned`;
}

export type ProcessingRow = {
  pending_attempt: number | null;
  payout_details_given: boolean;
  paid_out: boolean;
  account_assigned: boolean;
};

export const toProcessing = (r: ProcessingRow): InvoiceProcessing => ({
  pendingAttempt: r.pending_attempt === null ? null : Number(r.pending_attempt),
  payoutDetailsGiven: r.payout_details_given,
  paidOut: r.paid_out,
  accountAssigned: r.account_assigned,
});

/** The processing state of one invoice (in the caller's transaction, under its lock when the caller holds one). */
export async function invoiceProcessing(db: DbOrTx, invoiceId: string): Promise<InvoiceProcessing> {
  const res = await db.execute<ProcessingRow>(
    sql`SELECT ${processingColumnsSql('i')} FROM invoices i WHERE i.id = ${invoiceId}::uuid`,
  );
  return toProcessing(res.rows[0]!);
}
