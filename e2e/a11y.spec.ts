import type { Locator, Page } from '@playwright/test';
import { wcagViolations } from './support/a11y';
import { expect, signOut, test } from './support/auth';

/**
 * Every back-office screen, and the dialogs and drawers opened from them, against WCAG 2.1 A and AA with axe:
 * any violation fails, whatever impact axe gives it. Screens are checked as a platform admin (who sees every
 * route) and again as a merchant owner where that view differs.
 */

// the file's tests share nothing: they spread over the workers
test.describe.configure({ mode: 'parallel', timeout: 120_000 });

const main = (page: Page) => page.getByRole('main');

/** Waits for the screen's loaders to go and its transitions to end, then checks the whole page. */
async function expectAccessible(page: Page, what: string, ready?: Locator) {
  if (ready) await expect(ready).toBeVisible();
  await expect(page.locator('[role="status"][aria-label^="Loading"]')).toHaveCount(0);
  expect.soft(await wcagViolations(page, { strict: true }), what).toEqual([]);
}

async function open(page: Page, path: string, title: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
}

async function closeDialog(page: Page) {
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

test('login', async ({ page }) => {
  await page.goto('/login');
  await expectAccessible(page, '/login', page.getByRole('button', { name: 'Log In' }));
});

test('as a platform admin: reports, merchant and settings, with their dialogs', async ({ page, signInAs }) => {
  await signInAs('admin');

  await open(page, '/reports', 'Reports');
  await expectAccessible(page, '/reports', page.getByRole('region', { name: 'Transactions', exact: true }));
  // every report's two date fields: their clear buttons say what they clear
  await expect(main(page).getByRole('button', { name: 'Clear Date From' })).toHaveCount(4);
  await expect(main(page).getByRole('button', { name: 'Clear Date To' })).toHaveCount(4);
  await page.getByRole('banner').getByRole('combobox', { name: 'Terminal', exact: true }).click();
  await page.getByRole('option', { name: 'UZS Deposit', exact: true }).click();
  await expect(page.getByTestId('balance-card-balance').getByTestId('balance-amount')).toHaveText(/UZS$/);
  await expectAccessible(page, '/reports with a terminal');
  await page.getByRole('button', { name: 'Settlement' }).click();
  await expectAccessible(page, 'Settlement dialog', page.getByRole('dialog', { name: 'Settlement' }));
  await page.getByRole('dialog').getByRole('button', { name: 'Submit' }).click();
  await expectAccessible(page, 'Settlement dialog with errors', page.getByText('Base amount is required'));
  await closeDialog(page);

  await open(page, '/merchant', 'Merchant');
  await expectAccessible(page, '/merchant', main(page).getByRole('textbox', { name: 'Name' }).first());
  await page.getByRole('button', { name: 'New Merchant' }).click();
  await expectAccessible(page, 'New Merchant dialog', page.getByRole('dialog'));
  await closeDialog(page);

  await open(page, '/settings', 'Settings');
  await expectAccessible(page, '/settings');
  await open(page, '/settings/change-password', 'Change password');
  // the rule is the new password's description, read before anything is submitted
  await expect(page.getByRole('textbox', { name: 'New password', exact: true })).toHaveAccessibleDescription(
    /^At least 12 characters/,
  );
  await expectAccessible(page, '/settings/change-password');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expectAccessible(page, '/settings/change-password with errors');
  await page.goto('/settings/two-factor');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectAccessible(page, '/settings/two-factor');
});

test('as a platform admin: terminals, monitoring and notifications, with their dialogs', async ({ page, signInAs }) => {
  await signInAs('admin');
  await open(page, '/terminals', 'Terminals');
  await expectAccessible(page, '/terminals', main(page).getByRole('button', { name: 'Save' }).first());
  await page.getByRole('tab', { name: 'Test UZS Deposit' }).click();
  await expect(main(page).getByRole('button', { name: 'Switch to production' })).toBeVisible();
  await expectAccessible(page, '/terminals, a test terminal');
  await main(page).getByRole('button', { name: 'Switch to production' }).click();
  await expectAccessible(page, 'State changing dialog', page.getByRole('dialog'));
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /cancel|no/i })
    .first()
    .click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.getByRole('button', { name: 'New Terminal' }).click();
  await expectAccessible(page, 'New Terminal dialog', page.getByRole('dialog'));
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /create/i })
    .click();
  await expectAccessible(page, 'New Terminal dialog with errors');
  await closeDialog(page);

  await open(page, '/monitoring', 'Monitoring');
  await expectAccessible(page, '/monitoring', page.getByRole('table', { name: 'Terminal statistics' }));

  await open(page, '/notifications', 'Notifications');
  await expectAccessible(page, '/notifications');
});

test('as a platform admin: accounts and an account, with their dialogs', async ({ page, signInAs }) => {
  await signInAs('admin');
  await open(page, '/accounts', 'Accounts');
  await expectAccessible(page, '/accounts', page.getByRole('table', { name: 'Provider accounts' }));
  await page.getByRole('button', { name: 'New Account' }).click();
  await expectAccessible(page, 'New Account dialog', page.getByRole('dialog'));
  await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
  await expectAccessible(page, 'New Account dialog with errors');
  await closeDialog(page);
  await page
    .getByRole('row', { name: /^Account \d+$/ })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
  await expectAccessible(page, '/accounts/:id', page.getByRole('table', { name: 'Limits' }));
  await page.getByRole('button', { name: 'Edit limit' }).click();
  await expectAccessible(page, 'Edit limit dialog', page.getByRole('dialog'));
  await closeDialog(page);
  await main(page).getByRole('button', { name: 'Add', exact: true }).click();
  await expectAccessible(page, 'Credential dialog', page.getByRole('dialog'));
  await closeDialog(page);
});

test('as a platform admin: team, roles and audit, with their dialogs', async ({ page, signInAs }) => {
  await signInAs('admin');
  await open(page, '/team', 'Team');
  await expectAccessible(page, '/team', page.getByRole('table').first());
  await main(page)
    .getByRole('button', { name: /new user/i })
    .click();
  await expectAccessible(page, 'New user dialog', page.getByRole('dialog'));
  await closeDialog(page);
  // a user's actions menu, and the dialog one of them opens (left without confirming)
  await main(page)
    .getByRole('button', { name: /^Actions for / })
    .first()
    .click();
  await expectAccessible(page, 'Team user actions menu', page.getByRole('menu'));
  await page.getByRole('menuitem', { name: 'Reset password' }).click();
  await expectAccessible(page, 'Reset password dialog', page.getByRole('dialog'));
  await closeDialog(page);
  await page.getByRole('tab', { name: 'Roles' }).click();
  await expectAccessible(page, '/team, Roles', page.getByRole('table', { name: 'Roles' }));
  await main(page)
    .getByRole('button', { name: /new role/i })
    .click();
  await expectAccessible(page, 'Role dialog', page.getByRole('dialog'));
  await closeDialog(page);

  await open(page, '/audit', 'Audit');
  await expectAccessible(page, '/audit', page.getByRole('table').first());
  await main(page)
    .getByRole('button', { name: /^Show details of / })
    .first()
    .click();
  await expectAccessible(
    page,
    '/audit with an entry opened',
    main(page).getByRole('button', { name: /^Hide details of / }),
  );

  await signOut(page);
});

test('the screens a merchant owner sees differently', async ({ page, signInAs }) => {
  await signInAs('owner');
  await open(page, '/terminals', 'Terminals');
  await expectAccessible(page, 'owner /terminals', main(page).getByRole('textbox', { name: 'Callback URL' }));
  await open(page, '/merchant', 'Merchant');
  await expectAccessible(page, 'owner /merchant', main(page).getByRole('textbox', { name: 'Name' }).first());
  await open(page, '/monitoring', 'Monitoring');
  await expectAccessible(page, 'owner /monitoring', page.getByRole('table', { name: 'Terminal statistics' }));
  await open(page, '/reports', 'Reports');
  await expectAccessible(page, 'owner /reports', page.getByRole('region', { name: 'Transactions', exact: true }));
  await open(page, '/team', 'Team');
  await expectAccessible(page, 'owner /team', page.getByRole('table').first());
  await open(page, '/settings', 'Settings');
  await expectAccessible(page, 'owner /settings');
});

test('the invoice list and an invoice', async ({ page, signInAs }) => {
  await signInAs('admin');
  await expectAccessible(page, '/invoices', page.getByRole('table').first());
  await page
    .getByRole('button', { name: /filter/i })
    .first()
    .click();
  await expectAccessible(page, 'invoice filter dialog', page.getByRole('dialog'));
  await closeDialog(page);
  await page.getByRole('table').first().getByRole('link').first().click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectAccessible(page, '/invoices/:id');
});

test('on a narrow screen: the navigation opened from the top bar, and a screen with its dialog', async ({
  page,
  signInAs,
}) => {
  await page.setViewportSize({ width: 768, height: 1000 });
  await signInAs('admin');
  await page.getByRole('button', { name: 'Toggle navigation' }).click();
  await expectAccessible(
    page,
    'navigation at 768 px',
    page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Monitoring' }),
  );
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Monitoring' }).click();
  await expect(page.getByRole('heading', { name: 'Monitoring', level: 1 })).toBeVisible();
  await expectAccessible(page, '/monitoring at 768 px', page.getByRole('table', { name: 'Terminal statistics' }));
  await open(page, '/accounts', 'Accounts');
  await page.getByRole('button', { name: 'New Account' }).click();
  await expectAccessible(page, 'New Account dialog at 768 px', page.getByRole('dialog'));
});
