import { describe, expect, it } from 'vitest';
import { deskNavQueues } from './desk-count';

const summary = (counts: Record<string, number>) =>
  Object.entries(counts).map(([queue, count]) => ({ queue, count, oldestAt: null })) as Parameters<
    typeof deskNavQueues
  >[0];

describe('the desk queues in the navigation', () => {
  it('lists each queue with its count and a link to its tab; the stuck queues count together', () => {
    const queues = deskNavQueues(
      summary({
        unmatched: 3,
        payedStuck: 1,
        payoutStuck: 2,
        callbacksFailed: 4,
        contradictions: 0,
        pausedAccounts: 1,
        statementExceptions: 5,
      }),
    );
    expect(queues.map(({ label, to, count }) => ({ label, to, count }))).toEqual([
      { label: 'Unmatched money', to: '/exceptions?tab=unmatched', count: 3 },
      { label: 'Stuck payments', to: '/exceptions?tab=payed', count: 7 },
      { label: 'Contradictions', to: '/exceptions?tab=contradictions', count: 0 },
      { label: 'Paused accounts', to: '/exceptions?tab=paused', count: 1 },
      { label: 'Statements', to: '/exceptions?tab=statements', count: 5 },
    ]);
    expect(queues[1]!.tabs).toEqual(['payed', 'payouts', 'callbacks']);
  });

  it('opens the stuck payments on the first of their tabs with anything waiting', () => {
    const stuck = (counts: Record<string, number>) => deskNavQueues(summary(counts))[1]!.to;
    expect(stuck({ payedStuck: 0, payoutStuck: 2, callbacksFailed: 1 })).toBe('/exceptions?tab=payouts');
    expect(stuck({ payedStuck: 0, payoutStuck: 0, callbacksFailed: 1 })).toBe('/exceptions?tab=callbacks');
    expect(stuck({})).toBe('/exceptions?tab=payed');
  });

  it('has no counts before the summary is read, and counts a queue the summary leaves out as empty', () => {
    expect(deskNavQueues(undefined).map((q) => q.count)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(deskNavQueues(summary({ unmatched: 2 })).map((q) => q.count)).toEqual([2, 0, 0, 0, 0]);
  });
});
