import { useQuery } from '@tanstack/react-query';
import type { Invoice } from '@paydesk/contracts/invoices';
import { call } from '../../../lib/api';

/**
 * Provider accounts an operator may name as the one a deposit's money arrived on (a deposit is DONE only against an
 * account: docs/engine.md, "One write path for an invoice"). Platform staff only (people.account); the server checks
 * the currency.
 */
function useArrivalAccounts(enabled: boolean) {
  return useQuery({
    queryKey: ['invoices', 'arrival-accounts'] as const,
    queryFn: ({ signal }) => call('GET /api/v1/people/account', { signal, scoped: false }).then((r) => r.data),
    enabled,
    staleTime: 60_000,
  });
}

/**
 * A deposit no provider account was routed to (the customer never got requisites): it becomes DONE only
 * against the account the money arrived on. `account` is blanked without invoice.credentials.read, so
 * the account's provider (`credentials`, shown to everyone) also counts as routed.
 */
export const isUnroutedDeposit = (invoice: Pick<Invoice, 'flowType' | 'account' | 'credentials'>) =>
  invoice.flowType.code === 'DEPOSIT' && !invoice.account && !invoice.credentials;

type ArrivalAccountChoice = { value: string; label: string };
/** The options of the account select, with the state of the list they come from. */
export type ArrivalAccountChoices = { data: ArrivalAccountChoice[]; isPending: boolean; isError: boolean };

/**
 * The accounts that could have received the invoice's money, as select options: the invoice's currency,
 * sandbox accounts for test invoices only (and only them), and its payment method when the customer chose
 * one. Undefined when not `needed` (nothing is fetched then).
 */
export function useArrivalAccountChoices(
  invoice: Pick<Invoice, 'currency' | 'isTestProcessing' | 'paymentMethod'>,
  needed: boolean,
): ArrivalAccountChoices | undefined {
  const accounts = useArrivalAccounts(needed);
  if (!needed) return undefined;
  const method = invoice.paymentMethod?.paymentMethod.name;
  const data = (accounts.data ?? [])
    .filter(
      (a) =>
        a.isSandbox === invoice.isTestProcessing &&
        a.currency === invoice.currency.code &&
        (!method || a.paymentMethodName === method),
    )
    .map((a) => ({
      value: String(a.id),
      label: `#${a.id} ${a.providerName} · ${a.bankName ?? a.paymentMethodName}`,
    }));
  return { data, isPending: accounts.isPending, isError: accounts.isError };
}
