import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../lib/context';
import { authRoutes } from './auth/routes';
import { settingsRoutes } from './settings/routes';
import { merchantsRoutes } from './merchants/routes';
import { terminalsRoutes } from './terminals/routes';
import { referencesRoutes } from './references/routes';
import { accountsRoutes } from './accounts/routes';
import { merchantApiRoutes } from './merchant-api/routes';
import { paymentFormRoutes } from './payment-form/routes';
import { providerApiRoutes } from './provider-api/routes';
import { ledgerRoutes } from './ledger/routes';
import { callbacksRoutes } from './callbacks/routes';
import { engineRoutes } from './engine/routes';
import { invoicesRoutes } from './invoices/routes';
import { supportRoutes } from './support/routes';
import { monitoringRoutes } from './monitoring/routes';
import { reportsRoutes } from './reports/routes';
import { settlementsRoutes } from './settlements/routes';
import { usersRoutes } from './users/routes';
import { auditRoutes } from './audit/routes';
import { savedViewsRoutes } from './saved-views/routes';

/** Every domain's routes. One line per module. */
export async function registerModules(app: FastifyInstance, ctx: AppContext) {
  await app.register(authRoutes(ctx));
  await app.register(settingsRoutes(ctx));
  await app.register(merchantsRoutes(ctx));
  await app.register(terminalsRoutes(ctx));
  await app.register(referencesRoutes(ctx));
  await app.register(accountsRoutes(ctx));
  await app.register(merchantApiRoutes(ctx));
  await app.register(paymentFormRoutes(ctx));
  await app.register(providerApiRoutes(ctx));
  await app.register(ledgerRoutes(ctx));
  await app.register(callbacksRoutes(ctx));
  await app.register(engineRoutes(ctx));
  await app.register(invoicesRoutes(ctx));
  await app.register(supportRoutes(ctx));
  await app.register(monitoringRoutes(ctx));
  await app.register(reportsRoutes(ctx));
  await app.register(settlementsRoutes(ctx));
  await app.register(usersRoutes(ctx));
  await app.register(auditRoutes(ctx));
  await app.register(savedViewsRoutes(ctx));
}
