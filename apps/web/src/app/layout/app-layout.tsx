import { AppShell } from '@mantine/core';
import { useDisclosure, useMediaQuery, useReducedMotion } from '@mantine/hooks';
import { useEffect } from 'react';
import { Outlet, matchPath, useLocation } from 'react-router';
import { hasPermission } from '@paydesk/contracts/permissions';
import { autoRetryQuery } from '../../features/settings/api/auto-retry-setting';
import { PAGES } from '../../lib/pages';
import type { ScreenPrefetch } from '../../lib/screen-prefetch';
import { terminalsQuery } from '../../lib/terminals';
import { MerchantScopeGate } from './merchant-scope-gate';
import { NavBar } from './nav-bar';
import { TopBar, useScopeControls } from './top-bar';

const NAVBAR_WIDTH = 283; // px
/** Below this breakpoint (75em) the navigation hides behind the burger and the top bar takes two rows. */
const NAV_BREAKPOINT = 'lg';
/** One row of controls; two (see top-bar.module.css) when the merchant or terminal select is shown on a narrow screen. */
const HEADER_ONE_ROW = 64;
const HEADER_TWO_ROWS = 106;

/** The signed-in layout: left navigation, top bar, content. */
export function AppLayout() {
  const [navOpened, nav] = useDisclosure(false);
  const { pathname, search } = useLocation();
  const closeNav = nav.close; // stable, unlike the handlers object: closing on each render would undo the burger
  // on the way to a page, or to another of the desk's queues (the same page, another tab in its URL)
  useEffect(() => closeNav(), [pathname, search, closeNav]);
  const scope = useScopeControls();
  const narrow = useMediaQuery('(max-width: 74.99em)', false, { getInitialValueInEffect: false });
  // as the theme's dialogs do: no sliding navigation for a user who asked the system for less motion
  const reduceMotion = useReducedMotion();

  return (
    <MerchantScopeGate>
      <AppShell
        layout="alt"
        header={{ height: scope.any ? { base: HEADER_TWO_ROWS, [NAV_BREAKPOINT]: HEADER_ONE_ROW } : HEADER_ONE_ROW }}
        navbar={{ width: NAVBAR_WIDTH, breakpoint: NAV_BREAKPOINT, collapsed: { mobile: !navOpened } }}
        padding="lg"
        transitionDuration={reduceMotion ? 0 : undefined}
      >
        <AppShell.Header>
          <TopBar navOpened={navOpened} onToggleNav={nav.toggle} />
        </AppShell.Header>
        <NavBar hidden={narrow && !navOpened} onClose={closeNav} />
        <AppShell.Main bg="gray.0">
          <Outlet />
        </AppShell.Main>
      </AppShell>
    </MerchantScopeGate>
  );
}

/** The top bar's calls (see TopBar and useScopeControls), asked for while the layout is being built. */
export const prefetchLayout: ScreenPrefetch = ({ queryClient, me, merchantId, pathname }) => {
  if (me.mustChangePassword) return;
  if (matchPath(PAGES.Invoices, pathname) || matchPath(PAGES.Reports, pathname))
    void queryClient.prefetchQuery(terminalsQuery(merchantId));
  if (hasPermission(me.permissions, 'settings.read')) void queryClient.prefetchQuery(autoRetryQuery);
};
