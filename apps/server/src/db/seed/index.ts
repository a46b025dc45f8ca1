import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { inArray, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { luhnValid, parseFeePercent, type PresetRoleCode } from '@paydesk/contracts';
import type { AppContext } from '../../lib/context';
import type { DataVault } from '../../lib/data-vault';
import { hashPassword } from '../../lib/password';
import type { Tx } from '../create-db';
import {
  accountCredentials,
  accountLimits,
  callbackAttempts,
  callbacks,
  customers,
  eventLog,
  incomingPayments,
  invoiceErrors,
  invoices,
  invoiceStatusEvents,
  ledgerEntries,
  merchants,
  providerAccounts,
  providerTransactions,
  roles,
  supportTickets,
  terminalAttributes,
  terminalMethods,
  terminalPoolMembers,
  terminalPools,
  terminals,
  users,
} from '../schema';
import {
  cardFor,
  generateHistory,
  type HistoryRows,
  type SeedAccount,
  type SeedCustomer,
  type SeedTerminal,
} from './history';
import { rebuildLedgerBalances } from '../../modules/ledger/reconcile';
import { DEMO_RECEIVER_PATH } from '../../modules/callbacks/demo-receiver';
import { seedCallbackOutage } from './callback-outage';
import { seedExtraInvoices } from './extra-invoices';
import { personName } from './names';
import { createRng, type Rng } from './prng';
import { BANKS, ensureReferenceData, PAYMENT_METHODS, PROVIDERS, type ReferenceData } from './reference-data';

export type DemoMerchantFile = {
  merchantId: string;
  privateKeyPem: string;
  webhookSecret: string;
  terminals: {
    id: string;
    name: string;
    flowType: 'DEPOSIT' | 'WITHDRAWAL';
    currency: 'UZS' | 'RUB';
    isTest: boolean;
  }[];
};

const DEMO_PASSWORD = 'demo-2026';
const DAY = 24 * 3600_000;
/** Callbacks go to a closed port, so the outbox keeps retrying visibly. */
const CHUNK = 500;
const SEED_LOCK = 7_240_311;

async function insertChunked<T extends PgTable>(tx: Tx, table: T, rows: T['$inferInsert'][]) {
  for (let i = 0; i < rows.length; i += CHUNK) await tx.insert(table).values(rows.slice(i, i + CHUNK));
}

/** Seeds the demo data into an empty database (never in production). Returns null when not empty. */
export async function seedDemoIfEmpty(
  ctx: AppContext,
  opts: { writeFile?: string | false } = {},
): Promise<DemoMerchantFile | null> {
  if (await hasMerchants(ctx.db)) return null;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const result = await ctx.db.transaction(async (tx) => {
    // two processes starting on one empty database: only one seeds
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${SEED_LOCK})`);
    if (await hasMerchants(tx)) return null;
    // demo callbacks go to the built-in receiver of this very server (modules/callbacks/demo-receiver.ts)
    const base = ctx.config.publicUrl ?? `http://127.0.0.1:${ctx.config.port}`;
    return seedAll(
      tx,
      ctx.vault,
      ctx.now(),
      passwordHash,
      `${base.replace(/\/$/, '')}${DEMO_RECEIVER_PATH}`,
      ctx.config.seedExtraInvoices,
    );
  });
  if (!result) return null;
  const target = opts.writeFile === undefined ? path.join(ctx.config.dataDir, 'demo-merchant.json') : opts.writeFile;
  if (target) {
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, `${JSON.stringify(result, null, 2)}\n`, { mode: 0o600 });
    await fs.chmod(target, 0o600);
  }
  return result;
}

async function hasMerchants(db: Pick<Tx, 'execute'>): Promise<boolean> {
  const res = await db.execute(sql`SELECT EXISTS (SELECT 1 FROM ${merchants}) AS "exists"`);
  return Boolean((res.rows[0] as { exists?: boolean } | undefined)?.exists);
}

function merchantKeys() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519', {
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKey, privateKey, webhookSecret: `whsec_${randomBytes(32).toString('base64')}` };
}

type TerminalSpec = {
  name: string;
  flowType: 'DEPOSIT' | 'WITHDRAWAL';
  currency: 'UZS' | 'RUB';
  isTest: boolean;
  fee: string;
  weight: number;
  extra?: Record<string, string>;
};

const DEMO_TERMINALS: TerminalSpec[] = [
  {
    name: 'UZS Deposit',
    flowType: 'DEPOSIT',
    currency: 'UZS',
    isTest: false,
    fee: '2.5',
    weight: 34,
    extra: { MAX_INVOICE_AMOUNT: '2000000000', AUTO_CONFIRM: 'false' },
  },
  { name: 'UZS Withdrawal', flowType: 'WITHDRAWAL', currency: 'UZS', isTest: false, fee: '1.5', weight: 16 },
  {
    name: 'RUB Deposit',
    flowType: 'DEPOSIT',
    currency: 'RUB',
    isTest: false,
    fee: '3',
    weight: 26,
    extra: { CURRENCY_SYMBOL: '₽', MAX_INVOICE_AMOUNT: '15000000' },
  },
  {
    name: 'RUB Withdrawal',
    flowType: 'WITHDRAWAL',
    currency: 'RUB',
    isTest: false,
    fee: '2',
    weight: 12,
    extra: { CURRENCY_SYMBOL: '₽' },
  },
  {
    name: 'Test UZS Deposit',
    flowType: 'DEPOSIT',
    currency: 'UZS',
    isTest: true,
    fee: '2.5',
    weight: 8,
    extra: { AUTO_CONFIRM: 'true', PROVIDER_CODE: 'SANDBOX' },
  },
  {
    name: 'Test UZS Withdrawal',
    flowType: 'WITHDRAWAL',
    currency: 'UZS',
    isTest: true,
    fee: '1.5',
    weight: 4,
    extra: { PROVIDER_CODE: 'SANDBOX' },
  },
];
const SECOND_TERMINALS: TerminalSpec[] = [
  { name: 'Shop UZS Deposit', flowType: 'DEPOSIT', currency: 'UZS', isTest: false, fee: '2.8', weight: 70 },
  {
    name: 'Shop RUB Withdrawal',
    flowType: 'WITHDRAWAL',
    currency: 'RUB',
    isTest: false,
    fee: '2.2',
    weight: 30,
    extra: { CURRENCY_SYMBOL: '₽' },
  },
];

/** Provider accounts per method: the sandbox one serves test terminals, the others production. */
const ACCOUNT_PLAN: Record<
  string,
  { provider: string; bank: string; priority: number; unique: boolean; enabled?: boolean }[]
> = {
  HUMOUZS: [
    { provider: 'SANDBOX', bank: 'Kapitalbank', priority: 10, unique: false },
    { provider: 'SILKPAY', bank: 'Kapitalbank', priority: 100, unique: true },
    { provider: 'TURONPAY', bank: 'Hamkorbank', priority: 60, unique: false },
    { provider: 'TURONPAY', bank: 'Agrobank', priority: 20, unique: false, enabled: false },
  ],
  CARDUZS: [
    { provider: 'SANDBOX', bank: 'National Bank of Uzbekistan', priority: 10, unique: false },
    { provider: 'SILKPAY', bank: 'Ipak Yuli Bank', priority: 80, unique: true },
    { provider: 'TURONPAY', bank: 'Uzsanoatqurilishbank (SQB)', priority: 50, unique: false },
  ],
  SBERRUB: [
    { provider: 'SANDBOX', bank: 'Sberbank', priority: 10, unique: false },
    { provider: 'VOLGAPAY', bank: 'Sberbank', priority: 100, unique: true },
    { provider: 'NEVAPAY', bank: 'Sberbank', priority: 70, unique: true },
  ],
  TCSBRUB: [
    { provider: 'SANDBOX', bank: 'T-Bank (Tinkoff)', priority: 10, unique: false },
    { provider: 'NEVAPAY', bank: 'T-Bank (Tinkoff)', priority: 90, unique: true },
    { provider: 'VOLGAPAY', bank: 'T-Bank (Tinkoff)', priority: 40, unique: false },
  ],
  SBPRUB: [
    { provider: 'SANDBOX', bank: 'Alfa-Bank', priority: 10, unique: false },
    { provider: 'VOLGAPAY', bank: 'VTB Bank', priority: 90, unique: true },
    { provider: 'NEVAPAY', bank: 'Raiffeisenbank', priority: 60, unique: false },
    { provider: 'NEVAPAY', bank: 'Gazprombank', priority: 30, unique: false, enabled: false },
  ],
  SBERRUB_X: [
    { provider: 'SANDBOX', bank: 'Sberbank', priority: 10, unique: false },
    { provider: 'VOLGAPAY', bank: 'Sberbank', priority: 80, unique: true },
  ],
  TSCBRUB_X: [
    { provider: 'SANDBOX', bank: 'T-Bank (Tinkoff)', priority: 10, unique: false },
    { provider: 'NEVAPAY', bank: 'T-Bank (Tinkoff)', priority: 80, unique: false },
  ],
};

async function seedAll(
  tx: Tx,
  vault: DataVault,
  nowDate: Date,
  passwordHash: string,
  callbackUrl: string,
  extraInvoices = 0,
): Promise<DemoMerchantFile> {
  const now = nowDate.getTime();
  const rng = createRng(20_260_101);
  const ref = await ensureReferenceData(tx);

  // roles and merchants
  // the preset roles exist once migrations ran (runMigrations keeps them in step with contracts)
  const roleRows = await tx.select({ id: roles.id, code: roles.code }).from(roles);
  const roleId = (code: PresetRoleCode) => roleRows.find((r) => r.code === code)!.id;

  const demoKeys = merchantKeys();
  const secondKeys = merchantKeys();
  const demoId = randomUUID();
  const secondId = randomUUID();
  await tx.insert(merchants).values([
    {
      id: demoId,
      name: 'Demo Merchant',
      clientPublicKey: demoKeys.publicKey,
      webhookSecret: demoKeys.webhookSecret,
      createdAt: new Date(now - 120 * DAY),
    },
    {
      id: secondId,
      name: 'Second Shop',
      clientPublicKey: secondKeys.publicKey,
      webhookSecret: secondKeys.webhookSecret,
      createdAt: new Date(now - 95 * DAY),
    },
  ]);

  const people: {
    username: string;
    firstName: string;
    lastName: string;
    merchantId: string | null;
    role: PresetRoleCode;
    days: number;
  }[] = [
    { username: 'admin', firstName: 'Alice', lastName: 'Morgan', merchantId: null, role: 'platform_admin', days: 180 },
    {
      username: 'ops',
      firstName: 'Omar',
      lastName: 'Rashidov',
      merchantId: null,
      role: 'platform_operator',
      days: 150,
    },
    {
      username: 'owner',
      firstName: 'Timur',
      lastName: 'Nazarov',
      merchantId: demoId,
      role: 'merchant_owner',
      days: 120,
    },
    {
      username: 'finance',
      firstName: 'Gulnora',
      lastName: 'Aliyeva',
      merchantId: demoId,
      role: 'merchant_finance',
      days: 115,
    },
    {
      username: 'support',
      firstName: 'Dilnoza',
      lastName: 'Karimova',
      merchantId: demoId,
      role: 'merchant_support',
      days: 110,
    },
    {
      username: 'viewer',
      firstName: 'Pavel',
      lastName: 'Orlov',
      merchantId: demoId,
      role: 'merchant_viewer',
      days: 60,
    },
    {
      username: 'shop2',
      firstName: 'Elena',
      lastName: 'Sokolova',
      merchantId: secondId,
      role: 'merchant_owner',
      days: 95,
    },
  ];
  await tx
    .insert(users)
    .values(
      people.map((p) => ({
        username: p.username,
        passwordHash,
        firstName: p.firstName,
        lastName: p.lastName,
        merchantId: p.merchantId,
        roleId: roleId(p.role),
        createdAt: new Date(now - p.days * DAY),
      })),
    )
    .onConflictDoNothing();
  const userRows = await tx
    .select({ id: users.id, username: users.username, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(inArray(users.username, ['admin', 'support']));
  const admin = userRows.find((u) => u.username === 'admin')!;
  const support = userRows.find((u) => u.username === 'support')!;

  // terminals
  const demoTerminals = await createTerminals(tx, ref, demoId, DEMO_TERMINALS, now - 110 * DAY, callbackUrl);
  const secondTerminals = await createTerminals(tx, ref, secondId, SECOND_TERMINALS, now - 90 * DAY, callbackUrl);

  const pools = await tx
    .insert(terminalPools)
    .values([
      { merchantId: demoId, name: 'UZS Main Pool', statusCode: 'ACTIVE', typeCode: 'STANDARD' },
      { merchantId: demoId, name: 'RUB Failover Pool', statusCode: 'ACTIVE', typeCode: 'FAILOVER' },
    ])
    .returning({ id: terminalPools.id });
  await tx
    .insert(terminalPoolMembers)
    .values([
      ...demoTerminals
        .filter((t) => t.currency === 'UZS' && !t.isTest)
        .map((t) => ({ poolId: pools[0]!.id, terminalId: t.id })),
      ...demoTerminals.filter((t) => t.currency === 'RUB').map((t) => ({ poolId: pools[1]!.id, terminalId: t.id })),
    ]);

  const accounts = await createAccounts(tx, vault, ref, rng, now);

  const demoCustomers = makeCustomers(rng, demoId, 90, 60, 'C');
  const secondCustomers = makeCustomers(rng, secondId, 15, 10, 'SS-');
  await insertChunked(
    tx,
    customers,
    [...demoCustomers, ...secondCustomers].map(({ kind: _kind, ...c }) => c),
  );

  const staff = {
    operatorId: admin.id,
    operatorName: `${admin.firstName} ${admin.lastName}`,
    supportId: support.id,
    supportName: `${support.firstName} ${support.lastName}`,
  };
  const banks = BANKS.map((b) => ({ id: ref.referenceIds.get(`205:${b.code}`)!, value: b.value, country: b.country }));
  const demoHistory = generateHistory({
    rng,
    now: nowDate,
    merchant: { id: demoId, domain: 'shop.demo-merchant.example' },
    terminals: demoTerminals,
    accounts,
    customers: demoCustomers,
    staff,
    banks,
    count: 400,
    firstOrderNo: 100_001,
    coverAllStatuses: true,
    tickets: true,
  });
  const secondHistory = generateHistory({
    rng,
    now: nowDate,
    merchant: { id: secondId, domain: 'second-shop.example' },
    terminals: secondTerminals,
    accounts,
    customers: secondCustomers,
    staff: { ...staff, supportId: admin.id, supportName: staff.operatorName },
    banks,
    count: 40,
    firstOrderNo: 5_001,
    coverAllStatuses: false,
    tickets: false,
  });
  await insertHistory(tx, vault, demoHistory, secondHistory);
  // a day when the demo merchant's endpoint was down: its callbacks of that day gave up after 72 h (FAILED)
  await seedCallbackOutage(tx, demoId, now);
  // SEED_EXTRA_INVOICES: Second Shop's list past the 10,000-row cap (no other spec counts its invoices)
  await seedExtraInvoices(tx, secondId, extraInvoices, now);

  return {
    merchantId: demoId,
    privateKeyPem: demoKeys.privateKey,
    webhookSecret: demoKeys.webhookSecret,
    terminals: demoTerminals.map((t) => ({
      id: t.id,
      name: t.name,
      flowType: t.flowType,
      currency: t.currency,
      isTest: t.isTest,
    })),
  };
}

async function createTerminals(
  tx: Tx,
  ref: ReferenceData,
  merchantId: string,
  specs: TerminalSpec[],
  since: number,
  callbackUrl: string,
): Promise<SeedTerminal[]> {
  const attrId = (code: string) => ref.referenceIds.get(`105:${code}`)!;
  const out: SeedTerminal[] = specs.map((s) => {
    const methods = [...ref.methods.values()].filter((m) => m.currency === s.currency);
    return {
      id: randomUUID(),
      name: s.name,
      flowType: s.flowType,
      currency: s.currency,
      currencyId: ref.currencyIds.get(s.currency)!,
      isTest: s.isTest,
      feeBps: parseFeePercent(s.fee)!,
      callbackUrl,
      methods: methods.map((m) => ({
        id: m.id,
        code: m.code,
        name: m.name,
        requisiteType: m.requisiteType,
        isBankTransfer: m.isBankTransfer,
        minAmount: m.minAmount,
        maxAmount: m.maxAmount,
      })),
      weight: s.weight,
    };
  });
  await tx.insert(terminals).values(
    out.map((t, i) => ({
      id: t.id,
      merchantId,
      name: t.name,
      flowType: t.flowType,
      currencyId: t.currencyId,
      isTest: t.isTest,
      enabled: true,
      callbackUrl: t.callbackUrl,
      feeBps: t.feeBps,
      createdAt: new Date(since + i * 3600_000),
    })),
  );
  await tx
    .insert(terminalMethods)
    .values(out.flatMap((t) => t.methods.map((m) => ({ terminalId: t.id, paymentMethodId: m.id }))));
  await tx.insert(terminalAttributes).values(
    out.flatMap((t, i) => {
      const attrs: Record<string, string> = {
        SUCCESS_PERCENT_LOW_THRESHOLD: '60',
        SUCCESS_PERCENT_HIGH_THRESHOLD: '85',
        ...specs[i]!.extra,
      };
      return Object.entries(attrs).map(([code, value]) => ({ terminalId: t.id, attrTypeId: attrId(code), value }));
    }),
  );
  return out;
}

async function createAccounts(
  tx: Tx,
  vault: DataVault,
  ref: ReferenceData,
  rng: Rng,
  now: number,
): Promise<SeedAccount[]> {
  const plan = PAYMENT_METHODS.flatMap((m) =>
    (ACCOUNT_PLAN[m.code] ?? []).map((p) => {
      const method = ref.methods.get(m.code)!;
      const owner = personName(rng, m.currency === 'UZS' ? 'UZ' : 'RU');
      const credential = m.requisiteType === 'card' ? cardFor(rng, m.code) : `+79${rng.digits(9)}`;
      return { ...p, method, owner: `${owner.firstName} ${owner.lastName}`, credential };
    }),
  );
  const rows = await tx
    .insert(providerAccounts)
    .values(
      plan.map((p, i) => ({
        providerId: ref.providerIds.get(p.provider)!,
        paymentMethodId: p.method.id,
        bankName: p.bank,
        ownerName: p.owner,
        enabled: p.enabled ?? true,
        createdAt: new Date(now - (100 - i) * DAY),
      })),
    )
    .returning({ id: providerAccounts.id });
  await tx.insert(accountCredentials).values(
    plan.map((p, i) => {
      const credentialType = p.method.requisiteType === 'card' ? 'CARD' : 'PHONE';
      const sealed = vault.seal('account.credential', credentialType, p.credential);
      return {
        accountId: rows[i]!.id,
        credentialType,
        paramType: 'S',
        value: sealed.value,
        valueHash: sealed.hash,
        valueMasked: sealed.masked,
      };
    }),
  );
  await tx.insert(accountLimits).values(
    plan.map((p, i) => ({
      accountId: rows[i]!.id,
      limit: BigInt(
        p.provider === 'SANDBOX'
          ? 1_000_000_000_000
          : rng.pick([500_000_000_000, 1_000_000_000_000, 2_000_000_000_000]),
      ),
      priority: p.priority,
      checkUniqueAmount: p.unique,
    })),
  );
  const providerName = new Map<string, string>(PROVIDERS.map((p) => [p.code, p.name]));
  return plan.map((p, i) => ({
    id: rows[i]!.id,
    methodId: p.method.id,
    providerCode: p.provider,
    providerId: ref.providerIds.get(p.provider)!,
    providerName: providerName.get(p.provider) ?? p.provider,
    isSandbox: p.provider === 'SANDBOX',
    enabled: p.enabled ?? true,
    priority: p.priority,
    checkUniqueAmount: p.unique,
    credential: p.credential,
    bankName: p.bank,
  }));
}

function makeCustomers(
  rng: Rng,
  merchantId: string,
  uz: number,
  ru: number,
  prefix: string,
): (SeedCustomer & { merchantId: string })[] {
  const out: (SeedCustomer & { merchantId: string })[] = [];
  const used = new Set<string>();
  for (let i = 0; i < uz + ru; i++) {
    const kind = i < uz ? 'UZ' : 'RU';
    let externalId = `${prefix}${rng.digits(6)}`;
    while (used.has(externalId)) externalId = `${prefix}${rng.digits(6)}`;
    used.add(externalId);
    out.push({ id: randomUUID(), merchantId, externalId, kind, ...personName(rng, kind) });
  }
  return out;
}

async function insertHistory(tx: Tx, vault: DataVault, ...parts: HistoryRows[]) {
  // requisites are stored encrypted (lib/data-vault.ts): a 13–19 digit number passing Luhn is a card, else a phone
  const sealed = (value: string) => {
    const s = vault.seal('invoice.credential', /^\d{13,19}$/.test(value) && luhnValid(value) ? 'CARD' : 'PHONE', value);
    return { credentialValue: s.value, credentialHash: s.hash, credentialMasked: s.masked };
  };
  await insertChunked(
    tx,
    invoices,
    parts.flatMap((p) => p.invoices).map((r) => (r.credentialValue ? { ...r, ...sealed(r.credentialValue) } : r)),
  );
  await insertChunked(
    tx,
    invoiceStatusEvents,
    parts.flatMap((p) => p.statusEvents),
  );
  await insertChunked(
    tx,
    invoiceErrors,
    parts.flatMap((p) => p.errors),
  );
  await insertChunked(
    tx,
    eventLog,
    parts.flatMap((p) => p.eventLog),
  );
  await insertChunked(
    tx,
    providerTransactions,
    parts.flatMap((p) => p.transactions),
  );
  // incoming money is booked in its account's currency and book; what matched no invoice is on the books in suspense
  // from the moment it arrived, as the provider API puts it (engine/suspense.ts)
  const booking = new Map(
    (
      await tx.execute<{ id: number; currency_id: number; is_sandbox: boolean }>(sql`
        SELECT a.id, m.currency_id, p.is_sandbox FROM provider_accounts a
        JOIN payment_methods m ON m.id = a.payment_method_id JOIN providers p ON p.id = a.provider_id`)
    ).rows.map((r) => [Number(r.id), { currencyId: Number(r.currency_id), book: r.is_sandbox ? 'test' : 'live' }]),
  );
  await insertChunked(
    tx,
    incomingPayments,
    parts.flatMap((p) =>
      p.incoming.map((r) => ({
        ...r,
        ...booking.get(r.accountId)!,
        status: r.matchedInvoiceId ? 'MATCHED' : 'UNMATCHED',
        inSuspense: !r.matchedInvoiceId,
        resolvedAt: r.matchedInvoiceId ? r.createdAt : null,
      })),
    ),
  );
  await tx.execute(sql`
    INSERT INTO ledger_entries (tx_id, account, provider_account_id, incoming_id, currency_id, amount, kind, book, created_at)
    SELECT x.tx_id, leg.account, CASE WHEN leg.account = 'provider_account' THEN x.account_id END, x.id,
      x.currency_id, leg.amount, 'incoming_unmatched', x.book, x.created_at
    FROM (SELECT gen_random_uuid() AS tx_id, * FROM incoming_payments WHERE in_suspense) x
    CROSS JOIN LATERAL (VALUES ('provider_account', x.amount), ('suspense', -x.amount)) AS leg(account, amount)`);
  await insertChunked(
    tx,
    callbacks,
    parts.flatMap((p) => p.callbacks),
  );
  await insertChunked(
    tx,
    callbackAttempts,
    parts.flatMap((p) => p.attempts),
  );
  await insertChunked(
    tx,
    supportTickets,
    parts.flatMap((p) => p.tickets),
  );
  await insertChunked(
    tx,
    ledgerEntries,
    parts.flatMap((p) => p.ledger),
  );
  await rebuildLedgerBalances(tx);
}
