import { AppShell } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { MerchantScopeGate } from './merchant-scope-gate';
import { NavBar } from './nav-bar';
import { TopBar } from './top-bar';

const NAVBAR_WIDTH = 283; // SPEC §9

/** The signed-in layout of SPEC §2: left navigation, top bar, content. */
export function AppLayout() {
  const [navOpened, nav] = useDisclosure(false);
  const { pathname } = useLocation();
  useEffect(() => nav.close(), [pathname, nav]);

  return (
    <MerchantScopeGate>
      <AppShell
        layout="alt"
        header={{ height: 64 }}
        navbar={{ width: NAVBAR_WIDTH, breakpoint: 'sm', collapsed: { mobile: !navOpened } }}
        padding="lg"
      >
        <AppShell.Header>
          <TopBar navOpened={navOpened} onToggleNav={nav.toggle} />
        </AppShell.Header>
        <NavBar />
        <AppShell.Main bg="gray.0">
          <Outlet />
        </AppShell.Main>
      </AppShell>
    </MerchantScopeGate>
  );
}
