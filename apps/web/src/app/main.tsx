import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { setSessionStepRequiredHandler, setUnauthorizedHandler } from '../lib/api';
import { createQueryClient } from '../lib/query-client';
import { meQueryKey } from '../lib/session';
import { clearSession, isSignedIn } from '../lib/session-actions';
import { Providers } from './providers';
import { createAppRouter } from './router';

const queryClient = createQueryClient();
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
