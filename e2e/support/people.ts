import { request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { expect, logIn } from './auth';

/** Users made for one test, so that no demo user is left changed (other specs share the server and database). */
export const suffix = () => Math.random().toString(36).slice(2, 7);

/**
 * A signed-in API session, as a browser would have after Log In: its requests say they come from the app's own
 * origin, as a browser's do (the server refuses a write made with the session cookie without it).
 */
export async function apiSession(baseURL: string, username: string, password: string): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { origin: new URL(baseURL).origin } });
  await logIn(api, baseURL, username, password);
  return api;
}

export type Colleague = { id: string; username: string; password: string; name: string };

/**
 * A new user made by `creator` (through the API, as the Team page does) who has already replaced the one-time
 * password, so the browser signs in with a known password.
 */
export async function newColleague(
  baseURL: string,
  creator: APIRequestContext,
  opts: { role: string; merchantId?: string; prefix?: string },
): Promise<Colleague> {
  const roles = (await (await creator.get('/api/v1/roles')).json()).data as { id: number; name: string }[];
  const role = roles.find((r) => r.name === opts.role);
  if (!role) throw new Error(`No role ${opts.role}`);
  const username = `${opts.prefix ?? 'e2e-user'}-${suffix()}`;
  const created = await creator.post('/api/v1/users', {
    data: {
      username,
      firstName: 'Malika',
      lastName: 'Rahimova',
      roleId: role.id,
      ...(opts.merchantId ? { merchantId: opts.merchantId } : {}),
    },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const { user, temporaryPassword } = (await created.json()).data;
  const password = `e2e-${suffix()}-chosen-${suffix()}`;
  const self = await apiSession(baseURL, username, temporaryPassword);
  const changed = await self.post('/api/v1/user/change_password', {
    data: { currentPassword: temporaryPassword, newPassword: password },
  });
  expect(changed.ok(), await changed.text()).toBe(true);
  await self.dispose();
  return { id: user.id, username, password, name: 'Malika Rahimova' };
}
