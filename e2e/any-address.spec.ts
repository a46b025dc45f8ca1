import { expect, signIn, test } from './support/auth';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './support/chromium';
import { createInvoice } from './support/merchant-api';
import { portOf } from './support/servers';

/**
 * Opened at a plain-http address that is not localhost (a VM, a container, a LAN), the back-office and
 * the payment form render and work: no HSTS, no `upgrade-insecure-requests` sending assets to https.
 * Chromium resolves `paydesk.test` to this machine through a host-resolver rule.
 */
/** The test's own server (support/servers.ts), at that name. */
const host = () => `http://paydesk.test:${portOf(test.info().parallelIndex)}`;

test.use({
  // Playwright reads a fixture's dependencies from its first parameter's pattern: this one has none
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use, testInfo) => use(`http://paydesk.test:${portOf(testInfo.parallelIndex)}`),
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
  expect(page.url().startsWith(host())).toBe(true);
  expect(upgraded).toEqual([]);
  expect(failed).toEqual([]);
});

test('the payment form renders at a non-localhost http address', async ({ page }) => {
  const inv = await createInvoice(`http://localhost:${portOf(test.info().parallelIndex)}`, {
    flowType: 'DEPOSIT',
    amount: 150_000_00,
  });
  await page.goto(`/payment/${inv.formId}`);
  await expect(page).toHaveTitle(/Payment/);
  await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
  expect(page.url().startsWith(host())).toBe(true);
});
