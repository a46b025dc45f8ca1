import { useContext, useDeferredValue, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Center } from '@mantine/core';
import { FullPageLoader } from '../../components/full-page-loader';
import { FIRST_PAINT_MAX_WAIT_MS, FirstPaintContext, createFirstPaintHolds } from '../../lib/first-paint';
import { merchantsQuery } from '../../lib/merchant';
import { pickMerchant, rememberedMerchantStore, scopedMerchantStore } from '../../lib/merchant-scope';
import { useStore } from '../../lib/persisted-store';
import { useCan, useCurrentUser } from '../../lib/session';
import { ScreenDataPrefetch } from '../../lib/screen-prefetch';

/**
 * Settles which merchant back-office calls are scoped to before any screen fetches (?merchantId=, which only
 * merchant.rw.all may send): for merchant.rw.all users the remembered choice if it still exists, else the first
 * merchant; for everyone else none (the server uses their own merchant).
 */
export function MerchantScopeGate({ children }: { children: ReactNode }) {
  // with a one-time password the merchant list is refused too: nothing to scope until a new password is set
  const me = useCurrentUser();
  const prefetchScreenData = useContext(ScreenDataPrefetch);
  const canPickMerchant = useCan('merchant.rw.all') && !me.mustChangePassword;
  const merchants = useQuery({ ...merchantsQuery, enabled: canPickMerchant });
  const remembered = useStore(rememberedMerchantStore);
  const scoped = useStore(scopedMerchantStore);

  const list = merchants.data?.data;
  const wanted = !canPickMerchant ? null : list ? pickMerchant(list, remembered) : undefined; // undefined: loading

  // Once the scope is known, the calls of the screen being opened start at once (in the commit, before the
  // screen's background render below), rather than when that render is done.
  const queryClient = useQueryClient();
  const { pathname, search } = useLocation();
  // (main.tsx usually has asked for them already, outside React: then this finds them asked for)
  const prefetched = useRef(false);
  useLayoutEffect(() => {
    if (wanted === undefined) return;
    if (scoped !== wanted) scopedMerchantStore.set(wanted);
    if (prefetched.current) return;
    prefetched.current = true;
    const merchantId = wanted ?? me.merchantId;
    prefetchScreenData({ queryClient, me, merchantId, pathname, search: new URLSearchParams(search) });
  }, [wanted, scoped, me, queryClient, pathname, search, prefetchScreenData]);

  const settled = wanted !== undefined && scoped === wanted;
  // The signed-in layout and its screen are the biggest render of a visit: done as a background render, which React
  // splits into short slices, so that the page stays responsive while it is built (the loader shows meanwhile).
  const shown = useDeferredValue(settled, false);

  if (canPickMerchant && merchants.isError) {
    return (
      <Center h="100dvh" p="md">
        <Alert color="red" title="Could not load the merchants">
          {merchants.error.message}
          <Button mt="md" size="xs" onClick={() => void merchants.refetch()}>
            Try again
          </Button>
        </Alert>
      </Center>
    );
  }
  if (!settled || !shown) return <FullPageLoader label="Loading merchants" />;
  return <FirstPaint>{children}</FirstPaint>;
}

/**
 * The signed-in layout's first screen is built out of sight (display: none: nothing is laid out, so nothing
 * shifts) and shown at once when its parts are ready (see lib/first-paint.ts); the loader stays meanwhile. Shown,
 * the wrapper is `display: contents`, as if absent.
 */
function FirstPaint({ children }: { children: ReactNode }) {
  const [revealed, setRevealed] = useState(false);
  const [holds] = useState(() => createFirstPaintHolds(() => setRevealed(true)));
  // after the parts' layout effects of the first commit: every hold of the first screen is known
  useLayoutEffect(() => holds.arm(), [holds]);
  useEffect(() => {
    if (revealed) return;
    const timer = setTimeout(() => setRevealed(true), FIRST_PAINT_MAX_WAIT_MS);
    return () => clearTimeout(timer);
  }, [revealed]);
  return (
    // (the same value throughout: the holding parts are not redrawn when the screen is shown)
    <FirstPaintContext value={holds}>
      {!revealed && <FullPageLoader label="Loading" />}
      <div style={{ display: revealed ? 'contents' : 'none' }}>{children}</div>
    </FirstPaintContext>
  );
}
