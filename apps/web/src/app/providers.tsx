import { useEffect, useState, type ReactNode } from 'react';
import { MantineProvider, createTheme, type CSSVariablesResolver } from '@mantine/core';
import { Notifications, notificationsStore } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { TOAST_AUTO_CLOSE_MS } from '../components/toast';

const theme = createTheme({
  primaryColor: 'blue',
  // Shade 8: white text on filled buttons meets WCAG AA contrast (shade 6 does not).
  primaryShade: { light: 8, dark: 8 },
  defaultRadius: 'md',
  cursorType: 'pointer',
});

// Mantine's default dimmed and placeholder greys are below WCAG AA contrast on white; a darker grey reads better all day.
const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // between gray-6 and gray-7: 4.7:1 on white, still lighter than typed text
    '--mantine-color-placeholder': '#6c757d',
  },
  dark: {},
});

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
