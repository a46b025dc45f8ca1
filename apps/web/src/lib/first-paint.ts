import { createContext, use, useId, useLayoutEffect } from 'react';

/**
 * The first screen of a visit appears whole (docs/performance.md, "First-paint holds"): the signed-in layout and its
 * screen are built out of sight while their first calls travel, and shown at once when the parts that would otherwise
 * grow after the first paint (finance tiles whose currencies are not known yet, the list's rows, the saved views above
 * them) have what they need. Nothing on screen moves as answers arrive: no layout shift, and the page is painted once.
 *
 * A part holds the first paint with `useFirstPaintHold(ready)`; the holder (MerchantScopeGate) shows the content
 * once every mounted hold is ready, or after FIRST_PAINT_MAX_WAIT_MS whatever the calls do. Later screens of the
 * visit, and parts mounted after the first paint, are not held.
 */
export type FirstPaintHolds = {
  /** a part's readiness, from its layout effect */
  set: (id: string, ready: boolean) => void;
  /** a part that unmounts no longer holds */
  remove: (id: string) => void;
};

export const FirstPaintContext = createContext<FirstPaintHolds | null>(null);

/**
 * The longest the first screen is kept out of sight for its calls (from when it has been built): past it, it shows
 * with its placeholders, so a slow call (a merchant's sums on a large ledger) never hides the list for long.
 */
export const FIRST_PAINT_MAX_WAIT_MS = 1500;

/** Keeps the first paint of the visit until `ready` (see FirstPaintContext); no effect elsewhere. */
export function useFirstPaintHold(ready: boolean) {
  const holds = use(FirstPaintContext);
  const id = useId();
  useLayoutEffect(() => holds?.set(id, ready), [holds, id, ready]);
  useLayoutEffect(() => () => holds?.remove(id), [holds, id]);
}

/**
 * The holder's side: `arm()` once the content has been committed (the parts' layout effects have run, so every
 * hold of the first screen is registered), then `onReveal` is called once, when no hold is left unready.
 */
export function createFirstPaintHolds(onReveal: () => void): FirstPaintHolds & { arm: () => void } {
  const holds = new Map<string, boolean>();
  let armed = false;
  let revealed = false;
  const check = () => {
    if (!armed || revealed) return;
    for (const ready of holds.values()) if (!ready) return;
    revealed = true;
    onReveal();
  };
  return {
    set: (id, ready) => {
      holds.set(id, ready);
      check();
    },
    remove: (id) => {
      holds.delete(id);
      check();
    },
    arm: () => {
      armed = true;
      check();
    },
  };
}
