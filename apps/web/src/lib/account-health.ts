import { useQuery } from '@tanstack/react-query';
import { durationText } from '@paydesk/contracts/notifications';
import { call } from './api';

/**
 * Provider accounts' health (people.account): per account the deposits given its requisites over the last day, how
 * many were paid, when money last arrived, and whether routing skips it. Read by the Accounts list and the desk's
 * paused accounts, under the desk's key: a pause, a resume or a resolution there reads it again.
 */
export const useAccountHealth = (enabled: boolean) =>
  useQuery({
    queryKey: ['exceptions', 'account-health'] as const,
    queryFn: ({ signal }) => call('GET /api/v1/people/account/health', { signal, scoped: false }).then((r) => r.data),
    enabled,
  });

type Figures = { given: number; paid: number; successRate: number | null; lastMoneyAt: string | null };

/** "1 of 3 paid": the deposits given the account's requisites over the last day, and how many were paid. */
export const paidOfGiven = (h: Figures) => `${h.paid} of ${h.given} paid`;

/** The paid share, "33.3 %"; "none given" when no deposit was given its requisites. */
export const successRateText = (h: Figures) => (h.successRate === null ? 'none given' : `${h.successRate} %`);

/** When money last arrived on the account, the way an operator says it: "12 min ago", or "never". */
export const lastMoneyText = (h: Figures, now: number) =>
  h.lastMoneyAt === null ? 'never' : `${durationText(now - new Date(h.lastMoneyAt).getTime())} ago`;
