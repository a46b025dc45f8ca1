import fs from 'node:fs';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { maskCard, maskRequisite } from '@paydesk/contracts/masking';
import { DEMO_PASSWORD, expect, signIn, signOut, test } from './support/auth';
import { createInvoice } from './support/merchant-api';
import { apiSession } from './support/people';
import { wcagViolations } from './support/a11y';

/**
 * Card and phone numbers are masked on every back-office screen; a holder of invoice.credentials.read may ask for the
 * full number on purpose ("Show full number"), which the server records in the audit trail. Merchant users see none.
 */

const CARD = '9860123456789015';
const MASKED = maskCard(CARD); // 986012******9015
const CAPTION = 'Shown to you and recorded in the audit trail';
const SHOTS = '/tmp/shots';

/** A live withdrawal the customer completed with CARD through the payment form's calls (its payout waits). */
async function cardWithdrawal(request: APIRequestContext, baseURL: string) {
  const amount = 234_500;
  const created = await createInvoice(baseURL, {
    flowType: 'WITHDRAWAL',
    test: false,
    amount,
    paymentMethod: 'HUMOUZS',
  });
  const form = `/api/payments/form/${created.formId}`;
  const init = (await (await request.post(`${form}/init`)).json()).data as { paymentMethodId: number };
  const cred = await request.post(`${form}/credential`, { data: { amount, paymentMethodId: init.paymentMethodId } });
  expect(cred.status(), await cred.text()).toBe(200);
  const done = await request.post(`${form}/complete`, { data: { credential: CARD } });
  expect(done.status(), await done.text()).toBe(200);
  return created.invoiceId;
}

async function openDetails(page: Page, invoiceId: string) {
  await page.goto(`/invoices/${invoiceId}`);
  await expect(page.getByRole('heading', { name: 'Transaction', level: 1, exact: true })).toBeVisible();
  await expect(page.getByTestId('invoice-status')).toBeVisible();
}

/** The requisite in the invoice card's "Credentials" row, with its controls. */
const credentialsRow = (page: Page): Locator => page.getByTestId('revealable-number');

test('ops sees a withdrawal card masked, shows the full number on purpose and hides it; the owner sees none', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const invoiceId = await cardWithdrawal(page.request, baseURL!);
  fs.mkdirSync(SHOTS, { recursive: true });

  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, 'ops');
  await openDetails(page, invoiceId);
  const row = credentialsRow(page);
  await expect(row.getByText(MASKED, { exact: true })).toBeVisible();
  await expect(page.getByText(CARD)).toHaveCount(0);
  await expect(page.getByText(CAPTION)).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/invoice-card-masked-1280.png`, fullPage: true });

  const reveal = page.waitForResponse((r) => r.url().includes(`/api/v1/invoice/${invoiceId}/credentials/reveal`));
  await row.getByRole('button', { name: 'Show full number' }).click();
  expect((await reveal).status()).toBe(200);
  await expect(row.getByText(CARD, { exact: true })).toBeVisible();
  await expect(row.getByText(MASKED)).toHaveCount(0);
  await expect(row.getByRole('status')).toHaveText(CAPTION);
  await expect(row.getByRole('button', { name: 'Copy full number' })).toBeVisible();
  // focus stays on the control, now "Hide"
  await expect(row.getByRole('button', { name: 'Hide full number' })).toBeFocused();
  // shown in a monospace face, like the masked one
  expect(await row.getByText(CARD, { exact: true }).evaluate((el) => getComputedStyle(el).fontFamily)).toMatch(/mono/i);
  expect(await wcagViolations(page, { within: ['main'], strict: true })).toEqual([]);

  for (const width of [768, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    if (width < 1200) {
      // below the navigation's breakpoint it slides out of view: the screenshot waits for it to be gone
      const nav = page.getByRole('navigation', { name: 'Main navigation' });
      await expect.poll(() => nav.evaluate((el) => el.getBoundingClientRect().right)).toBeLessThanOrEqual(0);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/invoice-card-revealed-${width}.png`, fullPage: true });
    // the number, its copy button and the caption stay inside the viewport
    const box = (await row.boundingBox())!;
    expect(box.x + box.width, `revealed number at ${width} px`).toBeLessThanOrEqual(width);
  }

  // the audit trail names who saw which invoice's number
  const audit = (await (
    await page.request.get('/api/v1/audit?action=credentials.revealed&actor=ops&size=5')
  ).json()) as { data: { action: string; targetType: string | null; targetId: string | null }[] };
  expect(audit.data[0]).toMatchObject({ action: 'credentials.revealed', targetType: 'invoice', targetId: invoiceId });
  expect(JSON.stringify(audit.data)).not.toContain(CARD);

  await row.getByRole('button', { name: 'Hide full number' }).click();
  await expect(row.getByText(MASKED, { exact: true })).toBeVisible();
  await expect(page.getByText(CARD)).toHaveCount(0);
  await expect(page.getByText(CAPTION)).toHaveCount(0);
  await expect(row.getByRole('button', { name: 'Show full number' })).toBeFocused();

  // shown again, then away and back: the full number is not kept anywhere, the screen starts masked
  await row.getByRole('button', { name: 'Show full number' }).click();
  await expect(row.getByText(CARD, { exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Transactions' }).first().click();
  await expect(page.getByRole('heading', { name: 'Transactions', level: 1 })).toBeVisible();
  await page.goBack();
  await expect(credentialsRow(page).getByText(MASKED, { exact: true })).toBeVisible();
  await expect(page.getByText(CARD)).toHaveCount(0);
  await signOut(page);

  // the merchant's owner: the invoice without any number, masked or not, and no way to ask for it
  await signIn(page, 'owner');
  await openDetails(page, invoiceId);
  await expect(page.getByText('Flow Type', { exact: true })).toBeVisible();
  await expect(page.getByText('Credentials', { exact: true })).toHaveCount(0);
  await expect(page.getByText(MASKED)).toHaveCount(0);
  await expect(page.getByText(CARD)).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Show full number/ })).toHaveCount(0);
  const details = await page.request.get(`/api/v1/invoice/${invoiceId}`);
  expect(details.status()).toBe(200);
  expect(((await details.json()) as { data: { account: unknown } }).data.account).toBeNull();
  // nor does the server reveal it to them
  const refused = await page.request.post(`/api/v1/invoice/${invoiceId}/credentials/reveal`, {
    headers: { origin: new URL(baseURL!).origin },
  });
  expect(refused.status()).toBe(403);
  expect(await refused.text()).not.toContain(CARD);
});

test("ops shows a provider account credential's full number on the account's page", async ({ page, baseURL }) => {
  // an account of the demo data with a card, read as the page reads it (masked)
  const ops = await apiSession(baseURL!, 'ops', DEMO_PASSWORD);
  const accounts = (await (await ops.get('/api/v1/people/account')).json()) as {
    data: { id: number; isSandbox: boolean }[];
  };
  let found: { id: number; credential: { id: number; credentialType: string; value: string } } | undefined;
  for (const a of accounts.data.filter((x) => !x.isSandbox)) {
    const d = (await (await ops.get(`/api/v1/people/account/${a.id}`)).json()) as {
      data: { credentials: { id: number; credentialType: string; value: string }[] };
    };
    const card = d.data.credentials.find((c) => c.credentialType === 'CARD');
    if (card) {
      found = { id: a.id, credential: card };
      break;
    }
  }
  expect(found, 'a provider account with a card').toBeTruthy();
  const { id, credential } = found!;
  expect(credential.value).toMatch(/^\d{6}\*{6}\d{4}$/);
  await ops.dispose();

  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, 'ops');
  await page.goto(`/accounts/${id}`);
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Credentials' });
  const what = `${credential.credentialType} ${credential.value}`;
  // the credential's row by its control ("Show full number of …", then "Hide full number of …"): the row's text changes
  const named = new RegExp(`full number of ${what.replace(/[*]/g, '\\*')}$`);
  const row = table.getByRole('row').filter({ has: page.getByRole('button', { name: named }) });
  await expect(row.getByText(credential.value, { exact: true })).toBeVisible();

  await row.getByRole('button', { name: `Show full number of ${what}` }).click();
  const full = row.getByTestId('revealable-number').locator('[data-revealed="true"]');
  await expect(full).toHaveText(/^\d{16,19}$/);
  const value = (await full.textContent())!;
  // the full number is the one the masked form hides
  expect(maskRequisite('CARD', value)).toBe(credential.value);
  await expect(row.getByRole('status')).toHaveText(CAPTION);
  await expect(row.getByRole('button', { name: `Copy full number of ${what}` })).toBeVisible();
  expect(await wcagViolations(page, { within: ['main'], strict: true })).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/account-credential-revealed-1280.png`, fullPage: true });

  await row.getByRole('button', { name: `Hide full number of ${what}` }).click();
  await expect(row.getByText(credential.value, { exact: true })).toBeVisible();
  await expect(page.getByText(value)).toHaveCount(0);
  await expect(page.getByText(CAPTION)).toHaveCount(0);
});
