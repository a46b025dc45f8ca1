import { notificationListQuery, notificationListResponse } from '../notifications';
import { routeSpec } from '../route-spec';

/** Routes of the notifications module (see route-spec.ts). */
export const notificationRouteSpecs = {
  'GET /api/v1/notifications': routeSpec({
    api: 'back-office',
    tags: ['Notifications'],
    method: 'GET',
    path: '/api/v1/notifications',
    operationId: 'listNotifications',
    summary: 'Alerts that need a person',
    description:
      'Derived from the current state: a terminal whose success rate over the last hour is below its low threshold, ' +
      'a callback endpoint that refused 5 deliveries in a row, unmatched money older than an hour, payouts with a ' +
      'provider over an hour, contradictions and paused provider accounts. "In process" while the condition holds, ' +
      '"Closed" for 24 h after the records show it resolved. Each user sees only what the permissions let them see ' +
      'elsewhere: platform staff with exceptions.read the desk’s kinds; success rates with data.terminal.statistic ' +
      'and failing endpoints with merchant.callback.read, for their own merchant (every merchant for platform staff ' +
      'with merchant.rw.all). A user who may see none gets an empty list.',
    // every signed-in user: what each may see is decided per kind (contracts' visibleNotificationKinds)
    access: 'session',
    query: notificationListQuery,
    responses: { 200: notificationListResponse },
  }),
};
