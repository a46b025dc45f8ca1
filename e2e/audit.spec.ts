import type { Page } from '@playwright/test';
import { expect, signIn, signOut, test } from './support/auth';
import { createInvoice, demoMerchant } from './support/merchant-api';

/** The audit trail: who changed what, when and why; a merchant sees its own records only. */

const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text }).first();
const suffix = () => Math.random().toString(36).slice(2, 7);

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('an operator status change is in the audit trail with its reason, before and after', async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  const reason = `E2E audit: customer called, ref ${suffix()}`;
  const created = await createInvoice(baseURL!, { flowType: 'DEPOSIT', amount: 120_000 });

  await signIn(page, 'ops');
  await page.goto(`/invoices/${created.invoiceId}`);
  await expect(page.getByTestId('invoice-status')).toHaveText('New');
  await choose(page, 'Change status', 'Canceled');
  const dialog = page.getByRole('dialog', { name: 'Change status' });
  await dialog.getByRole('textbox', { name: 'Reason' }).fill(reason);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(toast(page, 'Status changed successfully!')).toBeVisible();

  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Audit' }).click();
  await expect(page.getByRole('heading', { name: 'Audit', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Actor' }).fill('ops');
  await choose(page, 'Action', 'Invoice status changed');
  // both filters land in the URL (the actor's is applied after a short pause in typing)
  await expect(page).toHaveURL(/actor=ops/);
  await expect(page).toHaveURL(/action=invoice.status_changed/);

  const row = page.getByTestId('audit-row').filter({ hasText: reason });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole('link', { name: `Invoice ${created.invoiceId}` })).toBeVisible();
  await expect(row).toContainText('ops');
  await expect(row).toContainText('platform');
  await expect(row).toContainText('Demo Merchant');
  await expect(row).toContainText('Invoice status changed');
  await expect(row).toContainText(reason);
  await row.getByRole('button', { name: /^Show details of Invoice status changed/ }).click();
  await expect(page.getByRole('group', { name: 'Before' })).toContainText('status: NEW');
  await expect(page.getByRole('group', { name: 'After' })).toContainText('status: CANCELED');
  await expect(page.getByText(created.invoiceId, { exact: true })).toBeVisible();

  // the same view as a CSV
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('Audit.csv');
  const csv = Buffer.concat(await (await file.createReadStream()).toArray()).toString('utf8');
  expect(csv).toContain(created.invoiceId);
  expect(csv).toContain(reason);

  // a merchant's owner sees the operator's change on its invoice, and nothing of another merchant
  await signOut(page);
  await signIn(page, 'shop2');
  await signOut(page);
  await signIn(page, 'owner');
  const responses: unknown[] = [];
  page.on('response', async (r) => {
    if (r.url().includes('/api/v1/audit?') && r.ok()) responses.push(await r.json());
  });
  await page.goto('/audit');
  await expect(page.getByRole('heading', { name: 'Audit', level: 1 })).toBeVisible();
  await expect(page.getByTestId('audit-row').first()).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Merchant' })).toHaveCount(0);
  // platform employees are "platform staff" to a merchant, also in the filter: a guessed name finds nothing
  await page.getByRole('textbox', { name: 'Actor' }).fill('platform staff');
  await expect(page.getByTestId('audit-row').filter({ hasText: reason })).toHaveCount(1);
  await page.getByRole('textbox', { name: 'Actor' }).fill('ops');
  await expect(page).toHaveURL(/actor=ops/);
  await expect(page.getByText('Nothing found')).toBeVisible();
  await page.getByRole('textbox', { name: 'Actor' }).fill('shop2');
  await expect(page).toHaveURL(/actor=shop2/);
  await expect(page.getByText('Nothing found')).toBeVisible();

  const merchantId = demoMerchant().merchantId;
  expect(responses.length).toBeGreaterThan(0);
  for (const body of responses as { data: { merchantId: string | null }[] }[])
    for (const entry of body.data) expect(entry.merchantId).toBe(merchantId);
});

test('an operator sets DONE a deposit that was never routed: the account the money arrived on is required', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const created = await createInvoice(baseURL!, { flowType: 'DEPOSIT', amount: 130_000, test: false });
  await signIn(page, 'ops');
  await page.goto(`/invoices/${created.invoiceId}`);
  await expect(page.getByTestId('invoice-status')).toHaveText('New');
  await choose(page, 'Change status', 'Done');
  const dialog = page.getByRole('dialog', { name: 'Change status' });
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('Bank statement shows the money on the account');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(dialog.getByText('Choose the account the money arrived on')).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Account the money arrived on' }).click();
  await page.getByRole('option').first().click();
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(toast(page, 'Status changed successfully!')).toBeVisible();
  await expect(page.getByTestId('invoice-status')).toHaveText('Done');
});
