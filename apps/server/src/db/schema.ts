import { sql } from 'drizzle-orm';
import { PROVIDER_TRANSACTION_STATUSES, toSafeInt } from '@paydesk/contracts';
import {
  bigint,
  bigserial,
  boolean,
  customType,
  date,
  char,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
/**
 * Exact integers (no precision lost, whatever the amount): PostgreSQL returns int8 as text and nothing parses
 * it globally. Two kinds of money column:
 * - `money`: a bounded amount (invoice amounts, fees, ledger legs, method limits, settlement amounts).
 *   Every API refuses values past 2^53 − 1 and a CHECK (migration 0006) keeps the column inside that
 *   range, so it maps to a JS number exactly; a value outside would throw here, never round.
 * - `figure`: what grows without bound (account limits, balances): a JS bigint end to end.
 */
const money = customType<{ data: number; driverData: string | number }>({
  dataType: () => 'bigint',
  fromDriver: (v) => toSafeInt(v),
  toDriver: (v) => v,
});
const figure = (name: string) => bigint(name, { mode: 'bigint' });
/** The CHECK that keeps a money column where a JS number is exact (±(2^53 − 1)). */
const exactRange = (name: string, col: AnyPgColumn) =>
  check(name, sql`${col} BETWEEN -9007199254740991 AND 9007199254740991`);

export const merchants = pgTable('merchants', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  clientPublicKey: text('client_public_key'),
  webhookSecret: text('webhook_secret').notNull(),
  /** After a rotation the old secret keeps signing beside the new one until this time. */
  previousWebhookSecret: text('previous_webhook_secret'),
  previousWebhookSecretUntil: ts('previous_webhook_secret_until'),
  /** Every user of this merchant must sign in with a second factor (TOTP). */
  requireTwoFactor: boolean('require_two_factor').notNull().default(false),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/**
 * Roles are named permission sets with a scope (docs/architecture.md, "Who is who"). The migration adds a CHECK that a
 * merchant-scoped role holds no platform permission, and users reference (id, scope) so that a
 * merchant user can only ever hold a merchant role.
 */
export const roles = pgTable(
  'roles',
  {
    id: serial('id').primaryKey(),
    /** Preset roles have a code (contracts PRESET_ROLES) and cannot be edited; custom ones have none. */
    code: text('code').unique(),
    name: text('name').notNull().unique(),
    scope: text('scope').notNull().default('merchant'),
    description: text('description').notNull().default(''),
    permissions: text('permissions')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('roles_id_scope_uq').on(t.id, t.scope),
    check('roles_scope_check', sql`${t.scope} IN ('platform', 'merchant')`),
  ],
);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull().unique(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    merchantId: uuid('merchant_id').references(() => merchants.id),
    /** 'platform' without a merchant, else 'merchant'; with role_id it references roles (id, scope). */
    scope: text('scope')
      .notNull()
      .generatedAlwaysAs(sql`CASE WHEN merchant_id IS NULL THEN 'platform' ELSE 'merchant' END`),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id),
    failedLogins: integer('failed_logins').notNull().default(0),
    lockedUntil: ts('locked_until'),
    disabledAt: ts('disabled_at'),
    /** A one-time password set by an admin: the user must choose its own before doing anything else. */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    /** The TOTP secret (base32) of an enrolled second factor; null when none. */
    totpSecret: text('totp_secret'),
    /** A secret shown during enrolment, not yet confirmed with a code. */
    totpPendingSecret: text('totp_pending_secret'),
    totpEnabledAt: ts('totp_enabled_at'),
    /** The last TOTP time step accepted: a code is good once (RFC 6238 §5.2). */
    totpLastStep: integer('totp_last_step'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    foreignKey({ name: 'users_role_scope_fk', columns: [t.roleId, t.scope], foreignColumns: [roles.id, roles.scope] }),
    index('users_merchant_idx').on(t.merchantId),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** One-time recovery codes of a user's second factor, stored as SHA-256 (they are random, 50 bits each). */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    codeHash: text('code_hash').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [uniqueIndex('recovery_codes_user_code_idx').on(t.userId, t.codeHash)],
);

export const loginFailures = pgTable(
  'login_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ip: text('ip').notNull(),
    username: text('username').notNull(),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [index('login_failures_ip_at_idx').on(t.ip, t.at)],
);

/**
 * Failed sign-ins of usernames no user has, counted and locked like a user's (users.failed_logins, locked_until), so
 * that the lockout does not tell which usernames exist (auth/attempts.ts). Bounded: past a fixed number of rows the
 * names whose last failure is oldest are forgotten.
 */
export const loginNameFailures = pgTable(
  'login_name_failures',
  {
    username: text('username').primaryKey(),
    failedLogins: integer('failed_logins').notNull().default(0),
    lockedUntil: ts('locked_until'),
    lastFailedAt: ts('last_failed_at').notNull().defaultNow(),
  },
  (t) => [index('login_name_failures_last_failed_idx').on(t.lastFailedAt)],
);

export const currencies = pgTable('currencies', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  dimension: integer('dimension').notNull(),
});

/** Reference lists by header id (contracts' REFERENCE_HEADERS): 99 gender … 205 bank name. */
export const references = pgTable(
  'references',
  {
    id: serial('id').primaryKey(),
    headerId: integer('header_id').notNull(),
    code: text('code').notNull(),
    value: text('value').notNull(),
    /** For header 105 (terminal attribute type): the value type I, S, C, B or N. */
    paramType: char('param_type', { length: 1 }),
    /** For header 205 (bank name): the bank's country (ISO 3166 alpha-2); the SBP list shows the form's country only. */
    countryCode: char('country_code', { length: 2 }),
    /** For header 205: the Latin-script name when value is in another script, so either finds the bank. */
    latinValue: text('latin_value'),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [uniqueIndex('references_header_code_uq').on(t.headerId, t.code)],
);

export const providers = pgTable('providers', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  /** Sandbox providers are answered by the built-in simulator. */
  isSandbox: boolean('is_sandbox').notNull().default(false),
});

export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull().unique(),
    name: text('name').notNull(),
    /** 'card' or 'phone' requisites. */
    requisiteType: text('requisite_type').notNull(),
    /** SBP-like bank transfers by phone need a bank choice on withdrawal. */
    isBankTransfer: boolean('is_bank_transfer').notNull().default(false),
    currencyId: integer('currency_id')
      .notNull()
      .references(() => currencies.id),
    countryCode: text('country_code').notNull(),
    minAmount: money('min_amount').notNull(),
    maxAmount: money('max_amount').notNull(),
  },
  (t) => [exactRange('payment_methods_min_exact', t.minAmount), exactRange('payment_methods_max_exact', t.maxAmount)],
);

export const terminals = pgTable(
  'terminals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    name: text('name').notNull(),
    flowType: text('flow_type').notNull(),
    currencyId: integer('currency_id')
      .notNull()
      .references(() => currencies.id),
    isTest: boolean('is_test').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
    callbackUrl: text('callback_url'),
    /** The fee in basis points (250 = 2.5 %), contracts/fees.ts; the database refuses anything outside 0–10,000. */
    feeBps: integer('fee_bps').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('terminals_merchant_idx').on(t.merchantId),
    check('terminals_fee_bps_check', sql`${t.feeBps} BETWEEN 0 AND 10000`),
  ],
);

export const terminalAttributes = pgTable(
  'terminal_attributes',
  {
    id: serial('id').primaryKey(),
    terminalId: uuid('terminal_id')
      .notNull()
      .references(() => terminals.id, { onDelete: 'cascade' }),
    /** references.id of header 105 */
    attrTypeId: integer('attr_type_id')
      .notNull()
      .references(() => references.id),
    value: text('value').notNull(),
  },
  (t) => [uniqueIndex('terminal_attributes_uq').on(t.terminalId, t.attrTypeId)],
);

/** Which payment methods a terminal offers. */
export const terminalMethods = pgTable(
  'terminal_methods',
  {
    terminalId: uuid('terminal_id')
      .notNull()
      .references(() => terminals.id, { onDelete: 'cascade' }),
    paymentMethodId: integer('payment_method_id')
      .notNull()
      .references(() => paymentMethods.id),
  },
  (t) => [primaryKey({ columns: [t.terminalId, t.paymentMethodId] })],
);

export const terminalPools = pgTable('terminal_pools', {
  id: serial('id').primaryKey(),
  merchantId: uuid('merchant_id')
    .notNull()
    .references(() => merchants.id),
  name: text('name').notNull(),
  statusCode: text('status_code').notNull().default('ACTIVE'),
  typeCode: text('type_code').notNull().default('STANDARD'),
});

export const terminalPoolMembers = pgTable(
  'terminal_pool_members',
  {
    poolId: integer('pool_id')
      .notNull()
      .references(() => terminalPools.id, { onDelete: 'cascade' }),
    terminalId: uuid('terminal_id')
      .notNull()
      .references(() => terminals.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.poolId, t.terminalId] })],
);

/** Provider accounts ("people accounts" in the API's paths): where customers send money / payouts come from. */
export const providerAccounts = pgTable('provider_accounts', {
  id: serial('id').primaryKey(),
  providerId: integer('provider_id')
    .notNull()
    .references(() => providers.id),
  paymentMethodId: integer('payment_method_id')
    .notNull()
    .references(() => paymentMethods.id),
  bankName: text('bank_name'),
  ownerName: text('owner_name'),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const accountCredentials = pgTable(
  'account_credentials',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => providerAccounts.id, { onDelete: 'cascade' }),
    /** CARD or PHONE (reference header 103 requisite type). */
    credentialType: text('credential_type').notNull(),
    /** I, S, C, B or N (reference header 102 parameter type). */
    paramType: text('param_type').notNull().default('S'),
    /** Encrypted by the server (lib/data-vault.ts), with its keyed hash and masked form, as invoices' requisites. */
    value: text('value').notNull(),
    valueHash: text('value_hash'),
    valueMasked: text('value_masked'),
  },
  (t) => [
    index('account_credentials_account_idx').on(t.accountId),
    // one card or phone is the requisite of one account: a second is refused by its hash (accounts/service.ts)
    index('account_credentials_hash_idx').on(t.valueHash),
  ],
);

export const accountLimits = pgTable('account_limits', {
  accountId: integer('account_id')
    .primaryKey()
    .references(() => providerAccounts.id, { onDelete: 'cascade' }),
  limit: figure('limit').notNull(),
  priority: integer('priority').notNull().default(0),
  checkUniqueAmount: boolean('check_unique_amount').notNull().default(false),
  /**
   * The sum of the amounts of the deposits holding this account's requisites (IN_PROGRESS, PAYED): the room they
   * take under the limit. Kept by a trigger on invoices in the transaction that writes the invoice (migration 0025),
   * so routing reads one row instead of summing active deposits; the reconciliation checks it against them.
   */
  reserved: figure('reserved')
    .notNull()
    .default(sql`0`),
  /** Money that arrived took the balance past the limit (never refused); cleared when the limit is raised. */
  overLimitSince: ts('over_limit_since'),
  /** Taken out of routing because its requisites stopped being paid (automatically, or by staff) until resumed. */
  pausedAt: ts('paused_at'),
  pausedReason: text('paused_reason'),
  /** the staff user who paused it; null: the health check did */
  pausedBy: uuid('paused_by'),
  /** When staff last resumed it: the health check judges only the deposits given since. */
  resumedAt: ts('resumed_at'),
});

export const customers = pgTable(
  'customers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    externalId: text('external_id').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
  },
  (t) => [
    uniqueIndex('customers_merchant_external_uq').on(t.merchantId, t.externalId),
    // the invoice list's search by a prefix of the customer's external id, case-insensitive
    index('customers_merchant_external_prefix_idx').on(t.merchantId, sql`lower(${t.externalId}) text_pattern_ops`),
  ],
);

export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    terminalId: uuid('terminal_id')
      .notNull()
      .references(() => terminals.id),
    merchantInvoiceId: text('merchant_invoice_id').notNull(),
    providerInvoiceId: text('provider_invoice_id'),
    formId: text('form_id').notNull().unique(),
    flowType: text('flow_type').notNull(),
    status: text('status').notNull(),
    amount: money('amount').notNull(),
    fee: money('fee').notNull().default(0),
    currencyId: integer('currency_id')
      .notNull()
      .references(() => currencies.id),
    customerId: uuid('customer_id').references(() => customers.id),
    paymentMethodId: integer('payment_method_id').references(() => paymentMethods.id),
    /** The provider account whose requisites were given (deposit) or that pays out (withdrawal). */
    accountId: integer('account_id').references(() => providerAccounts.id),
    /**
     * Customer's card or phone for withdrawals; the account's requisite value for deposits: encrypted by the server
     * (lib/data-vault.ts: `v1:<key id>:…`), never plain. Beside it the keyed hash that finds equal values without
     * decrypting, and the masked form (a card's BIN + last four) every screen shows.
     */
    credentialValue: text('credential_value'),
    credentialHash: text('credential_hash'),
    credentialMasked: text('credential_masked'),
    bankCode: integer('bank_code'),
    canChangeAmount: boolean('can_change_amount').notNull().default(false),
    isTest: boolean('is_test').notNull().default(false),
    successUrl: text('success_url'),
    cancelUrl: text('cancel_url'),
    errorUrl: text('error_url'),
    callbackUrl: text('callback_url'),
    supportCode: text('support_code'),
    /**
     * A DONE deposit whose money had first arrived unmatched and was posted to suspense: its ledger effect takes the
     * amount from suspense instead of the provider account (ledger/postings.ts), so the account is counted once.
     */
    fundedFromSuspense: boolean('funded_from_suspense').notNull().default(false),
    expiresAt: ts('expires_at').notNull(),
    statusDate: ts('status_date').notNull().defaultNow(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('invoices_merchant_mid_uq').on(t.merchantId, t.merchantInvoiceId),
    index('invoices_merchant_created_idx').on(t.merchantId, t.createdAt.desc(), t.id),
    index('invoices_merchant_status_created_idx').on(t.merchantId, t.status, t.createdAt.desc()),
    index('invoices_terminal_created_idx').on(t.terminalId, t.createdAt.desc()),
    // invoice list filters, each with its index: terminal (an index-only capped count), last status day, sum range
    index('invoices_merchant_terminal_created_idx').on(t.merchantId, t.terminalId, t.createdAt.desc(), t.id),
    index('invoices_merchant_status_date_idx').on(t.merchantId, t.statusDate),
    index('invoices_merchant_amount_idx').on(t.merchantId, t.amount),
    index('invoices_account_status_idx').on(t.accountId, t.status),
    // an account's latest deposits (routing/account-health.ts: the health check and the health figures)
    index('invoices_account_created_idx').on(t.accountId, t.createdAt),
    index('invoices_status_expires_idx').on(t.status, t.expiresAt),
    index('invoices_provider_invoice_idx').on(t.providerInvoiceId),
    index('invoices_customer_idx').on(t.customerId),
    // support's search by a card or phone number the customer gives: by its keyed hash, never the number
    index('invoices_merchant_credential_hash_idx')
      .on(t.merchantId, t.credentialHash)
      .where(sql`${t.credentialHash} IS NOT NULL`),
    // reports: a period of one terminal's / one account's DONE live invoices, read from the index alone
    index('invoices_terminal_done_idx')
      .on(t.terminalId, t.statusDate, t.flowType, t.amount)
      .where(sql`${t.status} = 'DONE' AND NOT ${t.isTest}`),
    index('invoices_account_done_idx')
      .on(t.accountId, t.statusDate, t.merchantId, t.currencyId, t.flowType, t.amount)
      .where(sql`${t.status} = 'DONE' AND NOT ${t.isTest}`),
    // the list's search: case-insensitive prefixes of the merchant's and the provider's invoice ids
    index('invoices_merchant_mid_prefix_idx').on(t.merchantId, sql`lower(${t.merchantInvoiceId}) text_pattern_ops`),
    index('invoices_merchant_pid_prefix_idx').on(t.merchantId, sql`lower(${t.providerInvoiceId}) text_pattern_ops`),
    exactRange('invoices_amount_exact', t.amount),
    exactRange('invoices_fee_exact', t.fee),
  ],
);

export const invoiceStatusEvents = pgTable(
  'invoice_status_events',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id),
    status: text('status').notNull(),
    statusDate: ts('status_date').notNull().defaultNow(),
    userId: uuid('user_id'),
  },
  (t) => [primaryKey({ columns: [t.id, t.statusDate] }), index('invoice_status_events_invoice_idx').on(t.invoiceId)],
);

export const invoiceErrors = pgTable(
  'invoice_errors',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id),
    description: text('description').notNull(),
    eventTime: ts('event_time').notNull().defaultNow(),
  },
  (t) => [index('invoice_errors_invoice_idx').on(t.invoiceId)],
);

export const eventLog = pgTable(
  'event_log',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    merchantId: uuid('merchant_id').references(() => merchants.id),
    invoiceId: uuid('invoice_id').references(() => invoices.id),
    code: text('code').notNull(),
    description: text('description').notNull(),
    data: jsonb('data'),
    eventTime: ts('event_time').notNull().defaultNow(),
    userId: uuid('user_id'),
  },
  (t) => [primaryKey({ columns: [t.id, t.eventTime] }), index('event_log_invoice_idx').on(t.invoiceId)],
);

export const providerTransactions = pgTable(
  'provider_transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id),
    accountId: integer('account_id').references(() => providerAccounts.id),
    type: text('type').notNull(),
    status: text('status').notNull(),
    attempt: integer('attempt').notNull().default(1),
    externalRef: text('external_ref'),
    /** When the sandbox simulator should answer this transaction. */
    sandboxDueAt: ts('sandbox_due_at'),
    createDate: ts('create_date').notNull().defaultNow(),
    statusDate: ts('status_date').notNull().defaultNow(),
    /**
     * What staff (or expiry, or the merchant) decided about the invoice while this transaction was still with the
     * provider. Kept beside the provider's own status, which only the provider's answer ever writes.
     */
    decidedStatus: text('decided_status'),
    decidedAt: ts('decided_at'),
    decidedBy: uuid('decided_by'),
  },
  (t) => [
    check('provider_transactions_type_check', sql`${t.type} IN ('DEPOSIT', 'PAYOUT')`),
    // a transaction is open or has the provider's own answer: nothing else ever writes its status
    check(
      'provider_transactions_status_check',
      sql`${t.status} IN (${sql.raw(PROVIDER_TRANSACTION_STATUSES.map((x) => `'${x}'`).join(', '))})`,
    ),
    index('provider_transactions_invoice_idx').on(t.invoiceId),
    index('provider_transactions_sandbox_idx').on(t.status, t.sandboxDueAt),
  ],
);

/** Money a provider reported as arrived; unmatched rows stay for staff, never dropped. */
export const incomingPayments = pgTable(
  'incoming_payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => providers.id),
    accountId: integer('account_id')
      .notNull()
      .references(() => providerAccounts.id),
    amount: money('amount').notNull(),
    occurredAt: ts('occurred_at').notNull(),
    reference: text('reference').notNull(),
    matchedInvoiceId: uuid('matched_invoice_id').references(() => invoices.id),
    createdAt: ts('created_at').notNull().defaultNow(),
    /**
     * UNMATCHED: on the books in suspense, waiting for staff; MATCHED: an invoice's money (matched on arrival, as the
     * confirmation of a deposit staff had set DONE, or by staff from suspense); RETURNED: sent back to the payer.
     */
    status: text('status').notNull().default('UNMATCHED'),
    currencyId: integer('currency_id')
      .notNull()
      .references(() => currencies.id),
    book: text('book').notNull().default('live'),
    /** It was posted to suspense on arrival (provider account debit, suspense credit). */
    inSuspense: boolean('in_suspense').notNull().default(false),
    /** The deposit a provider's late confirmation named: the first candidate staff are offered. */
    hintInvoiceId: uuid('hint_invoice_id').references(() => invoices.id),
    resolvedAt: ts('resolved_at'),
    resolvedBy: uuid('resolved_by'),
    resolutionReason: text('resolution_reason'),
    /** The bank's reference of a return to the payer. */
    returnReference: text('return_reference'),
    /** The payer's name as the provider's bank shows it, when reported: ranks the deposits of that customer first. */
    payerName: text('payer_name'),
  },
  (t) => [
    uniqueIndex('incoming_payments_provider_ref_uq').on(t.providerId, t.reference),
    exactRange('incoming_payments_amount_exact', t.amount),
    check('incoming_payments_status_check', sql`${t.status} IN ('UNMATCHED', 'MATCHED', 'RETURNED')`),
    check('incoming_payments_book_check', sql`${t.book} IN ('live', 'test')`),
    // ascending: read backwards for the desk's newest-first pages (a DESC index sorts NULLS LAST, which ORDER BY … DESC
    // cannot use)
    index('incoming_payments_status_created_idx').on(t.status, t.createdAt, t.id),
    // the desk's list of every incoming payment, whatever its status (bench:exceptions: 106 ms p95 without it)
    index('incoming_payments_created_idx').on(t.createdAt, t.id),
    index('incoming_payments_account_created_idx').on(t.accountId, t.createdAt),
    index('incoming_payments_matched_invoice_idx').on(t.matchedInvoiceId),
  ],
);

/**
 * A provider's answer that contradicts what the books say (staff set a withdrawal DONE and the provider declined the
 * payout, or staff set a deposit DONE and the provider declined it). The answer is stored and acknowledged; staff
 * resolve the contradiction by an audited action (engine/contradictions.ts).
 */
export const providerContradictions = pgTable(
  'provider_contradictions',
  {
    id: serial('id').primaryKey(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    transactionId: uuid('transaction_id')
      .notNull()
      .references(() => providerTransactions.id),
    /** What the provider answered, and the invoice's status in the books at that moment. */
    providerStatus: text('provider_status').notNull(),
    booksStatus: text('books_status').notNull(),
    /** why the books could not follow the answer, when the engine refused it */
    note: text('note'),
    amount: money('amount').notNull(),
    currencyId: integer('currency_id')
      .notNull()
      .references(() => currencies.id),
    status: text('status').notNull().default('OPEN'),
    resolution: text('resolution'),
    resolvedBy: uuid('resolved_by'),
    resolvedAt: ts('resolved_at'),
    reason: text('reason'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('provider_contradictions_transaction_uq').on(t.transactionId),
    exactRange('provider_contradictions_amount_exact', t.amount),
    index('provider_contradictions_status_created_idx').on(t.status, t.createdAt, t.id),
    check('provider_contradictions_status_check', sql`${t.status} IN ('OPEN', 'RESOLVED')`),
  ],
);

/** Transactional outbox of merchant callbacks. id is the webhook-id. */
export const callbacks = pgTable(
  'callbacks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    url: text('url'),
    payload: jsonb('payload').notNull(),
    invoiceStatus: text('invoice_status').notNull(),
    /** PENDING, DELIVERED, FAILED (gave up), NO_URL */
    status: text('status').notNull().default('PENDING'),
    attempts: integer('attempts').notNull().default(0),
    manual: boolean('manual').notNull().default(false),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    createDate: ts('create_date').notNull().defaultNow(),
    executionDate: ts('execution_date'),
    /**
     * A replay (callbacks/replay.ts): the event's first delivery, whose body this row sends once more under its own
     * webhook-id. Null for an event's first delivery.
     */
    replayOf: uuid('replay_of').references((): AnyPgColumn => callbacks.id),
    /** the bulk replay that queued it (the audit record's target) */
    replayId: uuid('replay_id'),
  },
  (t) => [
    index('callbacks_invoice_idx').on(t.invoiceId),
    index('callbacks_due_idx').on(t.status, t.nextAttemptAt),
    /*
     * The delivery list, newest first, under any mix of its filters (callbacks/deliveries.ts): one index per scope
     * whose equality columns are the two enumerable filters (status, and the event type inside the payload), then
     * the page order. The list reads one ordered index range per (status, type) pair it asks for — at most 4 × 3 —
     * and merges them, so a page costs about (pairs × page size) index entries whatever the history and however rare
     * the rows asked for (a day of FAILED among millions of DELIVERED). Merchant staff and the Merchant page use the
     * first, platform staff without a merchant the second; an invoice's deliveries come from callbacks_invoice_idx.
     */
    // ascending: read backwards they give the list's order (newest first, as DESC NULLS FIRST) exactly
    index('callbacks_merchant_list_idx').on(t.merchantId, t.status, sql`(${t.payload} ->> 'type')`, t.createDate, t.id),
    index('callbacks_list_idx').on(t.status, sql`(${t.payload} ->> 'type')`, t.createDate, t.id),
    /*
     * What the worker claims (tickCallbacks): merchants' live callbacks first, replays after them at a bounded rate.
     * Two partial indexes over pending rows only (small at any time): a backlog of due replays never lies in the way
     * of the live ones.
     */
    index('callbacks_due_first_idx')
      .on(t.nextAttemptAt, t.id)
      .where(sql`${t.status} = 'PENDING' AND ${t.replayOf} IS NULL`),
    index('callbacks_due_replay_idx')
      .on(t.nextAttemptAt, t.id)
      .where(sql`${t.status} = 'PENDING' AND ${t.replayOf} IS NOT NULL`),
    // an event is never sent twice at once: at most one replay of it in flight (a replay also skips an event whose
    // first delivery is still pending)
    uniqueIndex('callbacks_one_pending_replay_uq')
      .on(t.replayOf)
      .where(sql`${t.status} = 'PENDING' AND ${t.replayOf} IS NOT NULL`),
  ],
);

export const callbackAttempts = pgTable(
  'callback_attempts',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    callbackId: uuid('callback_id')
      .notNull()
      .references(() => callbacks.id),
    /** the callback's merchant, so that an endpoint's health reads the merchant's attempts alone */
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    attemptedAt: ts('attempted_at').notNull().defaultNow(),
    responseCode: integer('response_code'),
    latencyMs: integer('latency_ms'),
    error: text('error'),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.attemptedAt] }),
    index('callback_attempts_callback_idx').on(t.callbackId),
    /*
     * Endpoint health (callbacks/deliveries.ts): a merchant's attempts in time order with their answer, so that its
     * latest attempt, and the attempts of an hour that callback_attempt_hours cannot split (the one of the last 2xx,
     * the one the last 24 h begin in), are index-only range reads of that merchant.
     */
    index('callback_attempts_merchant_time_idx').on(t.merchantId, t.attemptedAt, t.responseCode),
  ],
);

/**
 * Callback attempts per merchant and UTC hour, with how many got a 2xx: kept by a statement trigger on
 * callback_attempts (migration 0018) in the transaction that records the attempts, so that an endpoint's health over a
 * day, or since its last success days ago, sums a few dozen hours instead of counting every attempt (an endpoint down
 * for a day is retried some hundred thousand times at a large merchant).
 */
export const callbackAttemptHours = pgTable(
  'callback_attempt_hours',
  {
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    hour: ts('hour').notNull(),
    attempts: integer('attempts').notNull(),
    succeeded: integer('succeeded').notNull(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.hour] })],
);

export const supportTickets = pgTable(
  'support_tickets',
  {
    id: serial('id').primaryKey(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    description: text('description').notNull(),
    supportCode: text('support_code'),
    status: text('status').notNull().default('NEW'),
    createDate: ts('create_date').notNull().defaultNow(),
    decidedBy: uuid('decided_by'),
    decidedAt: ts('decided_at'),
  },
  (t) => [index('support_tickets_invoice_idx').on(t.invoiceId)],
);

/**
 * Append-only double-entry ledger. Every posting (txId) sums to zero per currency.
 * account: 'merchant', 'merchant_hold', 'provider_account', 'fees', 'settlement', 'payout_clearing', 'customer_funds'.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    txId: uuid('tx_id').notNull(),
    account: text('account').notNull(),
    merchantId: uuid('merchant_id').references(() => merchants.id),
    terminalId: uuid('terminal_id').references(() => terminals.id),
    providerAccountId: integer('provider_account_id').references(() => providerAccounts.id),
    invoiceId: uuid('invoice_id').references(() => invoices.id),
    settlementId: integer('settlement_id'),
    /** The incoming payment a suspense posting is about (arrival, match, return). */
    incomingId: uuid('incoming_id'),
    currencyId: integer('currency_id')
      .notNull()
      .references(() => currencies.id),
    amount: money('amount').notNull(),
    kind: text('kind').notNull(),
    /** 'live' or 'test': test invoices post to a book of their own, never to live money (ledger/service.ts Book). */
    book: text('book').notNull().default('live'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.createdAt] }),
    check('ledger_entries_book_check', sql`${t.book} IN ('live', 'test')`),
    exactRange('ledger_entries_amount_exact', t.amount),
    index('ledger_merchant_account_idx').on(t.merchantId, t.account, t.currencyId),
    index('ledger_provider_account_idx').on(t.providerAccountId, t.account),
    index('ledger_invoice_idx').on(t.invoiceId),
    index('ledger_created_idx').on(t.createdAt),
  ],
);

/**
 * The balance of every ledger account, one row per (book, account, owner, currency), updated in the
 * same transaction as the entries it sums (ledger/service.ts insertLegs), so that funds checks and
 * routing read one row whatever the history (their cost never grows with it). `key` is that tuple as text; the
 * reconciliation (ledger/reconcile.ts) proves the rows equal the sums of the entries.
 */
export const ledgerBalances = pgTable(
  'ledger_balances',
  {
    key: text('key').primaryKey(),
    book: text('book').notNull(),
    account: text('account').notNull(),
    merchantId: uuid('merchant_id'),
    providerAccountId: integer('provider_account_id'),
    currencyId: integer('currency_id').notNull(),
    balance: figure('balance').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('ledger_balances_merchant_idx').on(t.merchantId, t.account, t.currencyId),
    index('ledger_balances_provider_idx').on(t.providerAccountId),
  ],
);

/**
 * Period checkpoints of the ledger: per merchant, currency, book, terminal and UTC day, the sums the
 * balance report shows (live book) and the finance tiles' (both books). Kept by a statement trigger on ledger_entries
 * in the transaction that posts the entries (migrations 0013, 0014), so a report over any period, or a total over
 * all of them, reads one row per day and terminal whatever the number of entries. `holds`: what the day's postings
 * added to the merchant's held funds (payouts in flight), so that their sum is what is held now.
 */
export const ledgerDayTotals = pgTable(
  'ledger_day_totals',
  {
    merchantId: uuid('merchant_id').notNull(),
    currencyId: integer('currency_id').notNull(),
    book: text('book').notNull().default('live'),
    terminalId: uuid('terminal_id'),
    day: date('day').notNull(),
    deposits: figure('deposits').notNull(),
    withdrawals: figure('withdrawals').notNull(),
    fees: figure('fees').notNull(),
    settlements: figure('settlements').notNull(),
    net: figure('net').notNull(),
    holds: figure('holds')
      .notNull()
      .default(sql`0`),
  },
  (t) => [
    unique('ledger_day_totals_uq').on(t.merchantId, t.currencyId, t.book, t.day, t.terminalId).nullsNotDistinct(),
    check('ledger_day_totals_book_check', sql`${t.book} IN ('live', 'test')`),
  ],
);

/**
 * The day totals of a closed ledger month (ledger/closed-months.ts) summed per merchant, currency, book and terminal:
 * the all-time figures (the finance tiles) add these to the open months' days instead of every day of the history.
 */
export const ledgerMonthTotals = pgTable(
  'ledger_month_totals',
  {
    merchantId: uuid('merchant_id').notNull(),
    currencyId: integer('currency_id').notNull(),
    book: text('book').notNull(),
    terminalId: uuid('terminal_id'),
    month: date('month').notNull(),
    deposits: figure('deposits').notNull(),
    withdrawals: figure('withdrawals').notNull(),
    fees: figure('fees').notNull(),
    settlements: figure('settlements').notNull(),
    net: figure('net').notNull(),
    holds: figure('holds').notNull(),
  },
  (t) => [
    unique('ledger_month_totals_uq').on(t.merchantId, t.currencyId, t.book, t.terminalId, t.month).nullsNotDistinct(),
  ],
);

export const settlements = pgTable(
  'settlements',
  {
    id: serial('id').primaryKey(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    terminalId: uuid('terminal_id')
      .notNull()
      .references(() => terminals.id),
    currencyId: integer('currency_id')
      .notNull()
      .references(() => currencies.id),
    baseAmount: money('base_amount').notNull(),
    /** USDT in micro-units (6 decimals). */
    settlementAmount: money('settlement_amount').notNull(),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    exactRange('settlements_base_exact', t.baseAmount),
    exactRange('settlements_amount_exact', t.settlementAmount),
  ],
);

/**
 * Which actions need a second person (two-person control): per action (the permission it needs), on or off, with a
 * threshold per currency code in minor units (an action at or above it needs approval; no threshold for a currency:
 * every amount does). Platform-wide rows have no merchant; a merchant's owner may add its own row for its API key.
 */
export const approvalPolicies = pgTable(
  'approval_policies',
  {
    id: serial('id').primaryKey(),
    action: text('action').notNull(),
    merchantId: uuid('merchant_id').references(() => merchants.id),
    enabled: boolean('enabled').notNull().default(false),
    thresholds: jsonb('thresholds').$type<Record<string, number>>().notNull().default({}),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    updatedBy: uuid('updated_by').references(() => users.id),
  },
  (t) => [
    uniqueIndex('approval_policies_action_scope_uq').on(
      t.action,
      sql`coalesce(${t.merchantId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
    ),
  ],
);

/**
 * An action a policy holds back until a second person approves it: who asked, what (the action and its body, to be
 * applied as asked), the state before and the state asked for, the reason, and until when it may be approved.
 * PENDING → APPROVED (applied through the engine, in the approval's transaction) | REJECTED | EXPIRED. An approval
 * the current state refuses leaves it PENDING with the refusal's message (`refusal`), for the approver to see.
 */
export const approvalRequests = pgTable(
  'approval_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    action: text('action').notNull(),
    merchantId: uuid('merchant_id').references(() => merchants.id),
    /** what it acts on: invoice, settlement (a terminal), account, credential, incoming, merchant */
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    /** what it does, in words, as the queue shows it */
    summary: text('summary').notNull(),
    /** the request as the maker sent it, applied as is on approval */
    payload: jsonb('payload').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    reason: text('reason').notNull(),
    /** the amount the threshold was compared with, in minor units of `currency` */
    amount: bigint('amount', { mode: 'number' }),
    currency: text('currency'),
    status: text('status').notNull().default('PENDING'),
    makerId: uuid('maker_id')
      .notNull()
      .references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    decidedAt: ts('decided_at'),
    decidedBy: uuid('decided_by').references(() => users.id),
    decisionReason: text('decision_reason'),
    /** why the last approval was refused by the current state (the rule's message), and when */
    refusal: text('refusal'),
    refusedAt: ts('refused_at'),
  },
  (t) => [
    check('approval_requests_status_check', sql`${t.status} IN ('PENDING', 'APPROVED', 'REJECTED', 'EXPIRED')`),
    // the queue: newest first per status, and of every status (keyset on created_at, id)
    index('approval_requests_status_created_idx').on(t.status, t.createdAt.desc(), t.id.desc()),
    index('approval_requests_created_idx').on(t.createdAt.desc(), t.id.desc()),
    // what expires next (each list marks the overdue EXPIRED first)
    index('approval_requests_pending_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.status} = 'PENDING'`),
    // an invoice's (or account's…) pending request: one per action and target (engine/approvals.ts holdForApproval)
    uniqueIndex('approval_requests_pending_target_uq')
      .on(t.targetType, t.targetId, t.action)
      .where(sql`${t.status} = 'PENDING'`),
  ],
);

/**
 * A provider's statement for a period: what the bank says arrived on and left its accounts. The same file (by content
 * hash) is recognised, never counted twice. `counts`: lines per outcome.
 */
export const providerStatements = pgTable(
  'provider_statements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    providerId: integer('provider_id')
      .notNull()
      .references(() => providers.id),
    periodFrom: ts('period_from').notNull(),
    periodTo: ts('period_to').notNull(),
    filename: text('filename').notNull(),
    contentHash: text('content_hash').notNull(),
    lineCount: integer('line_count').notNull(),
    counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
    uploadedBy: uuid('uploaded_by').references(() => users.id),
    uploadedAt: ts('uploaded_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('provider_statements_provider_hash_uq').on(t.providerId, t.contentHash)],
);

/**
 * A statement's exceptions, each with how it came out against the books: STATEMENT_ONLY (the bank saw it, we did not),
 * BOOKS_ONLY (we recorded it, the bank did not: a line of the books, no line number), MISMATCH (found, but account,
 * amount or time differ, or the reference is repeated). Each is resolved by an audited action. MATCHED lines are kept
 * in statement_matches.
 */
export const statementLines = pgTable(
  'statement_lines',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    statementId: uuid('statement_id')
      .notNull()
      .references(() => providerStatements.id),
    /** the file's line number (the header is line 1); null for a BOOKS_ONLY entry */
    lineNo: integer('line_no'),
    occurredAt: ts('occurred_at').notNull(),
    accountId: integer('account_id').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    direction: text('direction').notNull(),
    /** the bank's reference, a card or phone number in it masked (maskRequisitesInText) */
    reference: text('reference').notNull(),
    /**
     * The counterparty's card or phone number the line named (an optional column of the file), never the number: its
     * keyed lookup hash (lib/data-vault.ts `hash`, the same as invoices' credential_hash) and its masked form.
     */
    counterpartyHash: text('counterparty_hash'),
    counterpartyMasked: text('counterparty_masked'),
    outcome: text('outcome').notNull(),
    incomingId: uuid('incoming_id'),
    transactionId: uuid('transaction_id'),
    detail: text('detail'),
    resolvedAt: ts('resolved_at'),
    resolvedBy: uuid('resolved_by').references(() => users.id),
    resolution: text('resolution'),
    resolutionReason: text('resolution_reason'),
    /** resolution APPROVAL: the correction asked for (its request decides whether the line stays resolved) */
    approvalId: uuid('approval_id').references(() => approvalRequests.id),
  },
  (t) => [
    check('statement_lines_direction_check', sql`${t.direction} IN ('IN', 'OUT')`),
    check(
      'statement_lines_outcome_check',
      sql`${t.outcome} IN ('MATCHED', 'STATEMENT_ONLY', 'BOOKS_ONLY', 'MISMATCH')`,
    ),
    index('statement_lines_statement_outcome_idx').on(t.statementId, t.outcome, t.id),
    // the desk's queue of unresolved exceptions
    index('statement_lines_open_idx')
      .on(t.id)
      .where(sql`${t.outcome} <> 'MATCHED' AND ${t.resolvedAt} IS NULL`),
  ],
);

/**
 * A statement's MATCHED lines, kept compactly: one row per 10,000 lines of the file (chunk = line number / 10,000),
 * holding the lines' numbers and times and the books' record each one is (an incoming payment for IN, a payout
 * transaction for OUT) as arrays, in no particular order. A million matched lines are 100 rows rather than a million:
 * a matched line has nothing to resolve, and its account, amount and reference are the record's. The statement's
 * details page through them by line number (modules/statements).
 */
export const statementMatches = pgTable(
  'statement_matches',
  {
    statementId: uuid('statement_id')
      .notNull()
      .references(() => providerStatements.id),
    chunk: integer('chunk').notNull(),
    lineNos: integer('line_nos').array().notNull(),
    occurredAt: ts('occurred_at').array().notNull(),
    /**
     * One letter per line, in the arrays' order: what its reference named. I: an incoming payment (IN); O: a payout
     * by its transaction id; P: a payout by its withdrawal's provider invoice id (OUT).
     */
    kinds: text('kinds').notNull(),
    bookIds: uuid('book_ids').array().notNull(),
    /**
     * The counterparty each line named, in the arrays' order: its masked form and keyed lookup hash (null where a
     * line named none); both null when no line of the chunk named one.
     */
    counterparties: text('counterparties').array(),
    counterpartyHashes: text('counterparty_hashes').array(),
  },
  (t) => [primaryKey({ columns: [t.statementId, t.chunk] })],
);

/** A statement's lines per UTC day and currency, counted when it is uploaded: the daily summary reads these. */
export const statementDays = pgTable(
  'statement_days',
  {
    statementId: uuid('statement_id')
      .notNull()
      .references(() => providerStatements.id),
    day: date('day').notNull(),
    currencyId: integer('currency_id')
      .notNull()
      .references(() => currencies.id),
    lines: integer('lines').notNull(),
    matched: integer('matched').notNull(),
    statementOnly: integer('statement_only').notNull(),
    mismatches: integer('mismatches').notNull(),
    /** the lines' amounts in and out, minor units */
    amountIn: bigint('amount_in', { mode: 'number' }).notNull(),
    amountOut: bigint('amount_out', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.statementId, t.day, t.currencyId] }), index('statement_days_day_idx').on(t.day)],
);

/** A provider whose statements have other columns: which of its columns holds each field, saved per provider. */
export const statementMappings = pgTable('statement_mappings', {
  providerId: integer('provider_id')
    .primaryKey()
    .references(() => providers.id),
  mapping: jsonb('mapping').$type<Record<string, string>>().notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  updatedBy: uuid('updated_by').references(() => users.id),
});

/**
 * The data keys requisite values are encrypted under, each wrapped (encrypted) by the master key, which is never in
 * the database. The newest key not retired encrypts; every key decrypts until it is retired, once no row uses it.
 */
export const dataKeys = pgTable('data_keys', {
  id: text('id').primaryKey(),
  wrapped: text('wrapped').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  retiredAt: ts('retired_at'),
});

/** Platform settings: internal ones (the generated session secret) and staff's (the accounts' pause rule, as JSON). */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
  /** the staff user who last changed it; null for the server's own */
  updatedBy: uuid('updated_by').references(() => users.id),
});

/** Settings a merchant's staff may read and change (auto retry…), one row per merchant and key. */
export const merchantSettings = pgTable(
  'merchant_settings',
  {
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    key: text('key').notNull(),
    value: text('value').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.key] })],
);

/**
 * Append-only audit trail of every security- or money-relevant action, written in the same
 * transaction as the change. Triggers in the migration refuse UPDATE, DELETE and TRUNCATE.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    at: ts('at').notNull().defaultNow(),
    actorUserId: uuid('actor_user_id'),
    actorUsername: text('actor_username'),
    /** platform, merchant (staff kinds), merchant_api, provider, system, anonymous */
    actorKind: text('actor_kind').notNull(),
    merchantId: uuid('merchant_id'),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    reason: text('reason'),
    ip: text('ip'),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.at] }),
    index('audit_at_idx').on(t.at.desc(), t.id.desc()),
    index('audit_merchant_at_idx').on(t.merchantId, t.at.desc()),
    index('audit_actor_at_idx').on(t.actorUserId, t.at.desc()),
    index('audit_action_at_idx').on(t.action, t.at.desc()),
  ],
);

/**
 * The monthly partitions of the history tables (ledger_entries, invoice_status_events, event_log, callback_attempts,
 * audit_log; migration 0027): created ahead by history_partitions_ensure (the history-partitions worker), and for
 * the tables with a retention (callback attempts, the event log) archived to a checksummed CSV file and dropped once
 * older than it (modules/history/retention.ts). A row stays after its partition is dropped, naming its archive.
 * from_at null: the partition that holds everything before partitioning (the table as it was, attached).
 */
export const historyPartitions = pgTable(
  'history_partitions',
  {
    partition: text('partition').primaryKey(),
    parent: text('parent').notNull(),
    fromAt: ts('from_at'),
    toAt: ts('to_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    archivedAt: ts('archived_at'),
    archiveFile: text('archive_file'),
    archiveSha256: text('archive_sha256'),
    archiveRows: bigint('archive_rows', { mode: 'number' }),
    /** A ledger month closed: its sums are in ledger_closed_sums and it refuses new entries (ledger/closed-months.ts). */
    closedAt: ts('closed_at'),
  },
  (t) => [index('history_partitions_parent_idx').on(t.parent, t.toAt)],
);

/**
 * The sums of a closed ledger month per balance key (ledger/closed-months.ts): the reconciliation adds them to the
 * entries of the open months instead of reading the closed ones again.
 */
export const ledgerClosedSums = pgTable(
  'ledger_closed_sums',
  {
    partition: text('partition').notNull(),
    key: text('key').notNull(),
    book: text('book').notNull(),
    currencyId: integer('currency_id').notNull(),
    entries: bigint('entries', { mode: 'bigint' }).notNull(),
    rows: bigint('rows', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.partition, t.key] })],
);

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code'),
    responseBody: jsonb('response_body'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.key] })],
);

/**
 * Saved views of the Transactions list: filters, search and page size under a name,
 * kept by one user on one merchant, private or shared with everyone working on that merchant.
 */
export const savedViews = pgTable(
  'saved_views',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    merchantId: uuid('merchant_id')
      .notNull()
      .references(() => merchants.id),
    ownerUserId: uuid('owner_user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    shared: boolean('shared').notNull().default(false),
    /** The list's state, validated by the contracts' savedViewState before it is written. */
    state: jsonb('state').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('saved_views_owner_name_uq').on(t.merchantId, t.ownerUserId, sql`lower(${t.name})`),
    index('saved_views_merchant_shared_idx')
      .on(t.merchantId)
      .where(sql`${t.shared}`),
  ],
);

/**
 * What the demo's own callback receiver (/api/demo/callbacks, never in production) got: the headers and
 * body as they arrived and whether the signature verified, shown on the invoice's Callbacks section.
 */
export const demoCallbackInbox = pgTable(
  'demo_callback_inbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    invoiceId: uuid('invoice_id')
      .notNull()
      .references(() => invoices.id),
    /** the webhook-id header: the callback's id when it is ours */
    webhookId: text('webhook_id').notNull(),
    receivedAt: ts('received_at').notNull().defaultNow(),
    headers: jsonb('headers').notNull(),
    body: text('body').notNull(),
    verified: boolean('verified').notNull(),
    /** what the verifier said, in words */
    result: text('result').notNull(),
  },
  (t) => [index('demo_callback_inbox_invoice_idx').on(t.invoiceId, t.receivedAt)],
);
