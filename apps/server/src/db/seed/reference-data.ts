import { INVOICE_STATUSES, TICKET_STATUSES } from '@paydesk/contracts';
import type { DbOrTx } from '../create-db';
import { currencies, paymentMethods, providers, references } from '../schema';

const CURRENCIES = [
  { code: 'UZS', name: 'Uzbekistani sum', dimension: 2 },
  { code: 'RUB', name: 'Russian ruble', dimension: 2 },
  { code: 'KGS', name: 'Kyrgyzstani som', dimension: 2 },
  { code: 'AZN', name: 'Azerbaijani manat', dimension: 2 },
  { code: 'USD', name: 'US dollar', dimension: 2 },
  { code: 'USDT', name: 'Tether USD', dimension: 6 },
] as const;

type Ref = {
  code: string;
  value: string;
  paramType?: 'I' | 'S' | 'C' | 'B' | 'N';
  countryCode?: string;
  latinValue?: string | null;
};

/** Terminal attribute types (header 105) by code; paramType is the value's type. */
const TERMINAL_ATTRIBUTE_TYPES = [
  { code: 'SUCCESS_PERCENT_LOW_THRESHOLD', value: 'Success rate alert threshold (low), %', paramType: 'I' },
  { code: 'SUCCESS_PERCENT_HIGH_THRESHOLD', value: 'Success rate target (high), %', paramType: 'I' },
  { code: 'MAX_INVOICE_AMOUNT', value: 'Maximum invoice amount (minor units)', paramType: 'I' },
  { code: 'CURRENCY_SYMBOL', value: 'Currency symbol', paramType: 'C' },
  { code: 'AUTO_CONFIRM', value: 'Auto-confirm paid invoices', paramType: 'B' },
  { code: 'PROVIDER_CODE', value: 'Preferred provider code', paramType: 'S' },
] as const satisfies readonly Ref[];

/**
 * Bank names (header 205). Withdrawal bankCode holds the reference row id. value is the name as the
 * bank's customers read it; Russian banks also carry their Latin name so that either script finds them.
 * The SBP list of a form shows only the banks of its payment method's country.
 */
export const BANKS = [
  { code: 'KAPITALBANK', value: 'Kapitalbank', latin: null, country: 'UZ' },
  { code: 'NBU', value: 'National Bank of Uzbekistan', latin: null, country: 'UZ' },
  { code: 'SQB', value: 'Uzsanoatqurilishbank (SQB)', latin: null, country: 'UZ' },
  { code: 'HAMKORBANK', value: 'Hamkorbank', latin: null, country: 'UZ' },
  { code: 'IPAK_YULI', value: 'Ipak Yuli Bank', latin: null, country: 'UZ' },
  { code: 'AGROBANK', value: 'Agrobank', latin: null, country: 'UZ' },
  { code: 'SBERBANK', value: 'Сбербанк', latin: 'Sberbank', country: 'RU' },
  { code: 'TBANK', value: 'Т-Банк (Тинькофф)', latin: 'T-Bank (Tinkoff)', country: 'RU' },
  { code: 'VTB', value: 'ВТБ', latin: 'VTB Bank', country: 'RU' },
  { code: 'ALFABANK', value: 'Альфа-Банк', latin: 'Alfa-Bank', country: 'RU' },
  { code: 'GAZPROMBANK', value: 'Газпромбанк', latin: 'Gazprombank', country: 'RU' },
  { code: 'RAIFFEISEN', value: 'Райффайзенбанк', latin: 'Raiffeisenbank', country: 'RU' },
  { code: 'SOVCOMBANK', value: 'Совкомбанк', latin: 'Sovcombank', country: 'RU' },
  { code: 'ROSSELKHOZBANK', value: 'Россельхозбанк', latin: 'Rosselkhozbank', country: 'RU' },
  { code: 'PSB', value: 'Промсвязьбанк (ПСБ)', latin: 'Promsvyazbank (PSB)', country: 'RU' },
  { code: 'MKB', value: 'Московский кредитный банк (МКБ)', latin: 'Credit Bank of Moscow (MKB)', country: 'RU' },
  { code: 'POCHTABANK', value: 'Почта Банк', latin: 'Pochta Bank', country: 'RU' },
  { code: 'ROSBANK', value: 'Росбанк', latin: 'Rosbank', country: 'RU' },
  { code: 'OZONBANK', value: 'Озон Банк', latin: 'Ozon Bank', country: 'RU' },
  { code: 'YANDEXBANK', value: 'Яндекс Банк', latin: 'Yandex Bank', country: 'RU' },
  { code: 'MTSBANK', value: 'МТС Банк', latin: 'MTS Bank', country: 'RU' },
  { code: 'DOMRF', value: 'Банк ДОМ.РФ', latin: 'DOM.RF Bank', country: 'RU' },
  { code: 'URALSIB', value: 'Уралсиб', latin: 'Uralsib', country: 'RU' },
  { code: 'AKBARS', value: 'Ак Барс Банк', latin: 'Ak Bars Bank', country: 'RU' },
  { code: 'OTPBANK', value: 'ОТП Банк', latin: 'OTP Bank', country: 'RU' },
] as const;

/** Every reference header of contracts' REFERENCE_HEADERS. */
const REFERENCES: Record<number, readonly Ref[]> = {
  99: [
    { code: 'M', value: 'Male' },
    { code: 'F', value: 'Female' },
    { code: 'U', value: 'Not specified' },
  ],
  100: [
    { code: 'INVOICE_CREATED', value: 'Invoice created' },
    { code: 'STATUS_CHANGED', value: 'Status changed' },
    { code: 'AMOUNT_CHANGED', value: 'Amount changed' },
    { code: 'PAYOUT_RETRY', value: 'Payout retried' },
    { code: 'CALLBACK_MANUAL', value: 'Manual callback sent' },
    { code: 'TICKET_CREATED', value: 'Support ticket opened' },
    { code: 'TICKET_DECIDED', value: 'Support ticket decided' },
    { code: 'SETTLEMENT_CREATED', value: 'Settlement recorded' },
  ],
  101: CURRENCIES.map((c) => ({ code: c.code, value: c.name })),
  102: [
    { code: 'I', value: 'Integer' },
    { code: 'S', value: 'String' },
    { code: 'C', value: 'Char' },
    { code: 'B', value: 'Boolean' },
    { code: 'N', value: 'Numeric' },
  ],
  103: [
    { code: 'CARD', value: 'Card number' },
    { code: 'PHONE', value: 'Phone number' },
  ],
  104: [
    { code: 'EMAIL', value: 'Email' },
    { code: 'PHONE', value: 'Phone' },
    { code: 'TELEGRAM', value: 'Telegram' },
    { code: 'WHATSAPP', value: 'WhatsApp' },
  ],
  105: TERMINAL_ATTRIBUTE_TYPES,
  106: [
    { code: 'PERCENT', value: 'Percentage of amount' },
    { code: 'FIXED', value: 'Fixed amount' },
    { code: 'PERCENT_PLUS_FIXED', value: 'Percentage plus fixed amount' },
  ],
  107: [
    { code: 'PAYMENT_NOT_CREDITED', value: 'Payment not credited' },
    { code: 'WRONG_AMOUNT', value: 'Paid a different amount' },
    { code: 'DUPLICATE_PAYMENT', value: 'Duplicate payment' },
    { code: 'PAYOUT_NOT_RECEIVED', value: 'Payout not received' },
    { code: 'OTHER', value: 'Other' },
  ],
  108: [
    { code: 'LOW_SUCCESS_RATE', value: 'Terminal success rate below threshold' },
    { code: 'TICKET_CREATED', value: 'New support ticket' },
    { code: 'CALLBACK_FAILED', value: 'Callback delivery failing' },
    { code: 'ACCOUNT_LIMIT_REACHED', value: 'Provider account limit reached' },
  ],
  110: [
    { code: 'P2P_CARD', value: 'Card to card' },
    { code: 'P2P_PHONE', value: 'Transfer by phone number' },
    { code: 'SBP', value: 'Faster Payments System (SBP)' },
    { code: 'CROSS_BORDER', value: 'Cross-border transfer' },
  ],
  111: [
    { code: 'H2H', value: 'Host-to-host API' },
    { code: 'HOSTED_FORM', value: 'Hosted payment form' },
    { code: 'MANUAL', value: 'Manual processing' },
  ],
  112: [
    { code: 'NEW', value: 'New clients' },
    { code: 'REGULAR', value: 'Regular clients' },
    { code: 'TRUSTED', value: 'Trusted clients' },
    { code: 'VIP', value: 'VIP clients' },
  ],
  113: [
    { code: 'ACTIVE', value: 'Active' },
    { code: 'PAUSED', value: 'Paused' },
    { code: 'ARCHIVED', value: 'Archived' },
  ],
  114: [
    { code: 'STANDARD', value: 'Standard' },
    { code: 'FAILOVER', value: 'Failover' },
    { code: 'LOAD_BALANCED', value: 'Load balanced' },
  ],
  200: [
    { code: 'DEPOSIT', value: 'Deposit' },
    { code: 'WITHDRAWAL', value: 'Withdrawal' },
  ],
  201: INVOICE_STATUSES.map((s) => ({ code: s.code, value: s.value })),
  /** Provider transaction statuses. */
  202: [
    { code: 'PENDING', value: 'Pending' },
    { code: 'SUCCESS', value: 'Success' },
    { code: 'FAILED', value: 'Failed' },
    { code: 'CANCELED', value: 'Canceled' },
  ],
  203: [
    { code: 'DEPOSIT', value: 'Deposit' },
    { code: 'WITHDRAWAL', value: 'Withdrawal' },
  ],
  204: TICKET_STATUSES.map((s) => ({ code: s.code, value: s.value })),
  205: BANKS.map((b) => ({ code: b.code, value: b.value, countryCode: b.country, latinValue: b.latin })),
};

export const REFERENCE_HEADER_IDS = Object.keys(REFERENCES).map(Number);

export const PROVIDERS = [
  { code: 'SANDBOX', name: 'Sandbox (test processing)', isSandbox: true },
  { code: 'SILKPAY', name: 'SilkPay Processing', isSandbox: false },
  { code: 'TURONPAY', name: 'TuronPay', isSandbox: false },
  { code: 'VOLGAPAY', name: 'VolgaPay', isSandbox: false },
  { code: 'NEVAPAY', name: 'Neva Payments', isSandbox: false },
] as const;

const UZS_LIMITS = { minAmount: 1_000_00, maxAmount: 50_000_000_00 };
export const PAYMENT_METHODS = [
  {
    code: 'HUMOUZS',
    name: 'Humo',
    requisiteType: 'card',
    isBankTransfer: false,
    currency: 'UZS',
    countryCode: 'UZ',
    ...UZS_LIMITS,
  },
  {
    code: 'CARDUZS',
    name: 'Uzs',
    requisiteType: 'card',
    isBankTransfer: false,
    currency: 'UZS',
    countryCode: 'UZ',
    ...UZS_LIMITS,
  },
  {
    code: 'SBERRUB',
    name: 'Sberbank',
    requisiteType: 'card',
    isBankTransfer: false,
    currency: 'RUB',
    countryCode: 'RU',
    minAmount: 100_00,
    maxAmount: 300_000_00,
  },
  {
    code: 'TCSBRUB',
    name: 'Tinkoff',
    requisiteType: 'card',
    isBankTransfer: false,
    currency: 'RUB',
    countryCode: 'RU',
    minAmount: 100_00,
    maxAmount: 300_000_00,
  },
  {
    code: 'SBPRUB',
    name: 'Sbp',
    requisiteType: 'phone',
    isBankTransfer: true,
    currency: 'RUB',
    countryCode: 'RU',
    minAmount: 100_00,
    maxAmount: 150_000_00,
  },
  {
    code: 'SBERRUB_X',
    name: 'SberbankXCountry',
    requisiteType: 'phone',
    isBankTransfer: false,
    currency: 'RUB',
    countryCode: 'RU',
    minAmount: 1_000_00,
    maxAmount: 100_000_00,
  },
  {
    code: 'TSCBRUB_X',
    name: 'TinkoffXCountry',
    requisiteType: 'phone',
    isBankTransfer: false,
    currency: 'RUB',
    countryCode: 'RU',
    minAmount: 1_000_00,
    maxAmount: 100_000_00,
  },
] as const;

export type ReferenceData = {
  currencyIds: Map<string, number>;
  /** `${headerId}:${code}` → references.id */
  referenceIds: Map<string, number>;
  providerIds: Map<string, number>;
  methods: Map<
    string,
    {
      id: number;
      code: string;
      name: string;
      requisiteType: string;
      isBankTransfer: boolean;
      currencyId: number;
      currency: string;
      minAmount: number;
      maxAmount: number;
    }
  >;
};

/**
 * Currencies, reference lists, providers and payment methods. Idempotent (existing rows are
 * kept), so it is safe on a database that already has some of them.
 */
export async function ensureReferenceData(db: DbOrTx): Promise<ReferenceData> {
  await db
    .insert(currencies)
    .values(CURRENCIES.map((c) => ({ ...c })))
    .onConflictDoNothing();
  const currencyRows = await db.select().from(currencies);
  const currencyIds = new Map(currencyRows.map((c) => [c.code, c.id]));

  const refRows = Object.entries(REFERENCES).flatMap(([header, rows]) =>
    rows.map((r, i) => ({
      headerId: Number(header),
      code: r.code,
      value: r.value,
      paramType: r.paramType ?? null,
      countryCode: r.countryCode ?? null,
      latinValue: r.latinValue ?? null,
      sort: (i + 1) * 10,
    })),
  );
  await db.insert(references).values(refRows).onConflictDoNothing();
  const storedRefs = await db
    .select({ id: references.id, headerId: references.headerId, code: references.code })
    .from(references);
  const referenceIds = new Map(storedRefs.map((r) => [`${r.headerId}:${r.code}`, r.id]));

  await db
    .insert(providers)
    .values(PROVIDERS.map((p) => ({ ...p })))
    .onConflictDoNothing();
  const providerRows = await db.select().from(providers);
  const providerIds = new Map(providerRows.map((p) => [p.code, p.id]));

  await db
    .insert(paymentMethods)
    .values(
      PAYMENT_METHODS.map(({ currency, ...m }) => {
        const currencyId = currencyIds.get(currency);
        if (currencyId === undefined) throw new Error(`currency ${currency} missing`);
        return { ...m, currencyId };
      }),
    )
    .onConflictDoNothing();
  const methodRows = await db.select().from(paymentMethods);
  const codeById = new Map(currencyRows.map((c) => [c.id, c.code]));
  const methods = new Map(methodRows.map((m) => [m.code, { ...m, currency: codeById.get(m.currencyId) ?? '' }]));
  return { currencyIds, referenceIds, providerIds, methods };
}
