import './mantine-styles';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { setSessionStepRequiredHandler, setUnauthorizedHandler } from '../lib/api';
import { createQueryClient } from '../lib/query-client';
import { hasPermission } from '@paydesk/contracts/permissions';
import { merchantsQuery } from '../lib/merchant';
import { meQuery, meQueryKey } from '../lib/session';
import { clearSession, isSignedIn } from '../lib/session-actions';
import { Providers } from './providers';
import { createAppRouter, preloadScreens } from './router';

const queryClient = createQueryClient();
// The session call starts now rather than after the first render, and so does the merchant list for a user who
// picks the merchant (the signed-in layout waits for both); the chunks of the screen being opened load meanwhile.
void queryClient.prefetchQuery(meQuery).then(() => {
  const me = queryClient.getQueryData(meQuery.queryKey);
  if (me && !me.mustChangePassword && hasPermission(me.permissions, 'merchant.rw.all'))
    void queryClient.prefetchQuery(merchantsQuery);
});
preloadScreens(window.location.pathname);
const router = createAppRouter();

// A 401 from any back-office call means the session is gone (SPEC §4).
setUnauthorizedHandler(() => {
  if (isSignedIn(queryClient)) clearSession(queryClient);
});
// The server wants a step first (a new password after an administrator set one, or two-factor sign-in the
// organisation requires): reload the user, whose mustChangePassword / mustSetUpTwoFactor flags send every
// route to that step.
setSessionStepRequiredHandler(() => {
  void queryClient.invalidateQueries({ queryKey: meQueryKey });
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
