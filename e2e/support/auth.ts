import { expect, test as base, type Page } from '@playwright/test';

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

/** `test` with a `signInAs(role)` fixture for specs that start signed in. */
export const test = base.extend<{ signInAs: (role: DemoRole) => Promise<void> }>({
  signInAs: async ({ page }, use) => {
    await use((role) => signIn(page, role));
  },
});

export { expect };
