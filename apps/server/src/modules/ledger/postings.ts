/**
 * The ledger's rules as pure functions. Sign convention: debit positive, credit negative;
 * every posting sums to zero per currency. Liability balances (merchant, merchant_hold) are
 * shown negated: a merchant's balance is -sum(merchant entries).
 *
 * The cumulative effect of an invoice is a function of (flow, status, amount, fee). Any status
 * or amount change — by the engine or by an operator — posts the difference between the
 * effect after and the effect before, so applying and reversing are the same operation.
 */
export type LedgerAccount = 'merchant' | 'merchant_hold' | 'provider_account' | 'fees' | 'settlement';

export type Leg = { account: LedgerAccount; amount: number };

export type InvoiceEffectInput = {
  flowType: string;
  status: string;
  amount: number;
  fee: number;
};

export function invoiceEffect({ flowType, status, amount, fee }: InvoiceEffectInput): Leg[] {
  if (flowType === 'DEPOSIT') {
    if (status !== 'DONE') return [];
    // money arrived at the provider account; the merchant is owed amount - fee; we earn the fee
    return [
      { account: 'provider_account', amount },
      { account: 'merchant', amount: -(amount - fee) },
      { account: 'fees', amount: -fee },
    ];
  }
  switch (status) {
    case 'IN_PROGRESS':
    case 'PAYED':
      // funds held from the merchant's balance while the payout is in flight
      return [
        { account: 'merchant', amount: amount + fee },
        { account: 'merchant_hold', amount: -(amount + fee) },
      ];
    case 'DONE':
      // paid out from the provider account; the fee is ours
      return [
        { account: 'merchant', amount: amount + fee },
        { account: 'provider_account', amount: -amount },
        { account: 'fees', amount: -fee },
      ];
    default:
      return [];
  }
}

/** Legs that move the ledger from `before` to `after` (zero legs dropped). */
export function effectDelta(before: Leg[], after: Leg[]): Leg[] {
  const sums = new Map<LedgerAccount, number>();
  for (const l of after) sums.set(l.account, (sums.get(l.account) ?? 0) + l.amount);
  for (const l of before) sums.set(l.account, (sums.get(l.account) ?? 0) - l.amount);
  return [...sums].filter(([, v]) => v !== 0).map(([account, amount]) => ({ account, amount }));
}

/** A settlement pays the merchant's balance out (baseAmount in the terminal's currency). */
export function settlementLegs(baseAmount: number): Leg[] {
  return [
    { account: 'merchant', amount: baseAmount },
    { account: 'settlement', amount: -baseAmount },
  ];
}
