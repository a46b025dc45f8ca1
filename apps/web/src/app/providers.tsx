import type { ReactNode } from 'react';
import { MantineProvider, createTheme, type CSSVariablesResolver } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
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
      <Notifications position="top-right" autoClose={TOAST_AUTO_CLOSE_MS} />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
