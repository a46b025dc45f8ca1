import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, signIn, signOut, test } from './support/auth';

/** Team (users.manage) as a merchant owner: a new colleague's first day, and their last. */

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });
const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text }).first();
const SAVED = { timeout: 15_000 };
const suffix = () => Math.random().toString(36).slice(2, 7);

/** Log In with a one-time password: the user lands on Change password, not on the invoices. */
async function signInWithOneTimePassword(page: Page, username: string, password: string) {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Username', exact: true }).fill(username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/settings\/change-password$/);
  await expect(page.getByRole('heading', { name: 'Change password', level: 1 })).toBeVisible();
}

async function openTeam(page: Page) {
  await nav(page).getByRole('link', { name: 'Team', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Team', level: 1 })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Users' })).toBeVisible();
}

test('owner adds a support colleague, who must choose a password, sees only their merchant, and is disabled', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const username = `e2e-support-${suffix()}`;
  const newPassword = `e2e-${suffix()}-pass-2026`;

  await signIn(page, 'owner');
  await openTeam(page);
  await expect(page.getByRole('row', { name: 'User owner' })).toContainText('Merchant owner');
  // a merchant's staff see their own team only: no merchant column, no merchant filter
  await expect(page.getByRole('columnheader', { name: 'Merchant' })).toHaveCount(0);
  await expect(page.getByRole('row', { name: 'User shop2' })).toHaveCount(0);
  await expect(page.getByRole('row', { name: 'User ops' })).toHaveCount(0);

  await page.getByRole('button', { name: 'New user' }).click();
  const dialog = page.getByRole('dialog', { name: 'New user' });
  await dialog.getByRole('button', { name: 'Create user' }).click();
  await expect(dialog.getByText('Username: 3–40 letters, digits, dots, dashes or underscores')).toBeVisible();
  await expect(dialog.getByText('First name is required')).toBeVisible();
  await expect(dialog.getByText('Role is required')).toBeVisible();
  await expect(dialog.getByRole('combobox', { name: 'Merchant' })).toHaveCount(0);

  // the role list holds merchant roles only: platform roles are never offered to a merchant's team
  await dialog.getByRole('combobox', { name: 'Role' }).click();
  for (const role of [
    'Merchant owner',
    'Merchant finance',
    'Merchant developer',
    'Merchant support',
    'Merchant viewer',
  ])
    await expect(page.getByRole('option', { name: role, exact: true })).toBeVisible();
  await expect(page.getByRole('option', { name: /^Platform/ })).toHaveCount(0);
  await page.getByRole('option', { name: 'Merchant support', exact: true }).click();

  await dialog.getByRole('textbox', { name: 'Username' }).fill(username);
  await dialog.getByRole('textbox', { name: 'First name' }).fill('Nodira');
  await dialog.getByRole('textbox', { name: 'Last name' }).fill('Yusupova');
  await dialog.getByRole('button', { name: 'Create user' }).click();
  await expect(toast(page, 'User created')).toBeVisible(SAVED);

  const created = page.getByRole('dialog', { name: 'User created' });
  const secret = created.getByRole('textbox', { name: 'One-time password' });
  await expect(secret).toHaveValue(/.{8,}/);
  const oneTimePassword = await secret.inputValue();
  await expect(created).toContainText('They must change it at first sign-in.');
  await expect(created.getByRole('button', { name: 'Copy one-time password' })).toBeVisible();
  await created.getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('row', { name: `User ${username}` });
  await expect(row).toContainText('Merchant support');
  await expect(row).toContainText('Enabled');
  await expect(row).toContainText('Never');

  // first sign-in: the one-time password opens nothing but Change password
  await signOut(page);
  await signInWithOneTimePassword(page, username, oneTimePassword);
  await expect(
    page.getByText('Your password was set by an administrator. Choose a new password to continue.'),
  ).toBeVisible();
  for (const entry of ['Dashboard', 'Terminals', 'Settings'])
    await expect(nav(page).getByRole('link', { name: entry, exact: true })).toHaveCount(0);
  await page.goto('/invoices');
  await expect(page).toHaveURL(/\/settings\/change-password$/);

  await page.getByRole('textbox', { name: 'Old password', exact: true }).fill(oneTimePassword);
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill(newPassword);
  await page.getByRole('textbox', { name: 'Confirm new password', exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(toast(page, 'Password changed successfully!')).toBeVisible(SAVED);
  await expect(page).toHaveURL(/\/invoices(\?.*)?$/);
  await expect(page.getByRole('heading', { name: 'Transactions', level: 1 })).toBeVisible();
  await expect(page.getByTestId('invoice-row').first()).toBeVisible();

  // the support role's navigation, on Demo Merchant's data only
  for (const entry of ['Dashboard', 'Terminals'])
    await expect(nav(page).getByRole('link', { name: entry, exact: true })).toBeVisible();
  for (const entry of ['Reports', 'Merchant', 'Accounts', 'Monitoring', 'Team', 'Audit'])
    await expect(nav(page).getByRole('link', { name: entry, exact: true })).toHaveCount(0);
  await expect(page.getByRole('banner').getByLabel('Merchant')).toHaveCount(0);
  const terminal = page.getByRole('banner').getByLabel('Terminal');
  await terminal.click();
  await expect(page.getByRole('option', { name: 'UZS Deposit', exact: true })).toBeVisible();
  await expect(page.getByRole('option', { name: /^Shop / })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.goto('/team');
  await expect(page.getByText('Your role does not allow you to manage the team.')).toBeVisible();

  // the owner, in another browser, disables the colleague
  const ownerContext = await browser.newContext();
  const ownerPage = await ownerContext.newPage();
  try {
    await signIn(ownerPage, 'owner');
    await openTeam(ownerPage);
    const ownerRow = ownerPage.getByRole('row', { name: `User ${username}` });
    await expect(ownerRow).not.toContainText('Never');
    await ownerRow.getByRole('button', { name: `Actions for ${username}` }).click();
    await ownerPage.getByRole('menuitem', { name: 'Disable' }).click();
    const confirm = ownerPage.getByRole('dialog', { name: 'Disable user' });
    await expect(confirm).toContainText('Disable Nodira Yusupova?');
    await confirm.getByRole('button', { name: 'Disable' }).click();
    await expect(toast(ownerPage, 'Nodira Yusupova is disabled')).toBeVisible(SAVED);
    await expect(ownerRow).toContainText('Disabled');
  } finally {
    await ownerContext.close();
  }

  // the colleague's open session ends on its next request
  await page.goto('/invoices');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByRole('textbox', { name: 'Username', exact: true }).fill(username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('alert').first()).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
});

test('owner resets a colleague password and never offers a platform role', async ({ page, signInAs }) => {
  await signInAs('owner');
  await openTeam(page);
  const username = `e2e-finance-${suffix()}`;
  await page.getByRole('button', { name: 'New user' }).click();
  const dialog = page.getByRole('dialog', { name: 'New user' });
  await dialog.getByRole('textbox', { name: 'Username' }).fill(username);
  await dialog.getByRole('textbox', { name: 'First name' }).fill('Sardor');
  await dialog.getByRole('textbox', { name: 'Last name' }).fill('Tursunov');
  await dialog.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: 'Merchant viewer', exact: true }).click();
  await dialog.getByRole('button', { name: 'Create user' }).click();
  const created = page.getByRole('dialog', { name: 'User created' });
  const first = await created.getByRole('textbox', { name: 'One-time password' }).inputValue();
  await created.getByRole('button', { name: 'Done' }).click();

  const row = page.getByRole('row', { name: `User ${username}` });
  const actions = row.getByRole('button', { name: `Actions for ${username}` });

  // change role: merchant roles only
  await actions.click();
  await page.getByRole('menuitem', { name: 'Change role' }).click();
  const roleDialog = page.getByRole('dialog', { name: 'Change role' });
  await roleDialog.getByRole('combobox', { name: 'Role' }).click();
  await expect(page.getByRole('option', { name: /^Platform/ })).toHaveCount(0);
  await page.getByRole('option', { name: 'Merchant finance', exact: true }).click();
  await roleDialog.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, 'Sardor Tursunov is now Merchant finance')).toBeVisible(SAVED);
  await expect(row).toContainText('Merchant finance');

  // reset password: confirmed, then a new one-time password shown once
  await actions.click();
  await page.getByRole('menuitem', { name: 'Reset password' }).click();
  const confirm = page.getByRole('dialog', { name: 'Reset password' });
  await expect(confirm).toContainText('Reset the password of Sardor Tursunov?');
  await confirm.getByRole('button', { name: 'Reset password' }).click();
  const reset = page.getByRole('dialog', { name: 'Password reset' });
  const second = reset.getByRole('textbox', { name: 'One-time password' });
  await expect(second).toHaveValue(/.{8,}/);
  expect(await second.inputValue()).not.toBe(first);
  await expect(reset).toContainText('They must change it at first sign-in.');
  await reset.getByRole('button', { name: 'Done' }).click();
  await expect(reset).toBeHidden();
});

test('admin sees every user, filters by merchant, and edits a custom role', async ({ page, signInAs }) => {
  await signInAs('admin');
  await openTeam(page);
  await expect(page.getByRole('columnheader', { name: 'Merchant' })).toBeVisible();
  await expect(page.getByRole('row', { name: 'User shop2' })).toContainText('Second Shop');
  await expect(page.getByRole('row', { name: 'User ops' })).toContainText('Platform');

  await page.getByRole('combobox', { name: 'Show' }).click();
  await page.getByRole('option', { name: 'Platform staff', exact: true }).click();
  await expect(page.getByRole('row', { name: 'User owner' })).toHaveCount(0);
  await expect(page.getByRole('row', { name: 'User ops' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Show' }).click();
  await page.getByRole('option', { name: 'Second Shop', exact: true }).click();
  await expect(page.getByRole('row', { name: 'User shop2' })).toBeVisible();
  await expect(page.getByRole('row', { name: 'User ops' })).toHaveCount(0);

  // roles: presets are read-only; a custom merchant role holds no platform permission
  await page.getByRole('tab', { name: 'Roles' }).click();
  const roles = page.getByRole('table', { name: 'Roles' });
  await expect(roles.getByRole('row', { name: 'Role Platform admin' })).toContainText('Preset');
  await expect(roles.getByRole('button', { name: 'Edit Platform admin' })).toHaveCount(0);

  const name = `E2E Auditor ${suffix()}`;
  await page.getByRole('button', { name: 'New role' }).click();
  const dialog = page.getByRole('dialog', { name: 'New role' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByText('Platform', { exact: true }).click();
  await expect(dialog.getByRole('checkbox', { name: 'Change an invoice status' })).toBeEnabled();
  await dialog.getByRole('checkbox', { name: 'Change an invoice status' }).check();
  // a merchant role: the platform permissions are dropped and locked
  await dialog.getByText('Merchant', { exact: true }).click();
  await expect(dialog.getByRole('checkbox', { name: 'Change an invoice status' })).toBeDisabled();
  await expect(dialog.getByRole('checkbox', { name: 'Change an invoice status' })).not.toBeChecked();
  await dialog.getByRole('checkbox', { name: 'Read the audit trail' }).check();
  await dialog.getByRole('checkbox', { name: 'See balances' }).check();
  await dialog.getByRole('button', { name: 'Create role' }).click();
  await expect(toast(page, `Role ${name} created`)).toBeVisible(SAVED);
  const row = roles.getByRole('row', { name: `Role ${name}` });
  await expect(row).toContainText('Merchant');
  await expect(row.getByRole('cell', { name: '2', exact: true })).toBeVisible();

  await row.getByRole('button', { name: `Edit ${name}` }).click();
  const edit = page.getByRole('dialog', { name: `Edit role ${name}` });
  await expect(edit.getByText('Merchant (cannot be changed)')).toBeVisible();
  await edit.getByRole('checkbox', { name: 'See balances' }).uncheck();
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(toast(page, `Role ${name} saved`)).toBeVisible(SAVED);
  await expect(row.getByRole('cell', { name: '1', exact: true }).first()).toBeVisible();
});

test('Team, Audit and Merchant have no serious accessibility violations', async ({ page, signInAs }) => {
  await signInAs('admin');
  const serious = async () => {
    const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).include('main').analyze();
    return violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => `${n.html} ${n.failureSummary ?? ''}`).join(', ')}`);
  };
  await openTeam(page);
  expect(await serious()).toEqual([]);
  await page.getByRole('tab', { name: 'Roles' }).click();
  await expect(page.getByRole('table', { name: 'Roles' })).toBeVisible();
  expect(await serious()).toEqual([]);
  await nav(page).getByRole('link', { name: 'Audit', exact: true }).click();
  await expect(page.getByTestId('audit-row').first()).toBeVisible();
  await page.getByTestId('audit-row').first().getByRole('button').first().click();
  expect(await serious()).toEqual([]);
  await nav(page).getByRole('link', { name: 'Merchant', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Webhook secret' })).toBeVisible();
  expect(await serious()).toEqual([]);
});
