import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './support/auth';
import { createInvoice, demoMerchant } from './support/merchant-api';

/** Transactions list and Transaction details as the demo roles see them. */

const rows = (page: Page) => page.getByTestId('invoice-row');
const rowIds = async (page: Page) => (await rows(page).getByRole('link').allTextContents()).map((s) => s.trim());
const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

async function openInvoice(page: Page, invoiceId: string) {
  await page.getByRole('textbox', { name: 'Search' }).fill(invoiceId);
  await expect(rows(page)).toHaveCount(1);
  await rows(page).getByRole('link', { name: invoiceId.toUpperCase() }).click();
  await expect(page).toHaveURL(new RegExp(`/invoices/${invoiceId}$`));
  await expect(page.getByRole('heading', { name: 'Transaction', level: 1, exact: true })).toBeVisible();
}

/** A seeded Demo Merchant invoice with a ticket still open, found through the API as the signed-in platform user. */
async function invoiceWithOpenTicket(request: APIRequestContext): Promise<string> {
  const merchantId = demoMerchant().merchantId;
  for (const statusIds of [5, 6]) {
    for (let page = 0; page < 5; page++) {
      const list = await (
        await request.get(
          `/api/v1/invoice?statusIds=${statusIds}&flowType=DEPOSIT&size=100&page=${page}&merchantId=${merchantId}`,
        )
      ).json();
      for (const inv of list.data as { invoiceId: string }[]) {
        const tickets = (
          await (await request.get(`/api/v1/merchant/support/${inv.invoiceId}?merchantId=${merchantId}`)).json()
        ).data as {
          status: { code: string };
        }[];
        if (tickets.some((t) => !['SOLVED', 'REJECTED'].includes(t.status.code))) return inv.invoiceId;
      }
      if (list.data.length < 100) break;
    }
  }
  throw new Error('The demo data has no invoice with an open support ticket');
}

test('admin filters by status and dates; the bookmarked URL shows the same list', async ({
  page,
  signInAs,
  context,
}) => {
  await signInAs('admin');
  await expect(page.getByRole('region', { name: 'Finance summary' })).toBeVisible();

  await page.getByRole('button', { name: 'Filter' }).click();
  const dialog = page.getByRole('dialog', { name: 'Filter' });
  await dialog.getByRole('checkbox', { name: 'Done' }).check();
  await dialog.getByRole('checkbox', { name: 'Declined' }).check();
  // Date From: the 1st of this month; Date To: today (the calendars open on the current month)
  const now = new Date();
  const dd = (d: number) => String(d).padStart(2, '0');
  const from = `01/${dd(now.getMonth() + 1)}/${now.getFullYear()}`;
  const to = `${dd(now.getDate())}/${dd(now.getMonth() + 1)}/${now.getFullYear()}`;
  await dialog.getByRole('button', { name: 'Date From' }).click();
  // calendar days are named like '1 November 2026'
  const month = `${now.toLocaleString('en', { month: 'long' })} ${now.getFullYear()}`;
  await page
    .getByRole('button', { name: `1 ${month}`, exact: true })
    .filter({ visible: true })
    .click();
  await expect(dialog.getByRole('button', { name: 'Date From' })).toHaveText(from);
  // let the first calendar close before opening the second
  await expect(page.getByRole('button', { name: `1 ${month}`, exact: true }).filter({ visible: true })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Date To' }).click();
  await page
    .getByRole('button', { name: `${now.getDate()} ${month}`, exact: true })
    .filter({ visible: true })
    .click();
  await expect(dialog.getByRole('button', { name: 'Date To' })).toHaveText(to);
  await dialog.getByRole('button', { name: 'Apply Filter' }).click();
  await expect(dialog).toBeHidden();

  await expect(page).toHaveURL((u) => {
    const sp = u.searchParams;
    return sp.getAll('statusIds').join(',') === '4,5' && sp.get('dateFrom') === from && sp.get('dateTo') === to;
  });
  // the list the filter asked for, once it has replaced the one before it (kept on screen while it loads)
  const status = rows(page).locator('td:nth-child(4)');
  await expect(status.filter({ hasNotText: /^\s*(Done|Declined)\s*$/ })).toHaveCount(0);
  await expect(rows(page).first()).toBeVisible();
  const statuses = await status.allTextContents();
  expect(statuses.length).toBeGreaterThan(0);
  for (const s of statuses) expect(['Done', 'Declined']).toContain(s.trim());

  await page.getByRole('combobox', { name: 'Items per page' }).click();
  await page.getByRole('option', { name: '5', exact: true }).click();
  await expect(rows(page)).toHaveCount(5);
  await page.getByRole('button', { name: 'Page 2' }).click();
  await expect(page).toHaveURL(/page=1/);
  await expect(page.getByTestId('invoice-range')).toHaveText(/^6–10 of /);
  const url = page.url();

  // The same URL in another tab lists the same rows. (The sandbox keeps completing test invoices
  // in the background, so both tabs are compared as loaded at about the same moment.)
  const shared = await context.newPage();
  await shared.goto(url);
  await expect(rows(shared)).toHaveCount(5);
  expect(new URL(shared.url()).search).toBe(new URL(url).search);
  await expect
    .poll(async () => {
      await Promise.all([page.reload(), shared.reload()]);
      await Promise.all([expect(rows(page)).toHaveCount(5), expect(rows(shared)).toHaveCount(5)]);
      const [a, b] = await Promise.all([rowIds(page), rowIds(shared)]);
      const [ra, rb] = await Promise.all([
        page.getByTestId('invoice-range').textContent(),
        shared.getByTestId('invoice-range').textContent(),
      ]);
      return a.join() === b.join() && ra === rb && ra?.startsWith('6–10 of ');
    })
    .toBe(true);
});

test('ops changes status and amount with a reason, sends a manual callback and sees it delivered and verified', async ({
  page,
  signInAs,
  baseURL,
}) => {
  const created = await createInvoice(baseURL!, { flowType: 'DEPOSIT', amount: 150_000 });
  await signInAs('ops');
  await openInvoice(page, created.invoiceId);
  await expect(page.getByTestId('invoice-status')).toHaveText('New');

  // status: choose, cancel resets; choose again, give a reason, confirm
  await page.getByRole('combobox', { name: 'Change status' }).click();
  await page.getByRole('option', { name: 'Declined' }).click();
  const statusDialog = page.getByRole('dialog', { name: 'Change status' });
  await expect(statusDialog).toContainText('Are you sure you want to change the status to Declined?');
  await statusDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('combobox', { name: 'Change status' })).toHaveValue('');
  await page.getByRole('combobox', { name: 'Change status' }).click();
  await expect(page.getByRole('option', { name: 'New', exact: true })).toHaveCount(0);
  await page.getByRole('option', { name: 'Declined' }).click();
  await statusDialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(statusDialog.getByText('Reason must be at least 3 characters long')).toBeVisible();
  await statusDialog.getByRole('textbox', { name: 'Reason' }).fill('Customer asked to cancel by phone');
  await statusDialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(toast(page, 'Status changed successfully!')).toBeVisible();
  await expect(page.getByTestId('invoice-status')).toHaveText('Declined');
  await expect(page.getByRole('region', { name: 'Status history' })).toContainText('Declined');

  // amount: validation, then the two steps
  await page.getByRole('button', { name: 'Change amount' }).click();
  const amountDialog = page.getByRole('dialog', { name: 'Change amount' });
  // it starts from the current amount, in major units
  await expect(amountDialog.getByRole('textbox')).toHaveValue('1500.00');
  await amountDialog.getByRole('textbox').fill('');
  await amountDialog.getByRole('button', { name: 'Change' }).click();
  await expect(amountDialog).toContainText('Change the value');
  await amountDialog.getByRole('textbox').fill('1.234');
  await amountDialog.getByRole('button', { name: 'Change' }).click();
  await expect(amountDialog).toContainText('There must be max two decimals after comma');
  await amountDialog.getByRole('textbox').fill('2500');
  await amountDialog.getByRole('button', { name: 'Change' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm amount' });
  await expect(confirm).toContainText('Are you sure you want to change the amount to 2,500.00 UZS?');
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(confirm.getByText('Reason must be at least 3 characters long')).toBeVisible();
  await confirm.getByRole('textbox', { name: 'Reason' }).fill('Bank statement shows 2500.00');
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(toast(page, 'Successfully changed')).toBeVisible();
  await expect(page.getByTestId('invoice-amount')).toHaveText('2,500.00 UZS');

  // event log records both changes
  await page.getByRole('button', { name: /Event Log/ }).click();
  await expect(page.getByRole('table', { name: 'Event log' })).toContainText('AMOUNT_CHANGED');

  // manual callback
  await page.getByRole('button', { name: /Callbacks/ }).click();
  const before = await page.getByTestId('callback-item').count();
  await page.getByRole('button', { name: 'Callback', exact: true }).click();
  const cbDialog = page.getByRole('dialog', { name: 'Send manual callback' });
  await expect(cbDialog).toContainText('Are you sure you want to send manual callback to merchant?');
  await cbDialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(toast(page, 'Manual callback queued')).toBeVisible();
  const manual = page.getByTestId('callback-item').filter({ hasText: 'manual' });
  await expect(page.getByTestId('callback-item')).toHaveCount(before + 1);
  // the worker delivers it to the demo's own inbox, which verifies it with standardwebhooks: the attempt and the
  // receipt (verdict, headers, body) show up
  await expect(manual.first()).toContainText('Attempt 1', { timeout: 20_000 });
  const receipt = manual.first().getByTestId('callback-receipt');
  await expect(receipt).toContainText('Signature verified with standardwebhooks (current secret)');
  await receipt.getByRole('button', { name: 'Show headers and body' }).click();
  await expect(receipt.getByLabel('Headers')).toContainText('webhook-signature: v1,');
  await expect(receipt.getByLabel('Body')).toContainText('"type": "invoice.manual"');
});

test('ops approves a ticket', async ({ page, signInAs }) => {
  await signInAs('ops');
  const invoiceId = await invoiceWithOpenTicket(page.request);
  await page.goto(`/invoices/${invoiceId}`);
  await page.getByRole('button', { name: /Support History/ }).click();
  const open = page
    .getByTestId('support-ticket')
    .filter({ has: page.getByRole('button', { name: 'Approve' }) })
    .first();
  await open.getByRole('button', { name: 'Approve' }).click();
  await expect(toast(page, 'Successfully approved')).toBeVisible();
  await expect(page.getByTestId('invoice-status')).toHaveText('Done');
  await expect(page.getByTestId('support-ticket').filter({ hasText: 'Solved' }).first()).toBeVisible();
});

test('viewer sees no finance strip and no action buttons', async ({ page, signInAs }) => {
  await signInAs('viewer');
  await expect(rows(page).first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Finance summary' })).toHaveCount(0);
  const list = await (await page.request.get('/api/v1/invoice?flowType=DEPOSIT&size=100')).json();
  const inv = (list.data as { invoiceId: string; isTestProcessing: boolean }[]).find((i) => !i.isTestProcessing)!;
  await page.goto(`/invoices/${inv.invoiceId}`);
  await expect(page.getByRole('heading', { name: 'Transaction', level: 1, exact: true })).toBeVisible();
  for (const name of ['Change amount', 'Retry', 'Callback'])
    await expect(page.getByRole('button', { name, exact: true })).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Change status' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Event Log|Errors|Callbacks|Transactions/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Support History/ })).toBeVisible();
});

test('CSV download shows progress and saves Invoices.csv', async ({ page, signInAs }) => {
  await signInAs('owner');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Report' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('Invoices.csv');
  const text = await (await file.createReadStream()).toArray();
  const lines = Buffer.concat(text).toString('utf8').trim().split('\n');
  expect(lines[0]).toContain('Invoice ID,Merchant Invoice ID');
  expect(lines.length).toBeGreaterThan(10);
});
