import { authRouteSpecs } from './routes/auth';
import { userRouteSpecs } from './routes/users';
import { auditRouteSpecs } from './routes/audit';
import { merchantRouteSpecs } from './routes/merchants';
import { referenceRouteSpecs } from './routes/references';
import { settingRouteSpecs } from './routes/settings';
import { terminalRouteSpecs } from './routes/terminals';
import { accountRouteSpecs } from './routes/accounts';
import { merchantApiRouteSpecs } from './routes/merchant-api';
import { paymentFormRouteSpecs } from './routes/payment-form';
import { providerApiRouteSpecs } from './routes/provider-api';
import { ledgerRouteSpecs } from './routes/ledger';
import { callbackRouteSpecs } from './routes/callbacks';
import { engineRouteSpecs } from './routes/engine';
import { invoiceRouteSpecs } from './routes/invoices';
import { supportRouteSpecs } from './routes/support';
import { monitoringRouteSpecs } from './routes/monitoring';
import { reportRouteSpecs } from './routes/reports';
import { settlementRouteSpecs } from './routes/settlements';
import { savedViewRouteSpecs } from './routes/saved-views';
import { approvalRouteSpecs } from './routes/approvals';
import { exceptionRouteSpecs } from './routes/exceptions';
import { notificationRouteSpecs } from './routes/notifications';
import { accountHealthRouteSpecs } from './routes/account-health';
import { statementRouteSpecs } from './routes/statements';

/**
 * Every route of the API, keyed `METHOD /path`: the server registers each from here, the
 * OpenAPI documents are generated from here, and the web's client is typed from here.
 */
export const API_ROUTES = {
  ...authRouteSpecs,
  ...userRouteSpecs,
  ...auditRouteSpecs,
  ...merchantRouteSpecs,
  ...referenceRouteSpecs,
  ...settingRouteSpecs,
  ...terminalRouteSpecs,
  ...accountRouteSpecs,
  ...merchantApiRouteSpecs,
  ...paymentFormRouteSpecs,
  ...providerApiRouteSpecs,
  ...ledgerRouteSpecs,
  ...callbackRouteSpecs,
  ...engineRouteSpecs,
  ...invoiceRouteSpecs,
  ...supportRouteSpecs,
  ...monitoringRouteSpecs,
  ...reportRouteSpecs,
  ...settlementRouteSpecs,
  ...savedViewRouteSpecs,
  ...exceptionRouteSpecs,
  ...approvalRouteSpecs,
  ...notificationRouteSpecs,
  ...accountHealthRouteSpecs,
  ...statementRouteSpecs,
};

export type Routes = typeof API_ROUTES;
export type RouteKey = keyof Routes;
