import { authRoutes } from './routes/auth';
import { usersRoutes } from './routes/users';
import { auditRoutes } from './routes/audit';
import { merchantsRoutes } from './routes/merchants';
import { referencesRoutes } from './routes/references';
import { settingsRoutes } from './routes/settings';
import { terminalsRoutes } from './routes/terminals';
import { accountsRoutes } from './routes/accounts';
import { merchantApiRoutes } from './routes/merchant-api';
import { paymentFormRoutes } from './routes/payment-form';
import { providerApiRoutes } from './routes/provider-api';
import { ledgerRoutes } from './routes/ledger';
import { callbacksRoutes } from './routes/callbacks';
import { engineRoutes } from './routes/engine';
import { invoicesRoutes } from './routes/invoices';
import { supportRoutes } from './routes/support';
import { monitoringRoutes } from './routes/monitoring';
import { reportsRoutes } from './routes/reports';
import { settlementsRoutes } from './routes/settlements';
import { savedViewRoutes } from './routes/saved-views';
import { approvalRouteSpecs } from './routes/approvals';
import { exceptionRouteSpecs } from './routes/exceptions';
import { notificationRoutes } from './routes/notifications';
import { accountHealthRouteSpecs } from './routes/account-health';
import { statementRouteSpecs } from './routes/statements';

/**
 * Every route of the API, keyed `METHOD /path` (issue 14): the server registers each from here, the
 * OpenAPI documents are generated from here, and the web's client is typed from here.
 */
export const ROUTES = {
  ...authRoutes,
  ...usersRoutes,
  ...auditRoutes,
  ...merchantsRoutes,
  ...referencesRoutes,
  ...settingsRoutes,
  ...terminalsRoutes,
  ...accountsRoutes,
  ...merchantApiRoutes,
  ...paymentFormRoutes,
  ...providerApiRoutes,
  ...ledgerRoutes,
  ...callbacksRoutes,
  ...engineRoutes,
  ...invoicesRoutes,
  ...supportRoutes,
  ...monitoringRoutes,
  ...reportsRoutes,
  ...settlementsRoutes,
  ...savedViewRoutes,
  ...exceptionRouteSpecs,
  ...approvalRouteSpecs,
  ...notificationRoutes,
  ...accountHealthRouteSpecs,
  ...statementRouteSpecs,
};

export type Routes = typeof ROUTES;
export type RouteKey = keyof Routes;
