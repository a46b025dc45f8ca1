import { useQuery } from '@tanstack/react-query';
import type { AccountHealth } from '@paydesk/contracts';
import { durationText } from '@paydesk/contracts/notifications';
import { call } from './api';

/**
 * Provider accounts' health (people.account): per account the deposits given its requisites over the last day, how
 * many were paid, when money last arrived, and whether routing skips it. Read by the Accounts list and the desk's
 * paused accounts, under the desk's key: a pause, a resume or a resolution there reads it again.
 */
export const ACCOUNT_HEALTH_KEY = ['exceptions', 'account-health'] as const;

export const useAccountHealth = (enabled: boolean) =>
  useQuery({
    queryKey: ACCOUNT_HEALTH_KEY,
    queryFn: ({ signal }) => call('GET /api/v1/people/account/health', { signal, scoped: false }).then((r) => r.data),
    enabled,
  });

/** What the figures below read of an account's health (its contracts type). */
export type HealthFigures = Pick<AccountHealth, 'given' | 'paid' | 'successRate' | 'lastMoneyAt'>;

/** The figures of an account the health read has none for: newer than the read, so none given, no money yet. */
export const NO_FIGURES: HealthFigures = { given: 0, paid: 0, successRate: null, lastMoneyAt: null };

/** "1 of 3 paid": the deposits given the account's requisites over the last day, and how many were paid. */
export const paidOfGiven = (h: HealthFigures) => `${h.paid} of ${h.given} paid`;

/** The paid share, "33.3 %"; "none given" when no deposit was given its requisites. */
export const successRateText = (h: HealthFigures) => (h.successRate === null ? 'none given' : `${h.successRate} %`);

/** When money last arrived on the account, the way an operator says it: "12 min ago", or "never". */
export const lastMoneyText = (h: HealthFigures, now: number) =>
  h.lastMoneyAt === null ? 'never' : `${durationText(now - new Date(h.lastMoneyAt).getTime())} ago`;
