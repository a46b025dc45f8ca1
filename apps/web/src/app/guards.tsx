import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { FullPageLoader } from '../components/full-page-loader';
import { ROUTES } from '../lib/routes';
import { CurrentUserContext, meQuery } from '../lib/session';

/** Protected layout: authorised means the current-user call succeeds; if it fails the user is signed out (SPEC §4). */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { data: me, isPending, isError } = useQuery(meQuery);
  if (isPending) return <FullPageLoader label="Loading your session" />;
  if (isError || !me) return <Navigate to={ROUTES.Login} replace />;
  return <CurrentUserContext value={me}>{children}</CurrentUserContext>;
}

/** Login: an already authorised user goes straight to the invoices list. */
export function PublicOnly({ children }: { children: ReactNode }) {
  const { data: me, isPending } = useQuery(meQuery);
  if (isPending) return <FullPageLoader label="Loading your session" />;
  if (me) return <Navigate to={ROUTES.Invoices} replace />;
  return children;
}
