import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { hasPermission, type Permission } from '@paydesk/contracts/permissions';
import { FullPageLoader } from '../components/full-page-loader';
import { PageTitle } from '../components/page-title';
import { Refusal } from '../components/refusal';
import { PAGES } from '../lib/pages';
import { CurrentUserContext, meQuery, usePermissions } from '../lib/session';

/**
 * Protected layout: authorised means the current-user call succeeds; if it fails the user is signed out.
 * A user signed in with a one-time password is kept on Change password until a new one is chosen, then a user
 * whose organisation requires two-factor sign-in on its setup until it is on (the server refuses everything else
 * meanwhile). The setup screen itself decides when it is finished: it shows the recovery codes after the flag
 * is already off.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { data: me, isPending, isError } = useQuery(meQuery);
  const { pathname } = useLocation();
  if (isPending) return <FullPageLoader label="Loading your session" />;
  if (isError || !me) return <Navigate to={PAGES.Login} replace />;
  if (me.mustChangePassword) {
    if (pathname !== PAGES.ChangePassword) return <Navigate to={PAGES.ChangePassword} replace />;
  } else if (me.mustSetUpTwoFactor && pathname !== PAGES.TwoFactorSetup) {
    return <Navigate to={PAGES.TwoFactorSetup} replace />;
  }
  return <CurrentUserContext value={me}>{children}</CurrentUserContext>;
}

/** Login: an already authorised user goes straight to the invoices list. */
export function PublicOnly({ children }: { children: ReactNode }) {
  const { data: me, isPending } = useQuery(meQuery);
  if (isPending) return <FullPageLoader label="Loading your session" />;
  if (me) return <Navigate to={PAGES.Invoices} replace />;
  return children;
}

type RequirePermissionProps = {
  /** the page's title, kept on the refusal so the user knows where they are */
  title: string;
  /** every permission the page needs */
  all: readonly Permission[];
  children: ReactNode;
};

/** A page the user's role does not open shows why in words, never a permission code. */
export function RequirePermission({ title, all, children }: RequirePermissionProps) {
  const perms = usePermissions();
  const missing = all.filter((p) => !hasPermission(perms, p));
  if (missing.length === 0) return children;
  return (
    <>
      <PageTitle title={title} />
      <Refusal missing={missing} />
    </>
  );
}
