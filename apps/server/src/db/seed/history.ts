import { randomBytes, randomUUID } from 'node:crypto';
import { effectDelta, invoiceEffect, type Leg } from '../../modules/ledger/postings';
import type {
  callbackAttempts,
  callbacks,
  eventLog,
  incomingPayments,
  invoiceErrors,
  invoices,
  invoiceStatusEvents,
  ledgerEntries,
  providerTransactions,
  supportTickets,
} from '../schema';
import { withLuhn, type Rng } from './prng';
import {
  FLOW_STATUSES,
  awaitsProvider,
  feeFor,
  formatMoney,
  holdsRequisites,
  providerTransactionType,
  webhookPayload,
  type FlowType,
  type InvoiceStatus,
} from '@paydesk/contracts';

const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const FORM_TTL = 30 * MIN;

type SeedMethod = {
  id: number;
  code: string;
  name: string;
  requisiteType: string;
  isBankTransfer: boolean;
  minAmount: number;
  maxAmount: number;
};

export type SeedTerminal = {
  id: string;
  name: string;
  flowType: 'DEPOSIT' | 'WITHDRAWAL';
  currency: 'UZS' | 'RUB';
  currencyId: number;
  isTest: boolean;
  feeBps: number;
  callbackUrl: string;
  methods: SeedMethod[];
  /** Relative share of this terminal's invoices. */
  weight: number;
};

export type SeedAccount = {
  id: number;
  methodId: number;
  providerCode: string;
  providerId: number;
  providerName: string;
  isSandbox: boolean;
  enabled: boolean;
  priority: number;
  checkUniqueAmount: boolean;
  credential: string;
  bankName: string;
};

export type SeedCustomer = { id: string; externalId: string; firstName: string; lastName: string; kind: 'UZ' | 'RU' };

export type HistoryInput = {
  rng: Rng;
  now: Date;
  merchant: { id: string; domain: string };
  terminals: SeedTerminal[];
  accounts: SeedAccount[];
  customers: SeedCustomer[];
  staff: { operatorId: string; operatorName: string; supportId: string; supportName: string };
  banks: { id: number; value: string; country: string }[];
  count: number;
  firstOrderNo: number;
  /** Guarantee every status × flow on production terminals among the first invoices. */
  coverAllStatuses: boolean;
  tickets: boolean;
};

type Insert<T extends { $inferInsert: unknown }> = T['$inferInsert'];

export type HistoryRows = {
  invoices: Insert<typeof invoices>[];
  statusEvents: Insert<typeof invoiceStatusEvents>[];
  errors: Insert<typeof invoiceErrors>[];
  eventLog: Insert<typeof eventLog>[];
  transactions: Insert<typeof providerTransactions>[];
  /** their currency and book are the account's (insertHistory in index.ts) */
  incoming: Omit<Insert<typeof incomingPayments>, 'currencyId'>[];
  callbacks: Insert<typeof callbacks>[];
  attempts: Insert<typeof callbackAttempts>[];
  tickets: Insert<typeof supportTickets>[];
  ledger: Insert<typeof ledgerEntries>[];
};

type Status = InvoiceStatus;
type Flow = FlowType;

type Step = {
  status: Status;
  /** ms after the previous step */
  after: number;
  note: string;
  userId?: string;
  error?: string;
  retry?: boolean;
  ticket?: 'before';
};

const DEPOSIT_MIX: [Status, number][] = [
  ['DONE', 60],
  ['CANCELED', 20],
  ['DECLINED', 11],
  ['PAYED', 2],
  ['IN_PROGRESS', 1.5],
  ['NEW', 2],
];
const WITHDRAWAL_MIX: [Status, number][] = [
  ['DONE', 72],
  ['DECLINED', 12],
  ['CANCELED', 7],
  ['IN_PROGRESS', 5],
  ['NEW', 2],
];
const ACTIVE = new Set<Status>(['NEW', 'IN_PROGRESS', 'PAYED']);

/** Share of activity by local hour (UTC+5): quiet nights, busy evenings. */
const HOUR_WEIGHT = [
  0.35, 0.25, 0.15, 0.1, 0.1, 0.12, 0.2, 0.35, 0.5, 0.65, 0.75, 0.8, 0.85, 0.85, 0.8, 0.8, 0.85, 0.9, 0.95, 1, 1, 0.95,
  0.8, 0.55,
];

const DEPOSIT_DECLINES = [
  'Provider declined: payment not received within the time limit',
  'Provider declined: received amount does not match the invoice amount',
  'Provider declined: payment came from a card of another person',
  'Provider declined: transfer returned by the issuing bank',
];
const WITHDRAWAL_DECLINES = [
  'Provider error 51: insufficient funds on the payout account',
  'Recipient card is blocked or closed',
  'Recipient bank rejected the transfer (code 05: do not honour)',
  'Card number failed issuer validation',
  'Daily limit exceeded for the recipient card',
  'Provider timeout: no payout confirmation within 15 minutes',
];
const TICKET_TEXTS = [
  (amount: string) =>
    `Customer says ${amount} was debited from the card but the payment shows as failed. Bank receipt attached.`,
  (amount: string) => `Money (${amount}) left my account and the balance on the site did not change. Please check.`,
  (amount: string) => `I transferred ${amount} a couple of minutes after the timer ran out. Please credit the payment.`,
  (amount: string) =>
    `Paid ${amount} by transfer, the form said the payment was declined. Receipt number in the attachment.`,
  (amount: string) => `Customer contacted support via chat: payment of ${amount} made, not credited for 2 hours.`,
];

function providerRef(rng: Rng, providerCode: string): string {
  switch (providerCode) {
    case 'SILKPAY':
      return `SLK${rng.digits(10)}`;
    case 'TURONPAY':
      return `TP-${rng.digits(4)}-${rng.digits(6)}`;
    case 'VOLGAPAY':
      return `VP${rng.digits(12)}`;
    case 'NEVAPAY':
      return `NV-${rng.alnum(10)}`;
    default:
      return `sbx_${rng.alnum(12).toLowerCase()}`;
  }
}

export function cardFor(rng: Rng, methodCode: string): string {
  switch (methodCode) {
    case 'HUMOUZS':
      return withLuhn(`9860${rng.digits(11)}`);
    case 'CARDUZS':
      return withLuhn(`8600${rng.digits(11)}`);
    case 'SBERRUB':
      return withLuhn(`220220${rng.digits(9)}`);
    case 'TCSBRUB':
      return withLuhn(`${rng.pick(['553691', '220070'])}${rng.digits(9)}`);
    default:
      return `+79${rng.digits(9)}`;
  }
}

function sampleCreatedAt(rng: Rng, now: number): number {
  for (;;) {
    // slightly more volume in recent days: the merchant is growing
    const t = now - rng.next() ** 1.1 * 30 * DAY;
    const localHour = (new Date(t).getUTCHours() + 5) % 24;
    if (rng.next() < HOUR_WEIGHT[localHour]!) return t;
  }
}

function sampleAmount(rng: Rng, t: SeedTerminal, method: SeedMethod | undefined): number {
  const logUniform = (lo: number, hi: number) => Math.exp(Math.log(lo) + rng.next() * (Math.log(hi) - Math.log(lo)));
  const scale = t.flowType === 'WITHDRAWAL' ? 0.7 : 1;
  let major: number;
  if (t.currency === 'UZS') {
    major = logUniform(t.isTest ? 10_000 : 50_000, t.isTest ? 300_000 : 6_000_000) * scale;
    const step = rng.chance(0.2) ? 100 : major >= 1_000_000 ? 50_000 : major >= 200_000 ? 10_000 : 1_000;
    major = Math.max(step, Math.round(major / step) * step);
  } else {
    major = logUniform(t.isTest ? 100 : 300, t.isTest ? 5_000 : 80_000) * scale;
    const step = rng.chance(0.25) ? 1 : major >= 10_000 ? 500 : major >= 1_000 ? 100 : 50;
    major = Math.max(step, Math.round(major / step) * step);
  }
  let minor = Math.round(major) * 100;
  if (method) minor = Math.min(method.maxAmount, Math.max(method.minAmount, minor));
  return minor;
}

function depositPath(
  rng: Rng,
  status: Status,
  ctx: { operatorId: string; operatorName: string },
  forceTicketPath: boolean,
): Step[] {
  const NEW: Step = { status: 'NEW', after: 0, note: 'Invoice created via merchant API' };
  const inProgress = (): Step => ({
    status: 'IN_PROGRESS',
    after: rng.int(20, 240) * SEC,
    note: 'Customer requested requisites',
  });
  const payed = (): Step => ({
    status: 'PAYED',
    after: rng.int(1, 12) * MIN + rng.int(0, 59) * SEC,
    note: 'Customer confirmed the transfer ("I have paid")',
  });
  switch (status) {
    case 'NEW':
      return [NEW];
    case 'IN_PROGRESS':
      return [NEW, inProgress()];
    case 'PAYED':
      return [NEW, inProgress(), payed()];
    case 'DONE': {
      const ip = inProgress();
      const done: Step = {
        status: 'DONE',
        after: rng.int(1, 25) * MIN + rng.int(0, 59) * SEC,
        note: 'Provider confirmed the incoming payment',
      };
      if (forceTicketPath) {
        const p = payed();
        const declined: Step = {
          status: 'DECLINED',
          after: rng.int(15, 40) * MIN,
          note: 'Provider did not confirm the payment in time',
          error: DEPOSIT_DECLINES[0]!,
        };
        return [
          NEW,
          ip,
          p,
          declined,
          {
            status: 'DONE',
            after: rng.int(40, 300) * MIN,
            note: 'Support ticket approved: payment found in the provider statement',
            userId: ctx.operatorId,
            ticket: 'before',
          },
        ];
      }
      // sometimes the provider confirms before the customer presses "I have paid"
      return rng.chance(0.15) ? [NEW, ip, done] : [NEW, ip, payed(), done];
    }
    case 'CANCELED': {
      const r = rng.next();
      if (r < 0.55)
        return [NEW, { status: 'CANCELED', after: FORM_TTL, note: 'Payment form expired: no payment method chosen' }];
      if (r < 0.88) {
        const ip = inProgress();
        return [
          NEW,
          ip,
          { status: 'CANCELED', after: FORM_TTL - ip.after, note: 'Payment form expired without payment' },
        ];
      }
      return [NEW, { status: 'CANCELED', after: rng.int(1, 20) * MIN, note: 'Canceled by the merchant via API' }];
    }
    case 'DECLINED': {
      const r = rng.next();
      const error = rng.pick(DEPOSIT_DECLINES);
      if (r < 0.6)
        return [NEW, inProgress(), payed(), { status: 'DECLINED', after: rng.int(10, 40) * MIN, note: error, error }];
      if (r < 0.9) return [NEW, inProgress(), { status: 'DECLINED', after: rng.int(5, 25) * MIN, note: error, error }];
      return [
        NEW,
        {
          status: 'DECLINED',
          after: rng.int(5, 90) * SEC,
          note: 'No free requisites for this amount',
          error: 'No provider account available for this amount',
        },
      ];
    }
  }
}

function withdrawalPath(rng: Rng, status: Status, ctx: { operatorId: string; operatorName: string }): Step[] {
  const NEW: Step = { status: 'NEW', after: 0, note: 'Invoice created via merchant API' };
  const ip = (): Step => ({
    status: 'IN_PROGRESS',
    after: rng.int(10, 180) * SEC,
    note: 'Customer entered payout requisites; payout sent to the provider',
  });
  const decline = (): Step => {
    const error = rng.pick(WITHDRAWAL_DECLINES);
    return { status: 'DECLINED', after: rng.int(1, 20) * MIN, note: error, error };
  };
  const retry = (): Step => ({
    status: 'IN_PROGRESS',
    after: rng.int(5, 60) * MIN,
    note: 'Payout retried',
    retry: true,
    userId: rng.chance(0.5) ? ctx.operatorId : undefined,
  });
  const done = (): Step => ({
    status: 'DONE',
    after: rng.int(1, 40) * MIN + rng.int(0, 59) * SEC,
    note: 'Provider confirmed the payout',
  });
  switch (status) {
    case 'NEW':
      return [NEW];
    case 'IN_PROGRESS':
      return rng.chance(0.2) ? [NEW, ip(), decline(), retry()] : [NEW, ip()];
    case 'DONE':
      return rng.chance(0.1) ? [NEW, ip(), decline(), retry(), done()] : [NEW, ip(), done()];
    case 'DECLINED':
      return rng.chance(0.3) ? [NEW, ip(), decline(), retry(), decline()] : [NEW, ip(), decline()];
    case 'CANCELED':
      return rng.chance(0.7)
        ? [NEW, { status: 'CANCELED', after: FORM_TTL, note: 'Payment form expired: payout requisites not provided' }]
        : [NEW, { status: 'CANCELED', after: rng.int(1, 25) * MIN, note: 'Canceled by the merchant via API' }];
    default:
      throw new Error(`${status} is not a status of a withdrawal`);
  }
}

/** How long ago an invoice still in an active status was created. */
function activeAge(rng: Rng, flow: Flow, status: Status): number {
  if (status === 'NEW') return rng.int(1, 25) * MIN;
  if (flow === 'DEPOSIT') return status === 'IN_PROGRESS' ? rng.int(4, 28) * MIN : rng.int(20, 8 * 60) * MIN;
  return status === 'IN_PROGRESS' ? rng.int(10, 10 * 60) * MIN : rng.int(1, 3) * DAY;
}

type Plan = {
  terminal: SeedTerminal;
  flow: Flow;
  status: Status;
  ticketPath: boolean;
  steps: Step[];
  /** when each step happened (ms since epoch) */
  times: number[];
  createdAt: number;
  amount: number;
  fee: number;
  /** the smallest amount its payment method takes */
  minAmount: number;
  /** when the merchant's balance did not cover the payout's hold, so the payout was never sent */
  refusedAt: number | null;
};

function timeline(createdAt: number, steps: Step[]): number[] {
  let t = createdAt;
  return steps.map((s) => (t += s.after));
}

/** What a step takes from the merchant's available balance (negative: gives back), by the ledger's rules. */
function takenBy(plan: Plan, idx: number): number {
  const effect = (status: Status) => invoiceEffect({ flowType: plan.flow, status, amount: plan.amount, fee: plan.fee });
  return effectDelta(effect(plan.steps[idx - 1]!.status), effect(plan.steps[idx]!.status))
    .filter((l) => l.account === 'merchant')
    .reduce((sum, l) => sum + l.amount, 0);
}

/** What the payment form records when the funds guard refuses a customer's payout details. */
const PAYOUT_REFUSED = 'The payout cannot be made right now: the merchant balance does not cover it';

/**
 * The funds rule, applied to the history as the engine would have met it: every change of a merchant's available
 * balance (per book and currency) is replayed in time order, and a payout hold the balance does not cover at that
 * moment is refused, as the engine's funds guard refuses it. A first payout is then asked smaller (as a merchant
 * whose balance is short would) or never sent: the customer's payout details were refused, the invoice stayed NEW
 * and its form expired. A refused retry leaves the withdrawal DECLINED. Deposits only add (money that arrived);
 * a withdrawal takes at IN_PROGRESS and gives back when its payout is declined.
 */
function keepFundsCovered(plans: Plan[], now: number) {
  const moves = plans.flatMap((plan, p) => plan.times.map((at, idx) => ({ p, idx, at })).filter((m) => m.idx > 0));
  moves.sort((a, b) => a.at - b.at || a.p - b.p || a.idx - b.idx);
  const available = new Map<string, number>();
  for (const { p, idx, at } of moves) {
    const plan = plans[p]!;
    if (idx >= plan.steps.length) continue; // cut off by an earlier refusal
    const key = `${plan.terminal.isTest}:${plan.terminal.currencyId}`;
    const balance = available.get(key) ?? 0;
    const firstPayout = !plan.steps.slice(0, idx).some((s) => s.status === 'IN_PROGRESS');
    if (takenBy(plan, idx) > balance && firstPayout) {
      while (plan.amount > plan.minAmount && takenBy(plan, idx) > balance) {
        plan.amount = Math.max(plan.minAmount, Math.floor((plan.amount * 0.7) / 100) * 100);
        plan.fee = feeFor(plan.amount, plan.terminal.feeBps);
      }
    }
    const taken = takenBy(plan, idx);
    if (taken > balance) {
      if (firstPayout) {
        plan.refusedAt = at;
        const expired = plan.createdAt + FORM_TTL <= now;
        plan.steps = [
          plan.steps[0]!,
          ...(expired
            ? [
                {
                  status: 'CANCELED' as const,
                  after: FORM_TTL,
                  note: 'Payment form expired: the payout was refused, the merchant balance did not cover it',
                },
              ]
            : []),
        ];
        plan.status = expired ? 'CANCELED' : 'NEW';
      } else {
        plan.steps = plan.steps.slice(0, idx);
        plan.status = plan.steps[idx - 1]!.status;
      }
      plan.times = timeline(plan.createdAt, plan.steps);
      continue;
    }
    available.set(key, balance - taken);
  }
}

export function generateHistory(input: HistoryInput): HistoryRows {
  const { rng, merchant, staff } = input;
  const now = input.now.getTime();
  const out: HistoryRows = {
    invoices: [],
    statusEvents: [],
    errors: [],
    eventLog: [],
    transactions: [],
    incoming: [],
    callbacks: [],
    attempts: [],
    tickets: [],
    ledger: [],
  };
  const activePairs = new Set<string>();
  const payoutCredentials = new Map<string, string>();
  const incomingRefs = new Set<string>();
  let solvedTickets = 0;
  let openTickets = 0;
  const OPEN_TICKET_STATUSES = [
    'NEW',
    'IN_WORK',
    'PENDING',
    'REJECTED',
    'NEW',
    'IN_WORK',
    'PENDING',
    'REJECTED',
    'IN_WORK',
    'NEW',
  ] as const;

  const forced: { terminal: SeedTerminal; status: Status }[] = [];
  if (input.coverAllStatuses) {
    // every status of its flow on each production terminal, so in every currency
    for (const terminal of input.terminals.filter((t) => !t.isTest))
      for (const status of FLOW_STATUSES[terminal.flowType]) forced.push({ terminal, status });
  }

  const terminalPairs = input.terminals.map((t) => [t, t.weight] as const);
  const customersByKind = {
    UZ: input.customers.filter((c) => c.kind === 'UZ'),
    RU: input.customers.filter((c) => c.kind === 'RU'),
  };

  // plan first, then number the orders in creation order as a merchant's system would
  const plans: Plan[] = [];
  for (let i = 0; i < input.count; i++) {
    const f = forced[i];
    const terminal = f ? f.terminal : rng.weighted(terminalPairs);
    const flow = terminal.flowType;
    let status: Status = f ? f.status : rng.weighted(flow === 'DEPOSIT' ? DEPOSIT_MIX : WITHDRAWAL_MIX);
    // the sandbox answers within seconds: test invoices are new or final
    if (terminal.isTest && awaitsProvider({ flowType: flow, status })) status = 'DONE';

    const ticketPath =
      flow === 'DEPOSIT' &&
      status === 'DONE' &&
      input.tickets &&
      !terminal.isTest &&
      solvedTickets < 3 &&
      rng.chance(0.12);
    if (ticketPath) solvedTickets++;
    const steps = flow === 'DEPOSIT' ? depositPath(rng, status, staff, ticketPath) : withdrawalPath(rng, status, staff);
    const total = steps.reduce((s, st) => s + st.after, 0);
    let createdAt: number = ACTIVE.has(status) ? now - activeAge(rng, flow, status) : sampleCreatedAt(rng, now);
    createdAt = Math.min(createdAt, now - total - rng.int(20, 300) * SEC);
    plans.push({
      terminal,
      flow,
      status,
      ticketPath,
      steps,
      createdAt,
      times: [],
      amount: 0,
      fee: 0,
      minAmount: 100,
      refusedAt: null,
    });
  }
  plans.sort((a, b) => a.createdAt - b.createdAt);

  // what the customer chose and how much, in creation order
  const drawn = plans.map((plan) => {
    const { terminal, flow, status, steps } = plan;
    const reachedProcessing = steps.some((s) => s.status === 'IN_PROGRESS');
    const methodChosen = reachedProcessing || flow === 'WITHDRAWAL' || rng.chance(0.5);
    const method = methodChosen ? rng.pick(terminal.methods) : undefined;
    const customer = rng.pick(customersByKind[terminal.currency === 'UZS' ? 'UZ' : 'RU']);
    let amount = sampleAmount(rng, terminal, method);

    let account: SeedAccount | undefined;
    if (reachedProcessing && method) {
      const candidates = input.accounts.filter(
        (a) => a.methodId === method.id && a.enabled && a.isSandbox === terminal.isTest,
      );
      account = rng.weighted(candidates.map((a) => [a, a.priority] as const));
      // two deposits waiting for money never share (account, amount): the incoming money must match one
      if (holdsRequisites({ flowType: flow, status })) {
        while (activePairs.has(`${account.id}:${amount}`)) amount += 100;
        activePairs.add(`${account.id}:${amount}`);
      }
    }
    plan.amount = amount;
    plan.fee = feeFor(amount, terminal.feeBps);
    plan.minAmount = method?.minAmount ?? 100;
    plan.times = timeline(plan.createdAt, steps);
    return { plan, reachedProcessing, method, customer, account };
  });

  keepFundsCovered(plans, now);

  drawn.forEach(({ plan, reachedProcessing, method, customer, account: routed }, i) => {
    const { terminal, flow, ticketPath, createdAt, status, steps, times, amount, fee } = plan;
    // a payout the merchant's balance did not cover was never sent: no account, no payout details
    const account = plan.refusedAt === null ? routed : undefined;
    let credentialValue: string | null = null;
    let bankCode: number | null = null;
    if (account && method) {
      if (flow === 'DEPOSIT') credentialValue = account.credential;
      else {
        const key = `${customer.id}:${method.code}`;
        credentialValue = payoutCredentials.get(key) ?? cardFor(rng, method.code);
        payoutCredentials.set(key, credentialValue);
        if (method.isBankTransfer) bankCode = rng.pick(input.banks.filter((b) => b.country === 'RU')).id;
      }
    }

    const invoiceId = randomUUID();
    const orderNo = `ORD-${input.firstOrderNo + i}`;
    const currencyCode = terminal.currency;
    const money = formatMoney(amount, 2, 'en', currencyCode);
    const providerInvoiceId =
      account && (terminal.isTest || rng.chance(0.8)) ? providerRef(rng, account.providerCode) : null;

    const finalAt = times[times.length - 1]!;

    let ticket: Insert<typeof supportTickets> | undefined;
    const wantsOpenTicket =
      input.tickets &&
      flow === 'DEPOSIT' &&
      !terminal.isTest &&
      reachedProcessing &&
      (status === 'DECLINED' || status === 'CANCELED') &&
      openTickets < OPEN_TICKET_STATUSES.length &&
      rng.chance(0.3);
    const supportCode = ticketPath || wantsOpenTicket ? `${rng.alnum(4)}-${rng.alnum(4)}` : null;

    out.invoices.push({
      id: invoiceId,
      merchantId: merchant.id,
      terminalId: terminal.id,
      merchantInvoiceId: orderNo,
      providerInvoiceId,
      formId: randomBytes(24).toString('base64url'),
      flowType: flow,
      status,
      amount,
      fee,
      currencyId: terminal.currencyId,
      customerId: customer.id,
      paymentMethodId: method?.id ?? null,
      accountId: account?.id ?? null,
      credentialValue,
      bankCode,
      canChangeAmount: flow === 'DEPOSIT' && rng.chance(0.25),
      isTest: terminal.isTest,
      successUrl: `https://${merchant.domain}/checkout/success?order=${orderNo}`,
      cancelUrl: `https://${merchant.domain}/checkout/cancel?order=${orderNo}`,
      errorUrl: `https://${merchant.domain}/checkout/error?order=${orderNo}`,
      callbackUrl: terminal.callbackUrl,
      supportCode,
      expiresAt: new Date(createdAt + FORM_TTL),
      statusDate: new Date(finalAt),
      createdAt: new Date(createdAt),
    });

    out.eventLog.push({
      merchantId: merchant.id,
      invoiceId,
      code: 'INVOICE_CREATED',
      description: `${flow === 'DEPOSIT' ? 'Deposit' : 'Withdrawal'} invoice ${orderNo} created via merchant API for ${money} on terminal "${terminal.name}"`,
      data: { amount, currency: currencyCode, terminalId: terminal.id, merchantInvoiceId: orderNo },
      eventTime: new Date(createdAt),
    });
    if (plan.refusedAt !== null)
      out.errors.push({ invoiceId, description: PAYOUT_REFUSED, eventTime: new Date(plan.refusedAt) });

    let before: Leg[] = [];
    let attempt = 0;
    let openTx: Insert<typeof providerTransactions> | undefined;
    steps.forEach((step, idx) => {
      const at = new Date(times[idx]!);
      out.statusEvents.push({ invoiceId, status: step.status, statusDate: at, userId: step.userId ?? null });
      if (idx > 0) {
        const from = steps[idx - 1]!.status;
        let note = step.note;
        if (step.status === 'IN_PROGRESS' && !step.retry && account && method) {
          note =
            flow === 'DEPOSIT'
              ? `Customer requested requisites; ${method.name} requisites assigned`
              : 'Customer entered payout requisites; payout sent to the provider';
        }
        if (step.status === 'DONE' && flow === 'DEPOSIT' && !step.userId && account)
          note = `The provider confirmed the incoming payment of ${money}`;
        if (step.retry) {
          out.eventLog.push({
            merchantId: merchant.id,
            invoiceId,
            code: 'PAYOUT_RETRY',
            description: step.userId
              ? `Payout retried manually by ${staff.operatorName} (attempt ${attempt + 1})`
              : `Payout retried automatically (attempt ${attempt + 1})`,
            data: { attempt: attempt + 1 },
            eventTime: at,
            userId: step.userId ?? null,
          });
        }
        if (step.ticket === 'before' && supportCode) {
          const created = times[idx - 1]! + Math.floor((times[idx]! - times[idx - 1]!) / 3);
          ticket = {
            invoiceId,
            merchantId: merchant.id,
            description: rng.pick(TICKET_TEXTS)(money),
            supportCode,
            status: 'SOLVED',
            createDate: new Date(created),
            decidedBy: staff.supportId,
            decidedAt: at,
          };
          out.eventLog.push(
            {
              merchantId: merchant.id,
              invoiceId,
              code: 'TICKET_CREATED',
              description: `Support ticket opened from the payment form (code ${supportCode})`,
              eventTime: new Date(created),
            },
            {
              merchantId: merchant.id,
              invoiceId,
              code: 'TICKET_DECIDED',
              description: `Support ticket approved by ${staff.supportName}: invoice set to DONE`,
              eventTime: at,
              userId: staff.supportId,
            },
          );
        }
        out.eventLog.push({
          merchantId: merchant.id,
          invoiceId,
          code: 'STATUS_CHANGED',
          description: `Status changed from ${from} to ${step.status}. ${note}`,
          data: { from, to: step.status },
          eventTime: at,
          userId: step.userId ?? null,
        });
        if (step.error) out.errors.push({ invoiceId, description: step.error, eventTime: at });
        addCallbacks(rng, out, now, {
          invoiceId,
          merchantId: merchant.id,
          url: terminal.callbackUrl,
          orderNo,
          status: step.status,
          amount,
          currency: currencyCode,
          flowType: flow,
          isTest: terminal.isTest,
          at: at.getTime(),
          isLast: idx === steps.length - 1,
        });
      }

      // provider transactions, as the engine writes them: one payout per attempt, pending until the provider
      // answers (DONE or DECLINED); deposits get the provider's confirmation
      if (flow === 'WITHDRAWAL' && account) {
        if (step.status === 'IN_PROGRESS') {
          attempt++;
          openTx = {
            id: randomUUID(),
            invoiceId,
            accountId: account.id,
            type: providerTransactionType(flow),
            status: 'PENDING',
            attempt,
            externalRef: providerRef(rng, account.providerCode),
            createDate: at,
            statusDate: at,
          };
          out.transactions.push(openTx);
        } else if (openTx) {
          // the provider's own answer: a payout that was not paid was declined (the engine never writes another status)
          openTx.status = step.status === 'DONE' ? 'DONE' : 'DECLINED';
          openTx.statusDate = at;
          openTx = undefined;
        }
      }

      const after = invoiceEffect({ flowType: flow, status: step.status, amount, fee });
      const delta = effectDelta(before, after);
      before = after;
      if (delta.length) {
        const txId = randomUUID();
        for (const leg of delta)
          out.ledger.push({
            txId,
            account: leg.account,
            merchantId: merchant.id,
            terminalId: terminal.id,
            providerAccountId: leg.account === 'provider_account' ? (account?.id ?? null) : null,
            invoiceId,
            currencyId: terminal.currencyId,
            amount: leg.amount,
            kind: 'invoice_status',
            book: terminal.isTest ? 'test' : 'live',
            createdAt: at,
          });
      }
    });

    // "Have paid" asked the provider to confirm the deposit: pending while the deposit waits, else its answer
    const payedIdx = steps.findIndex((s) => s.status === 'PAYED');
    if (flow === 'DEPOSIT' && account && payedIdx >= 0) {
      const answer = steps[payedIdx + 1];
      out.transactions.push({
        invoiceId,
        accountId: account.id,
        type: providerTransactionType(flow),
        status: !answer
          ? 'PENDING'
          : // the provider's own answer: money that never came was declined, whatever else closed the deposit
            answer.status === 'DONE'
            ? 'DONE'
            : 'DECLINED',
        attempt: 1,
        externalRef: providerInvoiceId ?? providerRef(rng, account.providerCode),
        createDate: new Date(times[payedIdx]!),
        statusDate: new Date(times[answer ? payedIdx + 1 : payedIdx]!),
      });
    }
    if (flow === 'DEPOSIT' && account && status === 'DONE' && !account.isSandbox) {
      const doneAt = finalAt - (ticketPath ? 0 : rng.int(5, 50) * SEC);
      let reference = providerRef(rng, account.providerCode);
      while (incomingRefs.has(`${account.providerId}:${reference}`)) reference = providerRef(rng, account.providerCode);
      incomingRefs.add(`${account.providerId}:${reference}`);
      out.incoming.push({
        providerId: account.providerId,
        accountId: account.id,
        amount,
        occurredAt: new Date(doneAt - rng.int(10, 120) * SEC),
        reference,
        matchedInvoiceId: invoiceId,
        createdAt: new Date(doneAt),
      });
    }

    // a staff member re-sent the callback of a few finished invoices
    if (status === 'DONE' && rng.chance(0.04)) {
      const at = Math.min(now - MIN, finalAt + rng.int(30, 600) * MIN);
      out.eventLog.push({
        merchantId: merchant.id,
        invoiceId,
        code: 'CALLBACK_MANUAL',
        description: `Manual callback sent by ${staff.operatorName}`,
        eventTime: new Date(at),
        userId: staff.operatorId,
      });
      addCallbacks(rng, out, now, {
        invoiceId,
        merchantId: merchant.id,
        url: terminal.callbackUrl,
        orderNo,
        status,
        amount,
        currency: currencyCode,
        flowType: flow,
        isTest: terminal.isTest,
        at,
        isLast: false,
        manual: true,
      });
    }

    if (wantsOpenTicket && supportCode) {
      const ticketStatus = OPEN_TICKET_STATUSES[openTickets++]!;
      const created = Math.min(now - 2 * MIN, finalAt + rng.int(5, 180) * MIN);
      const decided = ticketStatus === 'REJECTED' ? Math.min(now - MIN, created + rng.int(30, 600) * MIN) : null;
      ticket = {
        invoiceId,
        merchantId: merchant.id,
        description: rng.pick(TICKET_TEXTS)(money),
        supportCode,
        status: ticketStatus,
        createDate: new Date(created),
        decidedBy: decided ? staff.supportId : null,
        decidedAt: decided ? new Date(decided) : null,
      };
      out.eventLog.push({
        merchantId: merchant.id,
        invoiceId,
        code: 'TICKET_CREATED',
        description: `Support ticket opened from the payment form (code ${supportCode})`,
        eventTime: new Date(created),
      });
      if (decided)
        out.eventLog.push({
          merchantId: merchant.id,
          invoiceId,
          code: 'TICKET_DECIDED',
          description: `Support ticket rejected by ${staff.supportName}: no matching incoming payment in the provider statement`,
          eventTime: new Date(decided),
          userId: staff.supportId,
        });
    }
    if (ticket) out.tickets.push(ticket);
  });

  // money that arrived but matched no invoice: kept for staff
  const realAccounts = input.accounts.filter((a) => !a.isSandbox && a.enabled);
  if (input.tickets && realAccounts.length) {
    for (let k = 0; k < 3; k++) {
      const a = rng.pick(realAccounts);
      const reference = `${providerRef(rng, a.providerCode)}-U${k}`;
      const occurred = now - rng.int(1, 72) * HOUR;
      out.incoming.push({
        providerId: a.providerId,
        accountId: a.id,
        amount: rng.int(500, 90_000) * 100 + rng.int(0, 99),
        occurredAt: new Date(occurred),
        reference,
        matchedInvoiceId: null,
        createdAt: new Date(occurred + rng.int(5, 60) * SEC),
      });
    }
  }
  return out;
}

function addCallbacks(
  rng: Rng,
  out: HistoryRows,
  now: number,
  c: {
    invoiceId: string;
    merchantId: string;
    url: string;
    orderNo: string;
    status: string;
    amount: number;
    currency: string;
    flowType: 'DEPOSIT' | 'WITHDRAWAL';
    isTest: boolean;
    at: number;
    isLast: boolean;
    manual?: boolean;
  },
) {
  const id = randomUUID();
  const createDate = c.at;
  // the body the server would have sent (the contracts' schema, as enqueueCallback builds it)
  const payload = webhookPayload.parse({
    type: c.manual ? 'invoice.manual' : 'invoice.status',
    invoiceId: c.invoiceId,
    merchantInvoiceId: c.orderNo,
    flowType: c.flowType,
    status: c.status,
    amount: c.amount,
    currency: c.currency,
    isTest: c.isTest,
    statusDate: new Date(c.at).toISOString(),
  });
  // the newest callbacks are still being retried
  const pending = c.isLast && now - c.at < 20 * MIN && rng.chance(0.6);
  const failures = pending
    ? rng.int(0, 2)
    : rng.weighted([
        [0, 85],
        [1, 10],
        [2, 5],
      ] as const);
  let t = createDate + rng.int(200, 1500);
  let attempts = 0;
  for (let k = 0; k < failures; k++) {
    const timeout = rng.chance(0.25);
    const attempt = {
      callbackId: id,
      merchantId: c.merchantId,
      attemptedAt: new Date(t),
      responseCode: timeout ? null : rng.pick([500, 502, 503]),
      latencyMs: timeout ? 10_000 : rng.int(40, 900),
      error: timeout ? 'Timeout after 10000 ms' : 'Non-2xx response',
    };
    // no attempt is made after the seed's "now" (the draws are made all the same: the rest of the history stays)
    if (t <= now) {
      out.attempts.push(attempt);
      attempts++;
    }
    t += 2 ** (k + 1) * 30 * SEC;
  }
  // an event of the last minutes whose delivery would come after "now" is still on its way
  const due = !pending && t > now;
  if (!pending && !due) {
    out.attempts.push({
      callbackId: id,
      merchantId: c.merchantId,
      attemptedAt: new Date(t),
      responseCode: 200,
      latencyMs: rng.int(35, 450),
      error: null,
    });
    attempts++;
  }
  out.callbacks.push({
    id,
    invoiceId: c.invoiceId,
    merchantId: c.merchantId,
    url: c.url,
    payload,
    invoiceStatus: c.status,
    status: pending || due ? 'PENDING' : 'DELIVERED',
    attempts,
    manual: c.manual ?? false,
    nextAttemptAt: new Date(pending ? Math.max(t, now + rng.int(1, 5) * MIN) : t),
    createDate: new Date(createDate),
    executionDate: pending || due ? null : new Date(t),
  });
}
