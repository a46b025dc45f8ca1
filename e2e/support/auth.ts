import { expect, test as base, type APIRequestContext, type Page } from '@playwright/test';
import { portOf } from './servers';

export const DEMO_PASSWORD = 'demo-2026';
export const DEMO_ROLES = ['admin', 'ops', 'owner', 'finance', 'support', 'viewer', 'shop2'] as const;
export type DemoRole = (typeof DEMO_ROLES)[number];

/** Fills the Login screen like a user and waits for the invoices list. */
export async function signIn(page: Page, username: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  // Role + accessible name: the visual required asterisk is not part of the name.
  await page.getByRole('textbox', { name: 'Username', exact: true }).fill(username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  const heading = page.getByRole('heading', { name: 'Transactions', level: 1 });
  const toast = page.getByRole('alert');
  await expect(heading.or(toast).first()).toBeVisible();
  if (!(await heading.isVisible()))
    throw new Error(`Log In as ${username} failed: ${await toast.first().textContent()}`);
  await expect(page).toHaveURL(/\/invoices(\?.*)?$/);
}

export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/**
 * Signs in through the API, as Log In does (the Login screen itself is tested by signIn's users: shell.spec.ts,
 * a11y.spec.ts, two-factor.spec.ts), and opens the transactions list, where Log In lands. One page load instead of
 * two (Login's, then the app's): the cheaper start of the specs that begin signed in.
 */
async function signInThroughApi(page: Page, baseURL: string, username: string, password = DEMO_PASSWORD) {
  await logIn(page.request, baseURL, username, password);
  await page.goto('/invoices');
  await expect(page.getByRole('heading', { name: 'Transactions', level: 1 })).toBeVisible();
}

/**
 * POST /api/v1/login on a request context, which keeps the session cookie: from the app's own origin, as a browser's
 * request is (the server refuses a write with the session cookie without it).
 */
export async function logIn(request: APIRequestContext, baseURL: string, username: string, password: string) {
  const res = await request.post('/api/v1/login', {
    data: { username, password },
    headers: { origin: new URL(baseURL).origin },
  });
  expect(res.ok(), `Log In as ${username}: ${await res.text()}`).toBe(true);
}

/**
 * `test` for every spec: its baseURL is the server of the test's own worker (support/servers.ts), and a
 * `signInAs(role)` fixture serves the specs that start signed in.
 */
export const test = base.extend<{ signInAs: (role: DemoRole) => Promise<void> }>({
  // Playwright reads a fixture's dependencies from its first parameter's pattern: this one has none
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use, testInfo) => use(`http://localhost:${portOf(testInfo.parallelIndex)}`),
  signInAs: async ({ page, baseURL }, use) => {
    await use((role) => signInThroughApi(page, baseURL!, role));
  },
});

export { expect };
