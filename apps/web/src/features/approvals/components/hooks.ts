import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ApprovalItem } from '@paydesk/contracts/approvals';
import { formatMoneyEn } from '../../../lib/format';
import { rememberedMerchantStore, scopedMerchantStore } from '../../../lib/merchant-scope';
import { isMerchantScopedQuery } from '../../../lib/query-client';
import { useCurrencies } from '../../../lib/references';
import { useCan } from '../../../lib/session';
import { selectedTerminalStore } from '../../../lib/terminals';

/** The time now, read again every `everyMs` (countdowns and ages move on while the page is open). */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(id);
  }, [everyMs]);
  return now;
}

/** Minor units of a currency code as the rest of the back-office shows money: "1,250,000.00 UZS". */
export function useAmountText() {
  const { data: currencies } = useCurrencies();
  return (minor: number, code: string) =>
    formatMoneyEn(minor, currencies?.find((c) => c.code === code)?.dimension ?? 2, code);
}

/**
 * Before following a request's link to its merchant's screen (an invoice), a user who works on every merchant
 * switches to that merchant, as the top bar's picker would: the screens' calls are scoped to the picked merchant.
 */
export function useOpenInMerchant() {
  const queryClient = useQueryClient();
  const picks = useCan('merchant.rw.all');
  return (item: Pick<ApprovalItem, 'merchantId'>) => {
    if (!picks || !item.merchantId || scopedMerchantStore.get() === item.merchantId) return;
    rememberedMerchantStore.set(item.merchantId);
    scopedMerchantStore.set(item.merchantId);
    selectedTerminalStore.set('');
    void queryClient.resetQueries({ predicate: (q) => isMerchantScopedQuery(q.queryKey) });
  };
}
