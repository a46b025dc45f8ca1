import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { setPasswordChangeRequiredHandler, setUnauthorizedHandler } from '../lib/api';
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
// The server wants a new password first (an administrator set this one): reload the user, whose
// mustChangePassword flag sends every route to Change password.
setPasswordChangeRequiredHandler(() => {
  void queryClient.invalidateQueries({ queryKey: meQueryKey });
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
