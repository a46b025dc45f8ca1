import { and, eq, notInArray, sql, type SQL } from 'drizzle-orm';
import {
  feeFor,
  holdsRequisites,
  isFinal,
  parsePayoutCredential,
  type BankOption,
  type FormCompleteBody,
  type FormCredentialBody,
  type FormCredentials,
  type FormInit,
  type FormMethod,
} from '@paydesk/contracts';
import type { DbOrTx, Tx } from '../../db/create-db';
import { invoiceErrors, invoices, references, supportTickets } from '../../db/schema';
import type { AppContext } from '../../lib/context';
import type { DataVault } from '../../lib/data-vault';
import { AppError, badRequest, invalidState } from '../../lib/errors';
import { RequisitesRefusal } from '../engine/guards';
import {
  accountRequisites,
  candidatesOf,
  depositCandidatesJson,
  lockFirstFreeAccount,
  type DepositCandidates,
  routePayout,
  type RoutedAccount,
  type RoutingStep,
} from '../routing/service';
import {
  applyTransition,
  choosePayoutMethod,
  createProviderTransaction,
  lockInvoice,
  logEvent,
  reissue,
  terminalFeeBps,
  type InvoiceRow,
} from '../engine/service';

const CUSTOMER = { kind: 'customer' } as const;
const BANK_HEADER_ID = 205;

const formNotFound = () => new AppError('NOT_FOUND', 'Payment form not found');
const formGone = () => new AppError('GONE', 'This payment form has expired');

function assertOpen(ctx: AppContext, inv: Pick<InvoiceRow, 'status' | 'expiresAt'>) {
  if (inv.expiresAt.getTime() < ctx.now().getTime() && !isFinal(inv.status)) throw formGone();
}

type MethodRow = FormMethod & { currencyId: number; countryCode: string };

async function terminalMethods(db: DbOrTx, terminalId: string): Promise<MethodRow[]> {
  return (await methodsWith(db, terminalId, sql`NULL`)).methods;
}

/**
 * A deposit's methods and, for the one the customer chose, routing's candidate accounts (depositCandidates), read in
 * one statement: the credential step's first read after the invoice's lock.
 */
async function methodsAndCandidates(tx: Tx, inv: InvoiceRow, paymentMethodId: number) {
  const candidates = depositCandidatesJson({ paymentMethodId, currencyId: inv.currencyId, isTest: inv.isTest });
  const { methods, extra } = await methodsWith<Parameters<typeof candidatesOf>[0]>(
    tx,
    inv.terminalId,
    sql`CASE WHEN m.id = ${paymentMethodId} THEN ${candidates} END`,
  );
  const i = methods.findIndex((m) => m.id === paymentMethodId);
  return { methods, candidates: candidatesOf(i < 0 ? null : extra[i]!) };
}

/** The terminal's methods, each with one more value of the caller's (`extra`, NULL for none). */
async function methodsWith<E = null>(db: DbOrTx, terminalId: string, extra: SQL) {
  const res = await db.execute<{
    id: number;
    name: string;
    code: string;
    requisite_type: string;
    is_bank_transfer: boolean;
    min_amount: number;
    max_amount: number;
    currency_id: number;
    country_code: string;
    extra: E;
  }>(sql`
    SELECT m.id, m.name, m.code, m.requisite_type, m.is_bank_transfer, m.min_amount, m.max_amount, m.currency_id,
      m.country_code, ${extra} AS extra
    FROM terminal_methods tm JOIN payment_methods m ON m.id = tm.payment_method_id
    WHERE tm.terminal_id = ${terminalId} ORDER BY m.id`);
  return {
    methods: res.rows.map((r): MethodRow => ({
      id: Number(r.id),
      name: r.name,
      code: r.code,
      type: r.requisite_type.toLowerCase() === 'phone' ? 'phone' : 'card',
      isBankTransfer: r.is_bank_transfer,
      minAmount: Number(r.min_amount),
      maxAmount: Number(r.max_amount),
      currencyId: Number(r.currency_id),
      countryCode: r.country_code.trim().toUpperCase(),
    })),
    extra: res.rows.map((r) => r.extra),
  };
}

async function invoiceByForm(db: DbOrTx, formId: string) {
  const [inv] = await db.select().from(invoices).where(eq(invoices.formId, formId));
  if (!inv) throw formNotFound();
  return inv;
}

export async function initForm(ctx: AppContext, formId: string): Promise<FormInit> {
  const inv = await invoiceByForm(ctx.db, formId);
  assertOpen(ctx, inv);
  const [methods, cur] = await Promise.all([
    terminalMethods(ctx.db, inv.terminalId),
    ctx.db.execute<{ code: string; dimension: number }>(
      sql`SELECT code, dimension FROM currencies WHERE id = ${inv.currencyId}`,
    ),
  ]);
  const preselected = methods.find((m) => m.id === inv.paymentMethodId) ?? null;
  return {
    invoiceId: inv.id,
    successUrl: inv.successUrl,
    cancelUrl: inv.cancelUrl,
    errorUrl: inv.errorUrl,
    methods: methods.map(({ currencyId: _c, countryCode: _cc, ...m }) => m),
    paymentMethodId: preselected?.id ?? null,
    paymentMethodName: preselected?.name ?? null,
    type: inv.flowType === 'DEPOSIT' ? 'Deposit' : 'Withdrawal',
    canChangeAmount: inv.canChangeAmount,
    amount: inv.amount,
    currencyInfo: {
      code: cur.rows[0]!.code,
      dimension: Number(cur.rows[0]!.dimension),
      minValue: methods.length ? Math.min(...methods.map((m) => m.minAmount)) : 0,
      maxValue: methods.length ? Math.max(...methods.map((m) => m.maxAmount)) : 0,
    },
    expiredIn: Math.max(0, Math.floor((inv.expiresAt.getTime() - ctx.now().getTime()) / 1000)),
    status: inv.status as FormInit['status'],
    verificationKey: inv.supportCode ?? '',
  };
}

export async function formStatus(ctx: AppContext, formId: string) {
  const [row] = await ctx.db.select({ status: invoices.status }).from(invoices).where(eq(invoices.formId, formId));
  if (!row) throw formNotFound();
  return { status: row.status as FormInit['status'] };
}

function toCredentials(acc: RoutedAccount): FormCredentials {
  return {
    value: acc.value,
    owner: acc.owner,
    country_code: acc.countryCode,
    bank_name: acc.bankName,
    type: acc.credentialType.toUpperCase() === 'PHONE' ? 'by_mobile' : 'card',
  };
}

function checkAmount(inv: InvoiceRow, method: MethodRow, all: MethodRow[], amount: number) {
  if (!inv.canChangeAmount && amount !== inv.amount) {
    throw badRequest(`The amount of this payment is fixed at ${inv.amount}`, { amount: `Must be ${inv.amount}` });
  }
  const curMin = Math.min(...all.map((m) => m.minAmount));
  const curMax = Math.max(...all.map((m) => m.maxAmount));
  const min = Math.max(method.minAmount, curMin);
  const max = Math.min(method.maxAmount, curMax);
  if (amount < min || amount > max) {
    throw new AppError(
      'AMOUNT_OUT_OF_RANGE',
      `Amount ${amount} is outside the limits of ${method.name}: ${min}–${max}`,
      {
        amount: `Must be between ${min} and ${max}`,
      },
    );
  }
}

type CredentialOutcome = { amount: number; credentials: FormCredentials | null } | { error: AppError };

/**
 * Deposit: assigns requisites by routing under row locks and moves NEW → IN_PROGRESS (repeating
 * on an IN_PROGRESS/PAYED invoice returns the same requisites). Withdrawal: stores the chosen
 * method and amount. No free account: an invoice_errors row is kept and 409 returned.
 */
export async function requestCredential(ctx: AppContext, formId: string, body: FormCredentialBody) {
  const out: CredentialOutcome = await ctx.db.transaction(async (tx) => {
    const inv = await lockInvoice(tx, { formId });
    if (!inv) throw formNotFound();
    assertOpen(ctx, inv);
    if (holdsRequisites(inv) && inv.accountId) {
      const same = body.amount === inv.amount && body.paymentMethodId === inv.paymentMethodId;
      if (!same && inv.status === 'IN_PROGRESS') return reissueRequisites(ctx, tx, inv, body);
      if (!same) {
        throw invalidState(
          `You said you have paid ${inv.amount}; the amount can no longer change. Contact support if you sent another amount.`,
        );
      }
      const acc = await accountRequisites(ctx.vault, tx, inv.accountId);
      return { amount: inv.amount, credentials: acc ? toCredentials(acc) : null };
    }
    if (inv.status !== 'NEW')
      throw invalidState(`This payment is already ${inv.status}; credentials can no longer be requested`);
    const { methods, candidates } =
      inv.flowType === 'DEPOSIT'
        ? await methodsAndCandidates(tx, inv, body.paymentMethodId)
        : { methods: await terminalMethods(tx, inv.terminalId), candidates: null };
    const method = methods.find((m) => m.id === body.paymentMethodId);
    if (!method)
      throw badRequest('This payment method is not available for this payment', { paymentMethodId: 'Not available' });
    checkAmount(inv, method, methods, body.amount);
    const fee = body.amount === inv.amount ? inv.fee : feeFor(body.amount, await terminalFeeBps(tx, inv.terminalId));
    const now = ctx.now();
    if (inv.flowType === 'WITHDRAWAL') {
      // through the engine's write path: the guards, the event, and the amount callback when the customer changed it
      await choosePayoutMethod(ctx, tx, inv, CUSTOMER, {
        paymentMethodId: method.id,
        methodName: method.name,
        amount: body.amount,
        fee,
      });
      return { amount: body.amount, credentials: null };
    }
    const { account: acc, routing } = await assignRequisites(ctx.vault, tx, candidates!, (sp, acc, steps) =>
      applyTransition(ctx, sp, inv, 'IN_PROGRESS', CUSTOMER, {
        patch: {
          paymentMethodId: method.id,
          amount: body.amount,
          fee,
          accountId: acc.accountId,
        },
        requisite: { type: acc.credentialType, value: acc.value },
        description: `Requisites of account ${acc.accountId} given to the customer (${method.code}, ${body.amount})`,
        data: { routing: steps },
      }),
    );
    if (!acc) {
      const message = 'No payment requisites are available for this amount right now';
      await tx
        .insert(invoiceErrors)
        .values({ invoiceId: inv.id, description: `${message} (${method.code}, ${body.amount})`, eventTime: now });
      await logEvent(
        tx,
        inv,
        now,
        { kind: 'system' },
        'NO_ACCOUNT_AVAILABLE',
        `${message} (${method.code}, ${body.amount})`,
        { routing },
      );
      return { error: new AppError('NO_ACCOUNT_AVAILABLE', message) };
    }
    return { amount: body.amount, credentials: toCredentials(acc) };
  });
  if ('error' in out) throw out.error;
  return out;
}

/**
 * Routing (routing/service.ts depositCandidates): the candidate accounts, best first, each tried by the engine
 * itself — `assign` moves the invoice onto it, and the guard refuses an account without room or with the amount taken.
 * Each try runs in a savepoint, so a refused account's limit-row lock is released before the next is tried: a
 * customer holds the lock of the one account it gets, never of all candidates. A try takes the first candidate left
 * whose lock no other customer holds (lockFirstFreeAccount): a busy account passes the customer to the next one. Only
 * when every candidate left is busy does the customer wait, on them in order, so that nobody is refused for an account
 * that was merely in use. The routing record lists, best first, why each account before the given one was passed
 * over: disabled, paused, over limit, refused by the guard, or busy.
 */
async function assignRequisites(
  vault: DataVault,
  tx: Tx,
  { eligible, skipped }: DepositCandidates,
  assign: (sp: Tx, acc: RoutedAccount, routing: RoutingStep[]) => Promise<unknown>,
): Promise<{ account: RoutedAccount | null; routing: RoutingStep[] }> {
  const refused = new Map<number, RoutingStep['outcome']>();
  // the record up to an account: the candidates before it passed over, refused or (not tried, so) busy
  const recordTo = (accountId: number | null): RoutingStep[] => {
    const upTo = accountId === null ? eligible : eligible.slice(0, eligible.indexOf(accountId));
    return [
      ...skipped,
      ...upTo.map((id) => ({ accountId: id, outcome: refused.get(id) ?? ('busy' as const) })),
      ...(accountId === null ? [] : [{ accountId, outcome: 'given' as const }]),
    ];
  };
  let left = eligible;
  // one try: the first free account left (or, waiting, the one given), as the engine's guard judges it
  // A try runs after a savepoint of its own, and a refused try rolls back to it, which releases the account's lock.
  // A try that gives the account keeps its savepoint until the transaction commits: no RELEASE, one round trip less.
  const tryAccount = async (waitFor?: number): Promise<RoutedAccount | 'all busy' | null> => {
    let accountId: number | null = waitFor ?? null;
    await tx.execute(sql.raw('SAVEPOINT routing_try'));
    try {
      const acc =
        waitFor === undefined
          ? await lockFirstFreeAccount(vault, tx, left)
          : await accountRequisites(vault, tx, waitFor);
      if (waitFor === undefined && !acc) return 'all busy' as const;
      accountId ??= acc!.accountId;
      left = left.filter((id) => id !== accountId);
      if (!acc) return null;
      await assign(tx, acc, recordTo(accountId));
      return acc;
    } catch (err) {
      if (err instanceof RequisitesRefusal && accountId !== null) {
        await tx.execute(sql.raw('ROLLBACK TO SAVEPOINT routing_try'));
        refused.set(accountId, err.reason);
        return null;
      }
      throw err;
    }
  };
  while (left.length) {
    const got = await tryAccount();
    if (got === 'all busy') break;
    if (got) return { account: got, routing: recordTo(got.accountId) };
  }
  for (const accountId of [...left]) {
    const got = await tryAccount(accountId);
    if (got && got !== 'all busy') return { account: got, routing: recordTo(got.accountId) };
  }
  return { account: null, routing: recordTo(null) };
}

/**
 * The customer went Back and chose another amount (or method) after requisites were issued: the old
 * requisites are released and new ones routed for the new amount, under the same locks and guards,
 * so the amount the customer sees is always the amount the server holds (or a clear refusal).
 */
async function reissueRequisites(
  ctx: AppContext,
  tx: Tx,
  inv: typeof invoices.$inferSelect,
  body: FormCredentialBody,
): Promise<CredentialOutcome> {
  if (!inv.canChangeAmount && body.amount !== inv.amount) {
    throw badRequest('The amount of this payment cannot be changed', { amount: `Must be ${inv.amount}` });
  }
  const { methods, candidates } = await methodsAndCandidates(tx, inv, body.paymentMethodId);
  const method = methods.find((m) => m.id === body.paymentMethodId);
  if (!method)
    throw badRequest('This payment method is not available for this payment', { paymentMethodId: 'Not available' });
  checkAmount(inv, method, methods, body.amount);
  const fee = feeFor(body.amount, await terminalFeeBps(tx, inv.terminalId));
  const { account: acc } = await assignRequisites(ctx.vault, tx, candidates, (sp, acc, routing) =>
    reissue(
      ctx,
      sp,
      inv,
      CUSTOMER,
      {
        paymentMethodId: method.id,
        amount: body.amount,
        fee,
        accountId: acc.accountId,
      },
      { type: acc.credentialType, value: acc.value },
      routing,
    ),
  );
  if (!acc)
    return {
      error: new AppError('NO_ACCOUNT_AVAILABLE', 'No payment requisites are available for this amount right now'),
    };
  return { amount: body.amount, credentials: toCredentials(acc) };
}

/** Deposit: "Have paid" (IN_PROGRESS → PAYED). Withdrawal: payout details → provider transaction, NEW → IN_PROGRESS. */
export async function completePayment(ctx: AppContext, formId: string, body: FormCompleteBody) {
  const out = await ctx.db.transaction(async (tx) => {
    const inv = await lockInvoice(tx, { formId });
    if (!inv) throw formNotFound();
    assertOpen(ctx, inv);
    if (inv.flowType === 'DEPOSIT') {
      if (inv.status === 'NEW') throw invalidState('Request the payment credentials before confirming the payment');
      if (inv.status !== 'IN_PROGRESS') throw invalidState(`This payment is already ${inv.status}`);
      const updated = await applyTransition(ctx, tx, inv, 'PAYED', CUSTOMER, {
        description: 'Customer pressed "Have paid"',
      });
      await createProviderTransaction(ctx, tx, updated, 'DEPOSIT');
      return { successUrl: inv.successUrl };
    }
    if (inv.status !== 'NEW') throw invalidState(`This withdrawal is already ${inv.status}`);
    const methods = await terminalMethods(tx, inv.terminalId);
    const method = methods.find((m) => m.id === inv.paymentMethodId) ?? (methods.length === 1 ? methods[0] : undefined);
    if (!method) throw invalidState('Choose a payment method first');
    const cred = parsePayoutCredential(method.type, body.credential);
    if (!cred.ok) throw badRequest(cred.error, { credential: cred.error });
    let bankCode: number | null = null;
    if (method.isBankTransfer) {
      if (body.bankCodeInteger === undefined)
        throw badRequest('Choose the bank', { bankCodeInteger: 'Choose the bank' });
      const banks = ofCountries(await listBanks(tx), [method.countryCode]);
      if (!banks.some((b) => b.codeInteger === body.bankCodeInteger)) {
        throw badRequest('Unknown bank', { bankCodeInteger: 'Choose a bank from the list' });
      }
      bankCode = body.bankCodeInteger;
    }
    const accountId = await routePayout(tx, { paymentMethodId: method.id, isTest: inv.isTest });
    const now = ctx.now();
    if (!accountId) {
      const message = 'No payout account is available for this method right now';
      await tx.insert(invoiceErrors).values({ invoiceId: inv.id, description: message, eventTime: now });
      return { error: new AppError('NO_ACCOUNT_AVAILABLE', message) };
    }
    let updated: InvoiceRow;
    try {
      updated = await applyTransition(ctx, tx, inv, 'IN_PROGRESS', CUSTOMER, {
        patch: { paymentMethodId: method.id, bankCode, accountId },
        requisite: { type: method.type === 'phone' ? 'PHONE' : 'CARD', value: cred.value },
        description: `Customer gave payout details (${method.code}); payout started`,
      });
    } catch (err) {
      // the engine's funds guard refused before writing anything; the customer is not told the merchant's balance
      if (!(err instanceof AppError) || err.code !== 'INSUFFICIENT_BALANCE') throw err;
      const message = 'The payout cannot be made right now: the merchant balance does not cover it';
      await tx.insert(invoiceErrors).values({ invoiceId: inv.id, description: message, eventTime: now });
      return { error: new AppError('INSUFFICIENT_BALANCE', message) };
    }
    await createProviderTransaction(ctx, tx, updated, 'PAYOUT');
    return { successUrl: inv.successUrl };
  });
  if ('error' in out) throw out.error;
  return out;
}

/** Bank list for SBP withdrawals: reference header 205; codeInteger is the numeric code, else the row id. */
async function listBanks(db: DbOrTx): Promise<BankOption[]> {
  const rows = await db
    .select({
      id: references.id,
      code: references.code,
      value: references.value,
      latinValue: references.latinValue,
      countryCode: references.countryCode,
    })
    .from(references)
    .where(eq(references.headerId, BANK_HEADER_ID))
    .orderBy(references.sort, references.value);
  return rows.map((r) => ({
    id: r.id,
    value: r.value,
    latinValue: r.latinValue,
    countryCode: r.countryCode,
    codeInteger: /^\d{1,15}$/.test(r.code) ? Number(r.code) : r.id,
  }));
}

/** The banks of the given countries and those with no country (every bank when no country is given). */
const ofCountries = (banks: BankOption[], countries: readonly string[]) =>
  countries.length ? banks.filter((b) => b.countryCode === null || countries.includes(b.countryCode)) : banks;

/**
 * The countries whose banks a form's SBP list offers: its chosen method's, else those of the terminal's
 * bank-transfer methods in the invoice currency, else of any of its methods in that currency (a RUB form
 * lists Russian banks, never Uzbek ones).
 */
function bankCountries(methods: readonly MethodRow[], inv: Pick<InvoiceRow, 'paymentMethodId' | 'currencyId'>) {
  const chosen = methods.find((m) => m.id === inv.paymentMethodId);
  const inCurrency = methods.filter((m) => m.currencyId === inv.currencyId);
  const transfers = inCurrency.filter((m) => m.isBankTransfer);
  const candidates = chosen ? [chosen] : transfers.length ? transfers : inCurrency;
  return [...new Set(candidates.map((m) => m.countryCode))];
}

export async function banksForForm(ctx: AppContext, formId: string): Promise<BankOption[]> {
  const inv = await invoiceByForm(ctx.db, formId);
  const [methods, banks] = await Promise.all([terminalMethods(ctx.db, inv.terminalId), listBanks(ctx.db)]);
  return ofCountries(banks, bankCountries(methods, inv));
}

export async function openSupportTicket(
  ctx: AppContext,
  formId: string,
  body: { supportCode?: string; description?: string },
) {
  return ctx.db.transaction(async (tx) => {
    const inv = await lockInvoice(tx, { formId });
    if (!inv) throw formNotFound();
    const [open] = await tx
      .select({ id: supportTickets.id })
      .from(supportTickets)
      .where(and(eq(supportTickets.invoiceId, inv.id), notInArray(supportTickets.status, ['REJECTED', 'SOLVED'])));
    if (open) throw new AppError('CONFLICT', 'A support request for this payment is already open');
    const now = ctx.now();
    const [t] = await tx
      .insert(supportTickets)
      .values({
        invoiceId: inv.id,
        merchantId: inv.merchantId,
        description: body.description || 'Customer asked for help from the payment form',
        supportCode: body.supportCode ?? null,
        status: 'NEW',
        createDate: now,
      })
      .returning();
    await logEvent(tx, inv, now, CUSTOMER, 'TICKET_CREATED', `Support ticket ${t!.id} opened from the payment form`, {
      ticketId: t!.id,
      supportCodeMatches: body.supportCode ? body.supportCode === inv.supportCode : null,
    });
    return { ticketId: t!.id, status: t!.status };
  });
}
