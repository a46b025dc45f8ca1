import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BalanceItem, LedgerBook } from '@paydesk/contracts/engine';
import type { ExactInt } from '@paydesk/contracts/exact-json';
import { call } from './api';
import { useCurrentMerchantId } from './merchant';

/** One currency's figure: minor units, shown with that currency's own dimension. */
export type MoneyFigure = { amount: ExactInt; currency: { code: string; dimension: number } };

export type FinanceKind = 'balance' | 'deposit' | 'withdrawal';

/** Every finance sum's query key starts with this: a settlement invalidates them all. */
export const FINANCE_KEY = ['finance'] as const;

/**
 * Balance, deposit or withdrawal sums from the ledger (merchant.read.finance) of a terminal, or of the merchant
 * when terminalId is '': one item per currency (the terminal's first), every one shown (showing only the first hid
 * Demo Merchant's RUB). One cache entry per tile, shared by every screen.
 */
export function useFinance(kind: FinanceKind, terminalId: string, enabled = true, book: LedgerBook = 'live') {
  return useQuery({ ...financeQuery(useCurrentMerchantId(), kind, terminalId, book), enabled });
}

/** The call behind useFinance, for a screen that asks for it ahead of its first render. */
export const financeQuery = (merchantId: string | null, kind: FinanceKind, terminalId: string, book: LedgerBook) =>
  queryOptions({
    queryKey: [...FINANCE_KEY, kind, merchantId ?? 'own', terminalId, book] as const,
    queryFn: ({ signal }) =>
      call(`GET /api/v1/merchant/${kind}`, { signal, query: { terminalId, book } }).then((r) => r.data),
  });

/**
 * Sums as figures with each currency's dimension from the currency reference; undefined until both are known
 * (never a guessed dimension).
 */
export function toFigures(
  items: readonly BalanceItem[] | undefined,
  currencies: readonly { code: string; dimension: number }[] | undefined,
): MoneyFigure[] | undefined {
  if (!items) return undefined;
  const figures: MoneyFigure[] = [];
  for (const item of items) {
    const currency = currencies?.find((c) => c.code === item.currency);
    if (!currency) return undefined;
    figures.push({ amount: item.sum, currency: { code: currency.code, dimension: currency.dimension } });
  }
  return figures;
}
