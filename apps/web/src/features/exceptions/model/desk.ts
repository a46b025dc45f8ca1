import { durationText } from '@paydesk/contracts/notifications';
import { INCOMING_STATUSES, type IncomingStatus } from '@paydesk/contracts/provider-api';

/** The desk's tabs, in the order a shift works them; each is a value of the `tab` URL parameter. */
export const DESK_TABS = ['unmatched', 'payed', 'payouts', 'callbacks', 'contradictions', 'paused'] as const;
export type DeskTab = (typeof DESK_TABS)[number];

export type DeskState = {
  tab: DeskTab;
  /** unmatched money: which items (UNMATCHED by default, the work still to do) */
  status: IncomingStatus | 'ALL';
  /** keyset position of the page shown (the previous page's `next`) */
  after: string | null;
};

/** The desk's state as its URL says it, so a filtered queue can be bookmarked and shared. */
export function parseDeskState(sp: URLSearchParams): DeskState {
  const tab = sp.get('tab');
  const status = sp.get('status');
  return {
    tab: (DESK_TABS as readonly string[]).includes(tab ?? '') ? (tab as DeskTab) : 'unmatched',
    status:
      status === 'ALL' || (INCOMING_STATUSES as readonly string[]).includes(status ?? '')
        ? (status as DeskState['status'])
        : 'UNMATCHED',
    after: sp.get('after') || null,
  };
}

export function toDeskSearchParams(s: DeskState): URLSearchParams {
  const sp = new URLSearchParams();
  if (s.tab !== 'unmatched') sp.set('tab', s.tab);
  if (s.status !== 'UNMATCHED') sp.set('status', s.status);
  if (s.after) sp.set('after', s.after);
  return sp;
}

/** How long something has waited, the way an operator says it: "45 s", "12 min", "3 h 5 min", "2 d 4 h". */
export const formatAge = (sinceIso: string, now: number): string => durationText(now - new Date(sinceIso).getTime());
