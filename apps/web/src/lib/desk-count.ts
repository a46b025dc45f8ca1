import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ExceptionQueue } from '@paydesk/contracts/exceptions';
import { call } from './api';
import { PAGES } from './pages';

/**
 * The operations desk's queue sizes: shown by its page's tabs and, queue by queue, under its navigation entry, read
 * again every SUMMARY_REFRESH_MS while the back-office is open, by platform staff who may see the desk only.
 */
const SUMMARY_REFRESH_MS = 30_000;

export const exceptionSummaryQuery = queryOptions({
  queryKey: ['exceptions', 'summary'] as const,
  queryFn: ({ signal }) => call('GET /api/v1/exceptions/summary', { signal, scoped: false }).then((r) => r.data),
  refetchInterval: SUMMARY_REFRESH_MS,
  staleTime: 10_000,
});

type QueueCount = { queue: ExceptionQueue; count: number };

/**
 * The desk's queues as the navigation lists them under Exceptions, each with the page's tab (its `tab` URL value) and
 * the summary's queues it counts. The three stuck queues are one entry, "Stuck payments".
 */
const NAV_QUEUES: { label: string; parts: { tab: string; queue: ExceptionQueue }[] }[] = [
  { label: 'Unmatched money', parts: [{ tab: 'unmatched', queue: 'unmatched' }] },
  {
    label: 'Stuck payments',
    parts: [
      { tab: 'payed', queue: 'payedStuck' },
      { tab: 'payouts', queue: 'payoutStuck' },
      { tab: 'callbacks', queue: 'callbacksFailed' },
    ],
  },
  { label: 'Contradictions', parts: [{ tab: 'contradictions', queue: 'contradictions' }] },
  { label: 'Paused accounts', parts: [{ tab: 'paused', queue: 'pausedAccounts' }] },
  { label: 'Statements', parts: [{ tab: 'statements', queue: 'statementExceptions' }] },
];

export type DeskNavQueue = {
  label: string;
  /** the desk with the queue's tab open: of the stuck payments, the first tab with anything waiting */
  to: string;
  /** the desk's tabs that are this entry (the current one marks it) */
  tabs: readonly string[];
  /** what waits in it; undefined until the summary is read */
  count: number | undefined;
};

/** The navigation's entries under Exceptions, with their counts from the desk's summary (undefined: not read yet). */
export function deskNavQueues(summary: readonly QueueCount[] | undefined): DeskNavQueue[] {
  const countOf = (queue: ExceptionQueue) => summary?.find((s) => s.queue === queue)?.count ?? 0;
  return NAV_QUEUES.map(({ label, parts }) => {
    const waiting = parts.find((p) => countOf(p.queue) > 0) ?? parts[0]!;
    return {
      label,
      to: `${PAGES.Exceptions}?tab=${waiting.tab}`,
      tabs: parts.map((p) => p.tab),
      count: summary ? parts.reduce((n, p) => n + countOf(p.queue), 0) : undefined,
    };
  });
}

/** The desk's queues for the navigation, with what waits in each. */
export function useDeskNavQueues(): DeskNavQueue[] {
  const { data } = useQuery(exceptionSummaryQuery);
  return deskNavQueues(data);
}
