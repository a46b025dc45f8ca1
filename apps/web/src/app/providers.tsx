import { useEffect, useState, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { Notifications, notificationsStore } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { TOAST_AUTO_CLOSE_MS } from '../components/toast';
import { cssVariablesResolver, theme } from './theme';

export function Providers({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
      <ToastHost />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}

/**
 * The toasts' host (six positioned containers in a portal) is mounted with the first toast rather than with the
 * page: it is a fair part of the first render of every screen, and most visits show no toast for a while. A toast
 * shown before the host mounts is in the store and appears as the host mounts.
 */
function ToastHost() {
  const [used, setUsed] = useState(() => notificationsStore.getState().notifications.length > 0);
  useEffect(() => {
    if (used) return;
    const check = () => {
      if (notificationsStore.getState().notifications.length > 0) setUsed(true);
    };
    const unsubscribe = notificationsStore.subscribe(check);
    check();
    return unsubscribe;
  }, [used]);
  return used ? <Notifications position="top-right" autoClose={TOAST_AUTO_CLOSE_MS} /> : null;
}
