/**
 * The ledger's rules as pure functions. Sign convention: debit positive, credit negative;
 * every posting sums to zero per currency. Liability balances (merchant, merchant_hold) are
 * shown negated: a merchant's balance is -sum(merchant entries).
 *
 * The cumulative effect of an invoice is a function of (flow, status, amount, fee). Any status
 * or amount change — by the engine or by an operator — posts the difference between the
 * effect after and the effect before, so applying and reversing are the same operation.
 */
export type LedgerAccount = 'merchant' | 'merchant_hold' | 'provider_account' | 'fees' | 'settlement' | 'suspense';

export type Leg = { account: LedgerAccount; amount: number };

export type InvoiceEffectInput = {
  flowType: string;
  status: string;
  amount: number;
  fee: number;
  /** the deposit's money had arrived unmatched and sits in suspense (already counted on the provider account) */
  fundedFromSuspense?: boolean;
};

export function invoiceEffect({ flowType, status, amount, fee, fundedFromSuspense }: InvoiceEffectInput): Leg[] {
  if (flowType === 'DEPOSIT') {
    if (status !== 'DONE') return [];
    // money arrived at the provider account (or, when it first arrived unmatched, comes out of suspense, where the
    // arrival put it); the merchant is owed amount - fee; we earn the fee
    return [
      { account: fundedFromSuspense ? 'suspense' : 'provider_account', amount },
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

/**
 * Money a provider reported that matched no invoice: it is on the provider account from that moment, and the platform
 * owes it to someone it does not know yet (suspense). Staff resolve it by a match (the deposit's effect takes it out of
 * suspense) or a return (returnLegs).
 */
export function unmatchedArrivalLegs(amount: number): Leg[] {
  return [
    { account: 'provider_account', amount },
    { account: 'suspense', amount: -amount },
  ];
}

/** Unmatched money sent back to the payer: out of suspense, out of the provider account. */
export function returnLegs(amount: number): Leg[] {
  return [
    { account: 'suspense', amount },
    { account: 'provider_account', amount: -amount },
  ];
}
