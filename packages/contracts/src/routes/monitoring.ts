import {
  statisticSettingsQuery,
  statisticSettingsResponse,
  terminalStatisticQuery,
  terminalStatisticResponse,
} from '../monitoring';
import { routeSpec } from '../route-spec';

const common = {
  api: 'back-office',
  tags: ['Monitoring'],
  method: 'GET',
} as const;

/** Routes of the monitoring module (see route-spec.ts). */
export const monitoringRouteSpecs = {
  'GET /api/data/v1/terminal': routeSpec({
    ...common,
    path: '/api/data/v1/terminal',
    operationId: 'getTerminalStatistics',
    summary: 'Get per-terminal invoice statistics',
    description:
      "Outcome counts and percents of the invoices created in the last `minutes` (at most a day) for each of the merchant's terminals, with the success rate per time bucket on UTC clock boundaries. " +
      'Percents are shares of the invoices that have finished (DONE, CANCELED, DECLINED): invoices still under way ' +
      'have no outcome yet. When none has finished a percent is null (undefined), never 0.',
    access: { all: ['data.terminal.statistic'] },
    query: terminalStatisticQuery,
    responses: { 200: terminalStatisticResponse },
  }),
  'GET /api/v1/terminal/statistic': routeSpec({
    ...common,
    path: '/api/v1/terminal/statistic',
    operationId: 'listMonitoredMerchants',
    summary: 'List the merchants and terminals one may monitor',
    description:
      'Platform staff (merchant.rw.all) get every merchant (the first 50) with its terminals; others get their own merchant.',
    access: { all: ['terminal.statistic.settings'] },
    query: statisticSettingsQuery,
    responses: { 200: statisticSettingsResponse },
  }),
};
