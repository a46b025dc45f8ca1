import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import {
  currencies,
  customers,
  invoices,
  merchants,
  paymentMethods,
  providerAccounts,
  providers,
  supportTickets,
  terminals,
} from '../../db/schema';
import type { AppContext } from '../../lib/context';

/**
 * Invoices with known dates, amounts and statuses on a terminal of their own, so that every
 * filter has an exact expected answer whatever the demo seed holds.
 */
export type FixtureInvoice = {
  id: string;
  merchantInvoiceId: string;
  providerInvoiceId: string | null;
  flowType: 'DEPOSIT' | 'WITHDRAWAL';
  status: 'NEW' | 'IN_PROGRESS' | 'PAYED' | 'DONE' | 'DECLINED' | 'CANCELED';
  amount: number;
  createdAt: Date;
  statusDate: Date;
  isTest: boolean;
  customerExternalId: string | null;
  credentialValue: string | null;
};

const STATUSES = ['NEW', 'IN_PROGRESS', 'PAYED', 'DONE', 'DECLINED', 'CANCELED'] as const;
const day = (d: number, h = 12, m = 0, s = 0) => new Date(Date.UTC(2020, 0, d, h, m, s));

/** A card requisite as the engine stores it: encrypted, with its hash and masked form (lib/data-vault.ts). */
function sealedCard(ctx: AppContext, value: string) {
  const s = ctx.vault.seal('invoice.credential', 'CARD', value);
  return { credentialValue: s.value, credentialHash: s.hash, credentialMasked: s.masked };
}

export async function seedInvoiceFixtures(ctx: AppContext, merchantId: string) {
  const [rub] = await ctx.db.select().from(currencies).where(eq(currencies.code, 'RUB'));
  const [method] = await ctx.db.select().from(paymentMethods).limit(1);
  // deposits that got requisites were routed to a live RUB provider account (DONE needs one: engine/guards.ts)
  const [account] = await ctx.db
    .select({ id: providerAccounts.id })
    .from(providerAccounts)
    .innerJoin(paymentMethods, eq(paymentMethods.id, providerAccounts.paymentMethodId))
    .innerJoin(providers, eq(providers.id, providerAccounts.providerId))
    .where(and(eq(paymentMethods.currencyId, rub!.id), eq(providers.isSandbox, false)))
    .limit(1);
  const [terminal] = await ctx.db
    .insert(terminals)
    .values({ merchantId, name: 'Fixture terminal', flowType: 'DEPOSIT', currencyId: rub!.id, isTest: false })
    .returning();
  const [testTerminal] = await ctx.db
    .insert(terminals)
    .values({ merchantId, name: 'Fixture test terminal', flowType: 'DEPOSIT', currencyId: rub!.id, isTest: true })
    .returning();
  const [customer] = await ctx.db
    .insert(customers)
    .values({ merchantId, externalId: 'fx-customer-1', firstName: 'Ivan', lastName: 'Petrov' })
    .returning();

  const rows: FixtureInvoice[] = [];
  for (let n = 0; n < 23; n++) {
    // days 1..8 of January 2020; two boundary times on day 5
    const createdAt = n === 21 ? day(5, 0, 0, 0) : n === 22 ? day(5, 23, 59, 59) : day(1 + (n % 8), n % 24, n);
    rows.push({
      id: randomUUID(),
      merchantInvoiceId: n === 0 ? 'FX,"quoted"' : n === 1 ? '=SUM(A1:A9)' : `FX-${String(n).padStart(3, '0')}`,
      providerInvoiceId: n % 3 === 0 ? `PRV-FX-${n}` : null,
      flowType: n % 2 === 0 ? 'DEPOSIT' : 'WITHDRAWAL',
      status: STATUSES[n % STATUSES.length]!,
      amount: 10_000 + n * 12_345,
      createdAt,
      statusDate: new Date(createdAt.getTime() + (n % 4) * 12 * 3600_000),
      isTest: false,
      customerExternalId: n % 5 === 0 ? 'fx-customer-1' : null,
      credentialValue: n % 2 === 1 ? '8600123412341234' : null,
    });
  }
  await ctx.db.insert(invoices).values(
    rows.map((r) => ({
      id: r.id,
      merchantId,
      terminalId: terminal!.id,
      merchantInvoiceId: r.merchantInvoiceId,
      providerInvoiceId: r.providerInvoiceId,
      formId: randomBytes(16).toString('hex'),
      flowType: r.flowType,
      status: r.status,
      amount: r.amount,
      fee: 0,
      currencyId: rub!.id,
      customerId: r.customerExternalId ? customer!.id : null,
      paymentMethodId: method!.id,
      accountId: r.flowType === 'DEPOSIT' && r.status !== 'NEW' && r.status !== 'CANCELED' ? account!.id : null,
      ...(r.credentialValue ? sealedCard(ctx, r.credentialValue) : {}),
      isTest: r.isTest,
      expiresAt: new Date(r.createdAt.getTime() + 1800_000),
      statusDate: r.statusDate,
      createdAt: r.createdAt,
    })),
  );

  const testInvoice: FixtureInvoice = {
    ...rows[0]!,
    id: randomUUID(),
    merchantInvoiceId: 'FX-TEST-1',
    providerInvoiceId: null,
    status: 'NEW',
    isTest: true,
    createdAt: day(20),
    statusDate: day(20),
  };
  await ctx.db.insert(invoices).values({
    id: testInvoice.id,
    merchantId,
    terminalId: testTerminal!.id,
    merchantInvoiceId: testInvoice.merchantInvoiceId,
    formId: randomBytes(16).toString('hex'),
    flowType: 'DEPOSIT',
    status: 'NEW',
    amount: 50_000,
    currencyId: rub!.id,
    isTest: true,
    expiresAt: day(21),
    statusDate: testInvoice.statusDate,
    createdAt: testInvoice.createdAt,
  });

  // a ticket per decision, and one already solved, on a DECLINED deposit
  const declined = rows.find((r) => r.status === 'DECLINED' && r.flowType === 'DEPOSIT')!;
  const tickets = await ctx.db
    .insert(supportTickets)
    .values([
      { invoiceId: declined.id, merchantId, description: 'Paid but declined (A)', status: 'NEW', createDate: day(9) },
      {
        invoiceId: declined.id,
        merchantId,
        description: 'Paid but declined (B)',
        status: 'IN_WORK',
        createDate: day(9, 13),
      },
      { invoiceId: declined.id, merchantId, description: 'Old one', status: 'SOLVED', createDate: day(9, 14) },
    ])
    .returning();

  // another merchant with one invoice and one ticket
  const [other] = await ctx.db
    .insert(merchants)
    .values({ name: 'Fixture Other Merchant', webhookSecret: 'whsec_x' })
    .returning();
  const [otherTerminal] = await ctx.db
    .insert(terminals)
    .values({ merchantId: other!.id, name: 'Other terminal', flowType: 'DEPOSIT', currencyId: rub!.id })
    .returning();
  const [otherInvoice] = await ctx.db
    .insert(invoices)
    .values({
      merchantId: other!.id,
      terminalId: otherTerminal!.id,
      merchantInvoiceId: 'FX-OTHER-1',
      formId: randomBytes(16).toString('hex'),
      flowType: 'DEPOSIT',
      status: 'NEW',
      amount: 777,
      currencyId: rub!.id,
      isTest: true,
      expiresAt: day(21),
      createdAt: day(3),
      statusDate: day(3),
    })
    .returning();
  const [otherTicket] = await ctx.db
    .insert(supportTickets)
    .values({ invoiceId: otherInvoice!.id, merchantId: other!.id, description: 'Other', status: 'NEW' })
    .returning();

  return {
    terminalId: terminal!.id,
    testTerminalId: testTerminal!.id,
    invoices: rows,
    testInvoice,
    declined,
    tickets: tickets!,
    other: { merchantId: other!.id, invoiceId: otherInvoice!.id, ticketId: otherTicket!.id },
  };
}
