import { Suspense, lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, createBrowserRouter, type RouteObject } from 'react-router';
import { FullPageLoader, SectionLoader } from '../components/full-page-loader';
import { ROUTES } from '../lib/routes';
import type { Permission } from '@paydesk/contracts/permissions';
import { PublicOnly, RequireAuth, RequirePermission } from './guards';
import { AppLayout } from './layout/app-layout';
import { RouteError } from './route-error';

// One chunk per feature page: the shell stays small and a screen's code loads when it is opened.
const LoginPage = lazy(() => import('../features/auth/pages/login-page'));
const InvoicesPage = lazy(() => import('../features/invoices/pages/invoices-page'));
const InvoiceDetailsPage = lazy(() => import('../features/invoices/pages/invoice-details-page'));
const ReportsPage = lazy(() => import('../features/reports/pages/reports-page'));
const MerchantPage = lazy(() => import('../features/merchant/pages/merchant-page'));
const SettingsPage = lazy(() => import('../features/settings/pages/settings-page'));
const ChangePasswordPage = lazy(() => import('../features/settings/pages/change-password-page'));
// with the QR code library: loaded only when two-factor sign-in is being set up
const TwoFactorPage = lazy(() => import('../features/settings/pages/two-factor-page'));
const TwoFactorSetupPage = lazy(() => import('../features/settings/pages/two-factor-setup-page'));
const TerminalsPage = lazy(() => import('../features/terminals/pages/terminals-page'));
const MonitoringPage = lazy(() => import('../features/monitoring/pages/monitoring-page'));
const NotificationsPage = lazy(() => import('../features/notifications/pages/notifications-page'));
const AccountsPage = lazy(() => import('../features/accounts/pages/accounts-page'));
const AccountDetailsPage = lazy(() => import('../features/accounts/pages/account-details-page'));
const TeamPage = lazy(() => import('../features/team/pages/team-page'));
const AuditPage = lazy(() => import('../features/audit/pages/audit-page'));

const page = (Page: LazyExoticComponent<ComponentType>) => (
  <Suspense fallback={<SectionLoader />}>
    <Page />
  </Suspense>
);

/** A page only some roles open: the others see why, in words (the server refuses its calls anyway). */
const guarded = (title: string, all: Permission[], Page: LazyExoticComponent<ComponentType>) => (
  <RequirePermission title={title} all={all}>
    {page(Page)}
  </RequirePermission>
);

/** Route names and paths of SPEC §2; `handle.name` carries the route name, `handle.title` the page's name in words. */
const routes: RouteObject[] = [
  {
    path: ROUTES.Login,
    handle: { name: 'Login' },
    element: (
      <PublicOnly>
        <Suspense fallback={<FullPageLoader />}>
          <LoginPage />
        </Suspense>
      </PublicOnly>
    ),
    errorElement: <RouteError />,
  },
  {
    // the setup an organisation requires: a page of its own, outside the layout whose calls the server refuses
    path: ROUTES.TwoFactorSetup,
    handle: { name: 'TwoFactorSetup' },
    element: (
      <RequireAuth>
        <Suspense fallback={<FullPageLoader />}>
          <TwoFactorSetupPage />
        </Suspense>
      </RequireAuth>
    ),
    errorElement: <RouteError />,
  },
  {
    element: (
      <RequireAuth>
        <AppLayout />
      </RequireAuth>
    ),
    errorElement: <RouteError />,
    children: [
      { path: ROUTES.Invoices, handle: { name: 'Invoices', title: 'Transactions' }, element: page(InvoicesPage) },
      {
        path: '/invoices/:id',
        handle: { name: 'InvoiceDetails', title: 'this transaction' },
        element: page(InvoiceDetailsPage),
      },
      {
        path: ROUTES.Reports,
        handle: { name: 'Reports', title: 'Reports' },
        element: guarded('Reports', ['merchant.read.report'], ReportsPage),
      },
      { path: ROUTES.Merchant, handle: { name: 'Merchant', title: 'Merchant' }, element: page(MerchantPage) },
      { path: ROUTES.Settings, handle: { name: 'Settings', title: 'Settings' }, element: page(SettingsPage) },
      {
        path: ROUTES.ChangePassword,
        handle: { name: 'ChangePassword', title: 'Change password' },
        element: page(ChangePasswordPage),
      },
      {
        path: ROUTES.TwoFactor,
        handle: { name: 'TwoFactor', title: 'Two-factor sign-in' },
        element: page(TwoFactorPage),
      },
      { path: ROUTES.Terminals, handle: { name: 'Terminals', title: 'Terminals' }, element: page(TerminalsPage) },
      {
        path: ROUTES.Monitoring,
        handle: { name: 'Monitoring', title: 'Monitoring' },
        element: guarded('Monitoring', ['terminal.statistic.settings', 'data.terminal.statistic'], MonitoringPage),
      },
      {
        path: ROUTES.Notifications,
        handle: { name: 'Notifications', title: 'Notifications' },
        element: page(NotificationsPage),
      },
      { path: ROUTES.Accounts, handle: { name: 'Accounts', title: 'Accounts' }, element: page(AccountsPage) },
      {
        path: '/accounts/:id',
        handle: { name: 'AccountDetails', title: 'this account' },
        element: page(AccountDetailsPage),
      },
      {
        path: ROUTES.Team,
        handle: { name: 'Team', title: 'Team' },
        element: guarded('Team', ['users.manage'], TeamPage),
      },
      {
        path: ROUTES.Audit,
        handle: { name: 'Audit', title: 'Audit' },
        element: guarded('Audit', ['audit.read'], AuditPage),
      },
    ],
  },
  // Any unknown path goes to Login, which forwards an authorised user to the invoices list.
  { path: '*', element: <Navigate to={ROUTES.Login} replace /> },
];

export const createAppRouter = () => createBrowserRouter(routes);
