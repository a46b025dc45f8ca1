import fs from 'node:fs';
import type { Page, Request } from '@playwright/test';
import { INVOICE_CSV_COLUMNS } from '../packages/contracts/src/invoices';
import { REPORT_COLUMNS } from '../packages/contracts/src/reports';
import { expect, test } from './support/auth';

/**
 * CSV downloads: the invoices export and the reports are downloaded by navigation, so the browser's
 * download manager streams them to disk; the page never reads the body. A refusal before the file starts is told in
 * words, never as a raw JSON page.
 */

/** Every request the page makes to a CSV endpoint, with how it was made. */
function csvRequests(page: Page, path: string) {
  const seen: Request[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === path) seen.push(r);
  });
  return seen;
}

const read = (file: string) => fs.readFileSync(file, 'utf8');
const toast = (page: Page, text: string | RegExp) => page.getByRole('alert').filter({ hasText: text });

test('the invoices CSV is a navigation to the streaming endpoint with the list filters, saved by the browser', async ({
  page,
  signInAs,
}, testInfo) => {
  await signInAs('owner');
  // a filtered view (the list state lives in the URL)
  const listRequest = page.waitForRequest(
    (r) => new URL(r.url()).pathname === '/api/v1/invoice' && r.url().includes('flowType=DEPOSIT'),
  );
  await page.goto('/invoices?flowType=DEPOSIT');
  const listUrl = new URL((await listRequest).url());
  expect(listUrl.searchParams.get('flowType')).toBe('DEPOSIT');

  const seen = csvRequests(page, '/api/v1/invoice/csv');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Report' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('Invoices.csv');
  const saved = testInfo.outputPath('Invoices.csv');
  await file.saveAs(saved);

  // the invoices export ends its lines with LF as the server writes it (the existing invoices e2e splits on \n)
  const lines = read(saved).split('\n');
  expect(lines[0]).toBe(INVOICE_CSV_COLUMNS.join(','));
  expect(lines[1]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12},/);
  expect(lines[1]).toContain(',DEPOSIT,');
  expect(lines.length).toBeGreaterThan(10);

  // one request, a document navigation (not fetch/xhr: the page never held the body), with the list's filters
  expect(seen.map((r) => r.resourceType())).toEqual(['document']);
  const csvUrl = new URL(seen[0]!.url());
  expect(csvUrl.origin).toBe(new URL(page.url()).origin);
  for (const [k, v] of csvUrl.searchParams) expect(listUrl.searchParams.getAll(k), k).toContain(v);
  expect(csvUrl.searchParams.get('flowType')).toBe('DEPOSIT');
  expect(csvUrl.search).not.toMatch(/jwt|token|session/i);
  // the app stays where it was, the button comes back
  await expect(page).toHaveURL(/\/invoices(\?.*)?$/);
  await expect(page.getByRole('button', { name: 'Report' })).toBeEnabled();
});

test('a report downloads by navigation under the server name, CRLF lines', async ({ page, signInAs }, testInfo) => {
  await signInAs('ops');
  await expect(page.getByRole('banner').getByRole('combobox', { name: 'Merchant' })).toHaveValue('Demo Merchant');
  await page.goto('/reports');
  const card = page.getByRole('region', { name: 'Transactions', exact: true });
  await expect(card.getByRole('textbox', { name: 'Date From' })).toHaveValue(/^\d{4}-\d{2}-\d{2}$/);

  const seen = csvRequests(page, '/api/v1/report/invoice');
  // a slow server: the card says it is preparing the file until the response starts
  await page.route('**/api/v1/report/invoice?**', async (route) => {
    await new Promise((r) => setTimeout(r, 1_500));
    await route.continue();
  });
  const download = page.waitForEvent('download');
  await card.getByRole('button', { name: 'Get report' }).click();
  await expect(card.getByRole('status')).toHaveText('Preparing your file…');
  const file = await download;
  // ended by the server's started cookie, not by the 15 s fallback
  await expect(card.getByRole('status')).toHaveCount(0, { timeout: 3_000 });
  expect(file.suggestedFilename()).toMatch(/^report-invoice-\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);
  const saved = testInfo.outputPath(file.suggestedFilename());
  await file.saveAs(saved);
  // reports end every line with CRLF
  const text = read(saved);
  expect(text).not.toMatch(/[^\r]\n/);
  const lines = text.split('\r\n');
  expect(lines[0]).toBe(REPORT_COLUMNS.invoice.join(','));
  expect(lines[1]).toMatch(/^[0-9a-f]{8}-[0-9a-f-]{27},/);

  expect(seen.map((r) => r.resourceType())).toEqual(['document']);
  const url = new URL(seen[0]!.url());
  expect(url.searchParams.get('periodStart')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(url.searchParams.get('merchantId')).toBeTruthy();
  await expect(page).toHaveURL(/\/reports$/);
  await expect(card.getByRole('button', { name: 'Get report' })).toBeEnabled();
});

test('a report the server refuses is told in words: no download, no JSON page', async ({ page, signInAs }) => {
  await signInAs('ops', '/reports');
  const card = page.getByRole('region', { name: 'Transactions', exact: true });
  await expect(card.getByRole('textbox', { name: 'Date From' })).toHaveValue(/^\d{4}-\d{2}-\d{2}$/);

  // the form never sends crossed dates; the server is the one refusing here (400 before anything is streamed)
  await page.route('**/api/v1/report/invoice?**', (route) => {
    const url = new URL(route.request().url());
    url.searchParams.set('periodStart', '2026-02-10');
    url.searchParams.set('periodEnd', '2026-02-01');
    return route.continue({ url: url.toString() });
  });
  const seen = csvRequests(page, '/api/v1/report/invoice');
  let downloads = 0;
  page.on('download', () => downloads++);
  await card.getByRole('button', { name: 'Get report' }).click();

  await expect(toast(page, 'Could not get the report')).toContainText('periodEnd must not be before periodStart');
  expect(seen.map((r) => r.resourceType())).toEqual(['document']);
  expect((await seen[0]!.response())!.status()).toBe(400);
  await expect(page).toHaveURL(/\/reports$/);
  await expect(page.getByText('"error"')).toHaveCount(0);
  await expect(page.locator('iframe')).toHaveCount(0);
  await expect(card.getByRole('button', { name: 'Get report' })).toBeEnabled();
  expect(downloads).toBe(0);
});

test('an invoices CSV after the session ended says so and goes to Login', async ({ page, signInAs }) => {
  await signInAs('owner');
  await page.context().clearCookies();
  let downloads = 0;
  page.on('download', () => downloads++);
  await page.getByRole('button', { name: 'Report' }).click();
  await expect(toast(page, 'Download failed')).toContainText('Sign in');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('"error"')).toHaveCount(0);
  expect(downloads).toBe(0);
});
