import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../lib/context';
import { authRoutes } from './auth/routes';
import { settingsRoutes } from './settings/routes';
import { merchantsRoutes } from './merchants/routes';
import { terminalsRoutes } from './terminals/routes';

/** Every domain's routes. One line per module. */
export async function registerModules(app: FastifyInstance, ctx: AppContext) {
  await app.register(authRoutes(ctx));
  await app.register(settingsRoutes(ctx));
  await app.register(merchantsRoutes(ctx));
  await app.register(terminalsRoutes(ctx));
}
