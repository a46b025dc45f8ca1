import { expect, test } from '@playwright/test';
import { signIn } from './support/auth';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium';
import { createInvoice } from './support/merchant-api';

/**
 * Opened at a plain-http address that is not localhost (a VM, a container, a LAN), the back-office and
 * the payment form render and work: no HSTS, no `upgrade-insecure-requests` sending assets to https.
 * Chromium resolves `paydesk.test` to this machine through a host-resolver rule.
 */
const PORT = Number(process.env.E2E_PORT) || 3100; // playwright.config.ts
const HOST = `http://paydesk.test:${PORT}`;

test.use({
  baseURL: HOST,
  launchOptions: {
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP paydesk.test 127.0.0.1'],
  },
});

test('the back-office signs in and lists transactions at a non-localhost http address', async ({ page }) => {
  const upgraded: string[] = [];
  const failed: string[] = [];
  page.on('request', (r) => r.url().startsWith('https:') && upgraded.push(r.url()));
  // a query cancelled by a navigation is ERR_ABORTED: not a failure of the address
  page.on('requestfailed', (r) => {
    if (r.failure()?.errorText !== 'net::ERR_ABORTED') failed.push(`${r.url()} ${r.failure()?.errorText}`);
  });
  const res = await page.goto('/login');
  expect(res?.headers()['strict-transport-security']).toBeUndefined();
  expect(res?.headers()['cache-control']).toBe('no-cache');
  await signIn(page, 'ops');
  await expect(page.getByRole('table').first()).toBeVisible();
  expect(page.url().startsWith(HOST)).toBe(true);
  expect(upgraded).toEqual([]);
  expect(failed).toEqual([]);
});

test('the payment form renders at a non-localhost http address', async ({ page }) => {
  const inv = await createInvoice(`http://localhost:${PORT}`, { flowType: 'DEPOSIT', amount: 150_000_00 });
  await page.goto(`/payment/${inv.formId}`);
  await expect(page).toHaveTitle(/Payment/);
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
  expect(page.url().startsWith(HOST)).toBe(true);
});
