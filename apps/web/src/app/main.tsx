import './mantine-styles';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { setSessionStepRequiredHandler, setUnauthorizedHandler } from '../lib/api';
import { createQueryClient } from '../lib/query-client';
import { hasPermission } from '@paydesk/contracts/permissions';
import { merchantsQuery } from '../lib/merchant';
import { pickMerchant, rememberedMerchantStore, scopedMerchantStore } from '../lib/merchant-scope';
import { meQuery, meQueryKey } from '../lib/session';
import { clearSession, isSignedIn } from '../lib/session-actions';
import { Providers } from './providers';
import { createAppRouter, prefetchScreenData, preloadScreens } from './router';
import { ScreenDataPrefetch } from '../lib/screen-prefetch';

/**
 * The app's stylesheet, which index.html fetches as a preload so that it does not hold the page's first paint (its
 * own loader; vite.config.ts entryStylesAfterFirstPaint), applied where it stands in <head>: resolves once it has
 * loaded (or failed: the app then renders unstyled rather than not at all). None in dev.
 */
function applyEntryStyles(): Promise<unknown> {
  const preloads = document.querySelectorAll<HTMLLinkElement>('link[data-entry-style]');
  return Promise.all(
    [...preloads].map(
      (preload) =>
        new Promise<void>((resolve) => {
          const sheet = document.createElement('link');
          sheet.rel = 'stylesheet';
          sheet.href = preload.href;
          if (preload.crossOrigin !== null) sheet.crossOrigin = preload.crossOrigin;
          sheet.onload = sheet.onerror = () => resolve();
          preload.after(sheet);
        }),
    ),
  );
}

// first: a screen's chunk imported before it is applied would add the stylesheet again, after the screen's own
const entryStyles = applyEntryStyles();
const queryClient = createQueryClient();
// The session call starts now rather than after the first render, then the merchant list for a user who picks the
// merchant, then — the scope settled as the scope gate settles it — the calls of the screen being opened: all
// outside React, whose first commits (the loader, the lazy screens) would hold them back. The chunks of the screen
// load meanwhile.
void queryClient.prefetchQuery(meQuery).then(async () => {
  const me = queryClient.getQueryData(meQuery.queryKey);
  if (!me || me.mustChangePassword || me.mustSetUpTwoFactor) return;
  let merchantId = me.merchantId;
  if (hasPermission(me.permissions, 'merchant.rw.all')) {
    await queryClient.prefetchQuery(merchantsQuery);
    const list = queryClient.getQueryData(merchantsQuery.queryKey)?.data;
    if (!list) return;
    const picked = pickMerchant(list, rememberedMerchantStore.get());
    scopedMerchantStore.set(picked);
    merchantId = picked ?? me.merchantId;
  }
  const { pathname, search } = window.location;
  prefetchScreenData({ queryClient, me, merchantId, pathname, search: new URLSearchParams(search) });
});
preloadScreens(window.location.pathname);
const router = createAppRouter();

// A 401 from any back-office call means the session is gone.
setUnauthorizedHandler(() => {
  if (isSignedIn(queryClient)) clearSession(queryClient);
});
// The server wants a step first (a new password after an administrator set one, or two-factor sign-in the
// organisation requires): reload the user, whose mustChangePassword / mustSetUpTwoFactor flags send every
// route to that step.
setSessionStepRequiredHandler(() => {
  void queryClient.invalidateQueries({ queryKey: meQueryKey });
});

void entryStyles.then(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Providers queryClient={queryClient}>
        <ScreenDataPrefetch.Provider value={prefetchScreenData}>
          <RouterProvider router={router} />
        </ScreenDataPrefetch.Provider>
      </Providers>
    </StrictMode>,
  ),
);
