import { Suspense, lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { Navigate, createBrowserRouter, matchRoutes, type RouteObject } from 'react-router';
import { FullPageLoader, SectionLoader } from '../components/full-page-loader';
import { PAGES } from '../lib/pages';
import type { ScreenPrefetch, ScreenPrefetchContext } from '../lib/screen-prefetch';
import type { Permission } from '@paydesk/contracts/permissions';
import { PublicOnly, RequireAuth, RequirePermission } from './guards';
import { RouteError } from './route-error';

type Module = { default: ComponentType; prefetch?: ScreenPrefetch };
/** A lazily loaded screen whose chunk can also be asked for ahead of its first render. */
type LazyScreen = LazyExoticComponent<ComponentType> & { preload: () => Promise<Module> };
const screen = (load: () => Promise<Module>): LazyScreen => {
  let loaded: Module | undefined;
  let loading: Promise<Module> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (m) => (loaded = m),
      (e: unknown) => {
        loading = undefined; // a later attempt may succeed (the route shows the error meanwhile)
        throw e;
      },
    ));
  // A screen whose chunk has already arrived renders at once: React reads a thenable that resolves synchronously
  // without suspending, so the fallback is not shown and the tree not rendered twice.
  const now = (m: Module) => ({ then: (resolve: (m: Module) => void) => resolve(m) }) as unknown as Promise<Module>;
  return Object.assign(
    lazy(() => (loaded ? now(loaded) : preload())),
    { preload },
  );
};

// One chunk per feature page: the shell stays small and a screen's code loads when it is opened.
const LoginPage = screen(() => import('../features/auth/pages/login-page'));
// the signed-in layout (navigation, top bar and their selects): not needed to show Login
const loadSignedIn = () => import('./signed-in-screens');
const AppLayout = screen(() => loadSignedIn().then((m) => ({ default: m.AppLayout, prefetch: m.prefetchLayout })));
const InvoicesPage = screen(() =>
  loadSignedIn().then((m) => ({ default: m.InvoicesPage, prefetch: m.prefetchInvoices })),
);
const InvoiceDetailsPage = screen(() => import('../features/invoices/pages/invoice-details-page'));
const ReportsPage = screen(() => import('../features/reports/pages/reports-page'));
const MerchantPage = screen(() => import('../features/merchant/pages/merchant-page'));
const SettingsPage = screen(() => import('../features/settings/pages/settings-page'));
const ChangePasswordPage = screen(() => import('../features/settings/pages/change-password-page'));
// with the QR code library: loaded only when two-factor sign-in is being set up
const TwoFactorPage = screen(() => import('../features/settings/pages/two-factor-page'));
const TwoFactorSetupPage = screen(() => import('../features/settings/pages/two-factor-setup-page'));
const TerminalsPage = screen(() => import('../features/terminals/pages/terminals-page'));
// with the charts (recharts): loaded only when Monitoring is opened
const MonitoringPage = screen(() => import('../features/monitoring/pages/monitoring-page'));
const NotificationsPage = screen(() => import('../features/notifications/pages/notifications-page'));
const AccountsPage = screen(() => import('../features/accounts/pages/accounts-page'));
const AccountDetailsPage = screen(() => import('../features/accounts/pages/account-details-page'));
const TeamPage = screen(() => import('../features/team/pages/team-page'));
const AuditPage = screen(() => import('../features/audit/pages/audit-page'));
const ExceptionsPage = screen(() => import('../features/exceptions/pages/exceptions-page'));
const ApprovalsPage = screen(() => import('../features/approvals/pages/approvals-page'));

/** The screens each route renders, so that the ones of the address being opened load alongside the session call. */
const screens = new WeakMap<RouteObject, LazyScreen[]>();
const route = (r: RouteObject, ...shown: LazyScreen[]): RouteObject => {
  screens.set(r, shown);
  return r;
};

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

/** The back-office routes; `handle.name` carries the route name, `handle.title` the page's name in words. */
const routes: RouteObject[] = [
  route(
    {
      path: PAGES.Login,
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
    LoginPage,
  ),
  route(
    {
      // the setup an organisation requires: a page of its own, outside the layout whose calls the server refuses
      path: PAGES.TwoFactorSetup,
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
    TwoFactorSetupPage,
  ),
  route(
    {
      element: (
        <RequireAuth>
          <Suspense fallback={<FullPageLoader />}>
            <AppLayout />
          </Suspense>
        </RequireAuth>
      ),
      errorElement: <RouteError />,
      children: [
        route(
          { path: PAGES.Invoices, handle: { name: 'Invoices', title: 'Transactions' }, element: page(InvoicesPage) },
          InvoicesPage,
        ),
        route(
          {
            path: '/invoices/:id',
            handle: { name: 'InvoiceDetails', title: 'this transaction' },
            element: page(InvoiceDetailsPage),
          },
          InvoiceDetailsPage,
        ),
        route(
          {
            path: PAGES.Reports,
            handle: { name: 'Reports', title: 'Reports' },
            element: guarded('Reports', ['merchant.read.report'], ReportsPage),
          },
          ReportsPage,
        ),
        route(
          { path: PAGES.Merchant, handle: { name: 'Merchant', title: 'Merchant' }, element: page(MerchantPage) },
          MerchantPage,
        ),
        route(
          { path: PAGES.Settings, handle: { name: 'Settings', title: 'Settings' }, element: page(SettingsPage) },
          SettingsPage,
        ),
        route(
          {
            path: PAGES.ChangePassword,
            handle: { name: 'ChangePassword', title: 'Change password' },
            element: page(ChangePasswordPage),
          },
          ChangePasswordPage,
        ),
        route(
          {
            path: PAGES.TwoFactor,
            handle: { name: 'TwoFactor', title: 'Two-factor sign-in' },
            element: page(TwoFactorPage),
          },
          TwoFactorPage,
        ),
        route(
          { path: PAGES.Terminals, handle: { name: 'Terminals', title: 'Terminals' }, element: page(TerminalsPage) },
          TerminalsPage,
        ),
        route(
          {
            path: PAGES.Monitoring,
            handle: { name: 'Monitoring', title: 'Monitoring' },
            element: guarded('Monitoring', ['terminal.statistic.settings', 'data.terminal.statistic'], MonitoringPage),
          },
          MonitoringPage,
        ),
        route(
          {
            path: PAGES.Notifications,
            handle: { name: 'Notifications', title: 'Notifications' },
            element: page(NotificationsPage),
          },
          NotificationsPage,
        ),
        route(
          { path: PAGES.Accounts, handle: { name: 'Accounts', title: 'Accounts' }, element: page(AccountsPage) },
          AccountsPage,
        ),
        route(
          {
            path: '/accounts/:id',
            handle: { name: 'AccountDetails', title: 'this account' },
            element: page(AccountDetailsPage),
          },
          AccountDetailsPage,
        ),
        route(
          {
            path: PAGES.Team,
            handle: { name: 'Team', title: 'Team' },
            element: guarded('Team', ['users.manage'], TeamPage),
          },
          TeamPage,
        ),
        route(
          {
            path: PAGES.Audit,
            handle: { name: 'Audit', title: 'Audit' },
            element: guarded('Audit', ['audit.read'], AuditPage),
          },
          AuditPage,
        ),
        route(
          {
            path: PAGES.Exceptions,
            handle: { name: 'Exceptions', title: 'Exceptions' },
            element: guarded('Exceptions', ['exceptions.read'], ExceptionsPage),
          },
          ExceptionsPage,
        ),
        route(
          {
            // who may decide what depends on each request's action: the page says so itself
            path: PAGES.Approvals,
            handle: { name: 'Approvals', title: 'Approvals' },
            element: page(ApprovalsPage),
          },
          ApprovalsPage,
        ),
      ],
    },
    AppLayout,
  ),
  // Any unknown path goes to Login, which forwards an authorised user to the invoices list.
  { path: '*', element: <Navigate to={PAGES.Login} replace /> },
];

/**
 * Starts loading the chunks of the screens a path shows (the layout and the page), so that they arrive while the
 * session is being checked instead of after it. A chunk that fails here is left to the screen's own render, which
 * shows the route's error.
 */
export function preloadScreens(pathname: string) {
  for (const m of matchRoutes(routes, pathname) ?? [])
    for (const s of screens.get(m.route) ?? []) s.preload().catch(() => undefined);
}

/**
 * Asks for the calls the screens of a path make on their first render (their modules' `prefetch`), once the
 * session and the merchant scope are settled: they then travel while the screens are being built.
 */
let prefetchedFor: string | undefined;

export function prefetchScreenData(ctx: ScreenPrefetchContext) {
  // once per user, address and merchant: main.tsx asks as soon as the session and the scope are known, and the scope
  // gate again when it has rendered (a second prefetch of an answer already in would fetch it anew); after a sign-out
  // the next user's first screen is prefetched again
  const key = `${ctx.me.id} ${ctx.merchantId ?? ''} ${ctx.pathname}?${ctx.search.toString()}`;
  if (key === prefetchedFor) return;
  prefetchedFor = key;
  for (const m of matchRoutes(routes, ctx.pathname) ?? [])
    for (const s of screens.get(m.route) ?? [])
      s.preload()
        .then((mod) => mod.prefetch?.(ctx))
        .catch(() => undefined);
}

export const createAppRouter = () => createBrowserRouter(routes);
