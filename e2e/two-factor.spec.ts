import fs from 'node:fs';
import type { Page, TestInfo } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { seriousViolations } from './support/a11y';
import { DEMO_PASSWORD, expect, signIn, signOut, test } from './support/auth';
import { apiSession, newColleague, suffix, type Colleague } from './support/people';

/**
 * Two-factor sign-in: a fresh colleague turns it on in Settings, signs in with the app's code and with a
 * recovery code, and a platform admin resets it; a merchant that requires it sends its users to the setup first.
 * Every user (and the merchant) here is made for the test: no demo user or demo merchant is left with a second
 * factor or the policy on.
 */

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });
const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text }).first();
const SAVED = { timeout: 15_000 };
/** The setup key as the page shows it: 160 bits of base32, in eight groups of four. */
const SETUP_KEY = /^[A-Z2-7]{4}( [A-Z2-7]{4}){7}$/;
const RECOVERY_CODE = /^[a-z2-7]{5}-[a-z2-7]{5}$/;
const PERIOD_MS = 30_000;

const totpStep = () => Math.floor(Date.now() / PERIOD_MS);
const totpCode = (secret: string, step = totpStep()) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: step * PERIOD_MS });

/**
 * A code is good once per 30-second step. The code of the step after the last one used, without waiting for it: an
 * app whose clock runs up to one step ahead, which the server accepts (one step either side of its own).
 */
const codeForStepAfter = (secret: string, used: number) => totpCode(secret, used + 1);

/** Log In with the password of a user with two-factor sign-in: the code step follows, no session yet. */
async function enterPassword(page: Page, username: string, password: string) {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Username', exact: true }).fill(username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
}

async function expectSignedIn(page: Page) {
  await expect(page.getByRole('heading', { name: 'Transactions', level: 1 })).toBeVisible(SAVED);
  await expect(page).toHaveURL(/\/invoices(\?.*)?$/);
}

/** Full-page screenshots at a desktop and a tablet width, into the test's output folder. */
async function screenshots(page: Page, testInfo: TestInfo, name: string) {
  const original = page.viewportSize();
  for (const [width, height] of [
    [1280, 900],
    [768, 1024],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: testInfo.outputPath(`${name}-${width}.png`), fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}

/** The setup's first step: the QR code and the typed key; returns the key without its spaces. */
async function readSetupKey(page: Page) {
  await expect(page.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible();
  const key = page.getByText(SETUP_KEY);
  await expect(key).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy setup key' })).toBeVisible();
  return (await key.textContent())!.replace(/\s/g, '');
}

/** The ten recovery codes, shown once: read them, then confirm they are saved. */
async function saveRecoveryCodes(page: Page) {
  const list = page.getByRole('list', { name: 'Recovery codes' });
  await expect(list.getByRole('listitem')).toHaveCount(10);
  const codes = (await list.getByRole('listitem').allTextContents()).map((c) => c.trim());
  for (const code of codes) expect(code).toMatch(RECOVERY_CODE);
  expect(new Set(codes).size).toBe(10);
  const done = page.getByRole('button', { name: 'Done' });
  await expect(done).toBeDisabled();
  await page.getByRole('checkbox', { name: 'I have saved them' }).check();
  return { codes, done };
}

test('a colleague turns on two-factor sign-in, signs in with a code and a recovery code, and an admin resets it', async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(180_000);
  const owner = await apiSession(baseURL!, 'owner', DEMO_PASSWORD);
  const colleague = await newColleague(baseURL!, owner, { role: 'Merchant finance', prefix: 'e2e-2fa' });
  await owner.dispose();

  // the password policy answers on the Change password form: a common password is refused under New password
  await signIn(page, colleague.username, colleague.password);
  await nav(page).getByRole('link', { name: 'Settings', exact: true }).click();
  await page.getByRole('link', { name: /^Change password/ }).click();
  const changeForm = page.getByRole('form', { name: 'Change password' });
  await changeForm.getByRole('textbox', { name: 'Old password', exact: true }).fill(colleague.password);
  await changeForm.getByRole('textbox', { name: 'New password', exact: true }).fill('password1234');
  await changeForm.getByRole('textbox', { name: 'Confirm new password', exact: true }).fill('password1234');
  await changeForm.getByRole('button', { name: 'Submit' }).click();
  await expect(
    changeForm.getByText('This password is on a list of common or leaked passwords; choose another'),
  ).toBeVisible(SAVED);

  // Settings → Two-factor sign-in: off
  await nav(page).getByRole('link', { name: 'Settings', exact: true }).click();
  await expect(page.getByRole('link', { name: /^Two-factor sign-in/ })).toContainText('Off');
  await page.getByRole('link', { name: /^Two-factor sign-in/ }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in', level: 1 })).toBeVisible();
  const status = page.getByRole('region', { name: 'Two-factor sign-in status' });
  await expect(status).toContainText('Two-factor sign-in is off');

  // turning it on: QR code and key, then the app's code
  await status.getByRole('button', { name: 'Turn on' }).click();
  const secret = await readSetupKey(page);
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  await screenshots(page, testInfo, 'enrolment');

  const codeInput = page.getByRole('textbox', { name: 'Code from the app' });
  await expect(codeInput).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(codeInput).toHaveAttribute('inputmode', 'numeric');
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByText('Enter the 6-digit code from your app')).toBeVisible();
  const wrong = totpCode(secret) === '000000' ? '111111' : '000000';
  await codeInput.fill(wrong);
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByText('The code does not match')).toBeVisible(SAVED);

  await codeInput.fill(totpCode(secret));
  const usedStep = totpStep();
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByRole('heading', { name: 'Two-factor sign-in is on' })).toBeVisible(SAVED);
  const { codes, done } = await saveRecoveryCodes(page);
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  await screenshots(page, testInfo, 'recovery-codes');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download .txt' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`paydesk-recovery-codes-${colleague.username}.txt`);
  expect(fs.readFileSync(await file.path(), 'utf8').split('\n')).toEqual(expect.arrayContaining(codes));
  await done.click();
  await expect(toast(page, 'Two-factor sign-in is on')).toBeVisible();
  await expect(status).toContainText('Two-factor sign-in is on');
  await expect(status).toContainText('Recovery codes left: 10 of 10');
  await expect(status.getByRole('button', { name: 'Turn off' })).toBeVisible();
  await screenshots(page, testInfo, 'status-on');

  // password, then the app's code (a code is good once per 30 s step: the setup used this one)
  await signOut(page);
  await enterPassword(page, colleague.username, colleague.password);
  await expect(page.getByText('Enter the 6-digit code from your authenticator app')).toBeVisible();
  const appCode = page.getByRole('textbox', { name: 'Authentication code' });
  await expect(appCode).toBeFocused();
  await expect(appCode).toHaveAttribute('autocomplete', 'one-time-code');
  await expect(appCode).toHaveAttribute('inputmode', 'numeric');
  expect(await seriousViolations(page, ['main'])).toEqual([]);
  await screenshots(page, testInfo, 'code-step');
  const signInCode = codeForStepAfter(secret, usedStep);
  await appCode.fill(signInCode);
  await appCode.press('Enter');
  await expectSignedIn(page);

  // the same code again is refused, with a visible reason
  await signOut(page);
  await enterPassword(page, colleague.username, colleague.password);
  await appCode.fill(signInCode);
  await appCode.press('Enter');
  await expect(page.getByText('The code is wrong or was already used')).toBeVisible(SAVED);
  await expect(appCode).toHaveValue('');

  // a recovery code instead (any case, spaces or hyphen)
  await page.getByRole('switch', { name: 'Use a recovery code' }).click({ force: true });
  const recovery = page.getByRole('textbox', { name: 'Recovery code' });
  await expect(recovery).toBeFocused();
  await expect(page.getByText('Enter one of the recovery codes you saved')).toBeVisible();
  await recovery.fill(codes[0]!.toUpperCase());
  await page.getByRole('button', { name: 'Verify' }).click();
  await expectSignedIn(page);

  // a used recovery code is refused too; Back returns to the password with the username kept
  await signOut(page);
  await enterPassword(page, colleague.username, colleague.password);
  await page.getByRole('switch', { name: 'Use a recovery code' }).click({ force: true });
  await recovery.fill(codes[0]!);
  await recovery.press('Enter');
  await expect(page.getByText('The code is wrong or was already used')).toBeVisible(SAVED);
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(page.getByRole('heading', { name: 'Log In', level: 1 })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Username', exact: true })).toHaveValue(colleague.username);
  await expect(page.getByRole('textbox', { name: 'Password', exact: true })).toHaveValue('');

  // a second step that took longer than its 5 minutes goes back to the password, saying why
  // (the server's answer for an expired challenge, without waiting 5 minutes)
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(colleague.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.route('**/api/v1/login/second-factor', (route) =>
    route.fulfill({
      status: 401,
      contentType: 'application/json',
      body: JSON.stringify({
        error: { code: 'UNAUTHORIZED', message: 'This sign-in has expired. Enter your password again.' },
      }),
    }),
  );
  await appCode.fill('123456');
  await appCode.press('Enter');
  await expect(page.getByRole('heading', { name: 'Log In', level: 1 })).toBeVisible();
  await expect(page.getByText('This sign-in has expired. Enter your password again.')).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Password', exact: true })).toBeFocused();
  await page.unroute('**/api/v1/login/second-factor');

  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(colleague.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.getByRole('switch', { name: 'Use a recovery code' }).click({ force: true });
  await recovery.fill(codes[1]!);
  await recovery.press('Enter');
  await expectSignedIn(page);

  // ten new recovery codes, for a code; two were used, so eight were left
  await page.goto('/settings/two-factor');
  await expect(status).toContainText('Recovery codes left: 8 of 10');
  await status.getByRole('button', { name: 'New recovery codes' }).click();
  const renew = page.getByRole('dialog', { name: 'New recovery codes' });
  await renew.getByRole('textbox', { name: 'Authentication code' }).fill(codes[0]!);
  await renew.getByRole('button', { name: 'Make new codes' }).click();
  await expect(renew.getByText('The code is wrong or was already used')).toBeVisible(SAVED);
  await renew.getByRole('textbox', { name: 'Authentication code' }).fill(codes[2]!);
  await renew.getByRole('button', { name: 'Make new codes' }).click();
  const renewed = page.getByRole('dialog', { name: 'Your new recovery codes' });
  await expect(renewed.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
  const newCodes = (await renewed.getByRole('listitem').allTextContents()).map((c) => c.trim());
  expect(newCodes).not.toContain(codes[3]);
  await renewed.getByRole('checkbox', { name: 'I have saved them' }).check();
  await renewed.getByRole('button', { name: 'Done' }).click();
  await expect(renewed).toBeHidden();
  await expect(status).toContainText('Recovery codes left: 10 of 10');

  // a platform admin resets it (a merchant owner is never offered that)
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  try {
    await signIn(adminPage, 'admin');
    await nav(adminPage).getByRole('link', { name: 'Team', exact: true }).click();
    await adminPage.getByRole('textbox', { name: 'Search users' }).fill(colleague.username);
    const row = adminPage.getByRole('row', { name: `User ${colleague.username}` });
    await expect(row.getByRole('cell', { name: 'On', exact: true })).toBeVisible();
    await expect(adminPage.getByRole('row')).toHaveCount(2);
    await row.getByRole('button', { name: `Actions for ${colleague.username}` }).click();
    await adminPage.getByRole('menuitem', { name: 'Reset two-factor sign-in' }).click();
    const confirm = adminPage.getByRole('dialog', { name: 'Reset two-factor sign-in' });
    await expect(confirm).toContainText(`Reset two-factor sign-in of ${colleague.name}?`);
    await expect(confirm).toContainText('their sessions end at once');
    await confirm.getByRole('button', { name: 'Reset two-factor sign-in' }).click();
    await expect(toast(adminPage, `Two-factor sign-in of ${colleague.name} is reset`)).toBeVisible(SAVED);
    await expect(row.getByRole('cell', { name: 'Off', exact: true })).toBeVisible();
    await row.getByRole('button', { name: `Actions for ${colleague.username}` }).click();
    await expect(adminPage.getByRole('menuitem', { name: 'Reset password' })).toBeVisible();
    await expect(adminPage.getByRole('menuitem', { name: 'Reset two-factor sign-in' })).toHaveCount(0);
  } finally {
    await adminContext.close();
  }

  // the colleague's session ended; the password alone signs in again
  await page.goto('/settings/two-factor');
  await expect(page).toHaveURL(/\/login$/);
  await signIn(page, colleague.username, colleague.password);
  await page.goto('/settings/two-factor');
  await expect(page.getByRole('region', { name: 'Two-factor sign-in status' })).toContainText(
    'Two-factor sign-in is off',
  );
});

test('a merchant owner never sees the two-factor reset', async ({ page, signInAs }) => {
  await signInAs('owner');
  await nav(page).getByRole('link', { name: 'Team', exact: true }).click();
  const row = page.getByRole('row', { name: 'User finance' });
  await expect(row.getByRole('cell', { name: /^(On|Off)$/ })).toBeVisible();
  await row.getByRole('button', { name: 'Actions for finance' }).click();
  await expect(page.getByRole('menuitem', { name: 'Reset password' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Reset two-factor sign-in' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  // the owner manages their merchant's policy: shown, off in the demo data
  await expect(
    page.getByRole('switch', { name: 'Require two-factor sign-in for everyone in Demo Merchant' }),
  ).not.toBeChecked();
});

test('a merchant that requires two-factor sign-in sends its users to the setup first', async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  const admin = await apiSession(baseURL!, 'admin', DEMO_PASSWORD);
  const merchantName = `E2E 2FA Shop ${suffix()}`;
  const created = await admin.post('/api/v1/merchant', { data: { name: merchantName } });
  expect(created.ok(), await created.text()).toBe(true);
  const merchantId: string = (await created.json()).data.id;
  const colleague = await newColleague(baseURL!, admin, { role: 'Merchant owner', merchantId, prefix: 'e2e-2fa' });

  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  try {
    // the admin requires it for that merchant, from the Team page filtered by the merchant
    await signIn(adminPage, 'admin');
    await nav(adminPage).getByRole('link', { name: 'Team', exact: true }).click();
    await expect(adminPage.getByRole('switch', { name: /^Require two-factor sign-in/ })).toHaveCount(0);
    await adminPage.getByRole('combobox', { name: 'Show' }).click();
    await adminPage.getByRole('option', { name: merchantName, exact: true }).click();
    await expect(adminPage.getByRole('row', { name: `User ${colleague.username}` })).toBeVisible();
    const policy = adminPage.getByRole('switch', {
      name: `Require two-factor sign-in for everyone in ${merchantName}`,
    });
    await expect(policy).not.toBeChecked();
    await policy.click({ force: true }); // Mantine's switch input sits under its track
    const confirm = adminPage.getByRole('dialog', { name: 'Require two-factor sign-in' });
    await expect(confirm).toContainText(`Everyone in ${merchantName} without two-factor sign-in must set it up`);
    await confirm.getByRole('button', { name: 'Require it' }).click();
    await expect(toast(adminPage, `Two-factor sign-in is required in ${merchantName}`)).toBeVisible(SAVED);
    await expect(policy).toBeChecked();
    await screenshots(adminPage, testInfo, 'team-policy');

    // the merchant's user signs in and can reach nothing but the setup
    await signInToSetup(page, colleague);
    await expect(page.getByText('Your organisation requires two-factor sign-in', { exact: false })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await page.goto('/invoices');
    await expect(page).toHaveURL(/\/two-factor-setup$/);
    await page.goto('/settings');
    await expect(page).toHaveURL(/\/two-factor-setup$/);
    const secret = await readSetupKey(page);
    expect(await seriousViolations(page, ['main'])).toEqual([]);
    await screenshots(page, testInfo, 'required-setup');

    // Sign out leaves; signing in again comes back here
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await signInToSetup(page, colleague);
    const again = await readSetupKey(page);
    expect(again).not.toBe(secret); // a new setup, a new secret

    await page.getByRole('textbox', { name: 'Code from the app' }).fill(totpCode(again));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const { codes, done } = await saveRecoveryCodes(page);
    await expect(page).toHaveURL(/\/two-factor-setup$/);
    await done.click();
    await expectSignedIn(page);

    // required: it stays on
    await nav(page).getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByRole('link', { name: /^Two-factor sign-in/ }).click();
    const status = page.getByRole('region', { name: 'Two-factor sign-in status' });
    await expect(status).toContainText('Two-factor sign-in is on');
    await expect(status).toContainText('Required by your organisation');
    await expect(status.getByRole('button', { name: 'Turn off' })).toHaveCount(0);
    await expect(status.getByRole('button', { name: 'New recovery codes' })).toBeVisible();

    // the admin lifts the requirement (no confirmation to turn it off)
    await policy.click({ force: true });
    await expect(toast(adminPage, `Two-factor sign-in is no longer required in ${merchantName}`)).toBeVisible(SAVED);
    await expect(policy).not.toBeChecked();

    // no longer required: the user may turn it off, with a code
    await page.reload();
    await expect(status).not.toContainText('Required by your organisation');
    await status.getByRole('button', { name: 'Turn off' }).click();
    const turnOff = page.getByRole('dialog', { name: 'Turn off two-factor sign-in' });
    await turnOff.getByRole('button', { name: 'Turn off' }).click();
    await expect(turnOff.getByText('Enter the code', { exact: true })).toBeVisible();
    await turnOff.getByRole('textbox', { name: 'Authentication code' }).fill(codes[0]!);
    await turnOff.getByRole('button', { name: 'Turn off' }).click();
    await expect(toast(page, 'Two-factor sign-in is off')).toBeVisible(SAVED);
    await expect(status).toContainText('Two-factor sign-in is off');
  } finally {
    await adminContext.close();
    // whatever happened above, the merchant is left without the policy
    await admin.put(`/api/v1/merchant/${merchantId}/two-factor-policy`, { data: { requireTwoFactor: false } });
    await admin.dispose();
  }
});

/** Log In as a user who must set up two-factor sign-in first: the setup screen, nothing else. */
async function signInToSetup(page: Page, user: Colleague) {
  await page.goto('/login');
  await page.getByRole('textbox', { name: 'Username', exact: true }).fill(user.username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await expect(page).toHaveURL(/\/two-factor-setup$/);
  await expect(page.getByRole('heading', { name: 'Set up two-factor sign-in', level: 1 })).toBeVisible();
}
