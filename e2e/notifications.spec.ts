import type { APIRequestContext } from '@playwright/test';
import { DEMO_PASSWORD, expect, signIn, test } from './support/auth';
import { wcagViolations } from './support/a11y';
import { cancelInvoice, createInvoice, demoMerchant } from './support/merchant-api';
import { apiSession } from './support/people';

/**
 * Notifications and the bell: a terminal whose success rate falls below its low threshold is an alert for who may see
 * its statistics, counted on the bell; platform staff also see the desk's alerts; a role that may see none has none.
 */

type Alerts = { data: { id: string; name: string; paymentStatus: string; status: string }[]; inProcess: number };
const alerts = async (api: APIRequestContext) =>
  (await (await api.get('/api/v1/notifications?status=IN_PROCESS')).json()) as Alerts;

/** The low threshold of the demo's test UZS deposit terminal (the one createInvoice uses), set by platform staff. */
async function setLowThreshold(admin: APIRequestContext, terminalId: string, merchantId: string, value: string) {
  const types = (await (await admin.get('/api/v1/reference?refHeaderId=105')).json()) as {
    data: { id: number; code: string }[];
  };
  const low = types.data.find((t) => t.code === 'SUCCESS_PERCENT_LOW_THRESHOLD')!;
  const res = await admin.patch(`/api/v1/terminal/${terminalId}?merchantId=${merchantId}`, {
    data: { attributes: [{ value, attrType: { id: low.id } }] },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

test('a terminal below its threshold: on the bell and the Notifications page for its merchant; the desk for platform staff', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const merchant = demoMerchant();
  const terminal = merchant.terminals.find((t) => t.flowType === 'DEPOSIT' && t.currency === 'UZS' && t.isTest)!;
  const admin = await apiSession(baseURL!, 'admin', DEMO_PASSWORD);
  const owner = await apiSession(baseURL!, 'owner', DEMO_PASSWORD);
  const id = `LOW_SUCCESS_RATE:${terminal.id}`;
  // every invoice finished in the last hour must have been paid: one cancelled invoice takes it below 100 %
  await setLowThreshold(admin, terminal.id, merchant.merchantId, '100');
  try {
    const invoice = await createInvoice(baseURL!, { flowType: 'DEPOSIT', amount: 15_000_00 });
    await cancelInvoice(baseURL!, invoice.invoiceId);
    const mine = await alerts(owner);
    const alert = mine.data.find((n) => n.id === id)!;
    expect(alert.paymentStatus).toMatch(/below the 100 % threshold$/);

    expect(mine.inProcess).toBeGreaterThanOrEqual(1);
    await signIn(page, 'owner');
    // the bell counts what the server says is In process for this user (read again: time moves the hour's rates)
    const bell = page.getByRole('link', { name: /^Notifications: \d+ in process$/ });
    await expect(bell).toBeVisible();
    await expect(async () => {
      const shown = Number(/\d+/.exec((await bell.getAttribute('aria-label')) ?? '')![0]);
      expect(shown).toBe((await alerts(owner)).inProcess);
      await expect(page.getByTestId('notification-count')).toContainText(String(shown));
    }).toPass({ timeout: 10_000 });
    await bell.click();
    await expect(page).toHaveURL(/\/notifications$/);
    await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();
    const table = page.getByRole('table', { name: 'Notifications' });
    await expect(table.getByRole('columnheader')).toHaveText(['Name', 'Payment status', 'Status']);
    const row = table.getByRole('row').filter({ hasText: `Low success rate: ${terminal.name}` });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(alert.paymentStatus);
    await expect(row.getByText('In process', { exact: true })).toBeVisible();
    // a merchant's user sees nothing of the platform's desk
    await expect(table).not.toContainText('Unmatched money');

    await page.mouse.move(600, 600); // away from the bell: no tooltip over the page
    await expect(page.getByRole('tooltip')).toHaveCount(0);
    for (const width of [1280, 768]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `test-results/notifications-${width}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await wcagViolations(page, { within: ['main', 'header'], strict: true })).toEqual([]);

    // the alert's link opens the merchant's monitoring
    await row.getByRole('link', { name: `Low success rate: ${terminal.name}` }).click();
    await expect(page.getByRole('heading', { name: 'Monitoring', level: 1 })).toBeVisible();

    // platform staff: the same alert, with its merchant, among the desk's
    const ops = await apiSession(baseURL!, 'ops', DEMO_PASSWORD);
    const theirs = await alerts(ops);
    expect(theirs.data.map((n) => n.id)).toContain(id);
    await page.getByRole('button', { name: 'Log Out' }).click();
    await signIn(page, 'ops');
    await expect(page.getByRole('link', { name: /^Notifications: \d+ in process$/ })).toBeVisible();
    expect(theirs.inProcess).toBeGreaterThanOrEqual(1);
    await page.goto('/notifications');
    const opsRow = page
      .getByRole('table', { name: 'Notifications' })
      .getByRole('row')
      .filter({ hasText: `Low success rate: ${terminal.name}` });
    await expect(opsRow).toContainText('Demo Merchant');
    await page.screenshot({ path: 'test-results/notifications-ops-1280.png', fullPage: true });
    await ops.dispose();
  } finally {
    await setLowThreshold(admin, terminal.id, merchant.merchantId, '60');
    await admin.dispose();
    await owner.dispose();
  }
});

test('a role that may see no alert: no count on the bell, and the page says why', async ({ page }) => {
  await signIn(page, 'viewer');
  await expect(page.getByRole('link', { name: 'Notifications', exact: true })).toBeVisible();
  await expect(page.getByTestId('notification-count')).not.toContainText(/\d/);
  await page.setViewportSize({ width: 768, height: 900 });
  await expect(page.getByRole('button', { name: 'Toggle navigation' })).toBeVisible();
  await page.getByRole('link', { name: 'Notifications', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();
  await expect(page.getByText('Your role shows neither.')).toBeVisible();
  await page.mouse.move(400, 600);
  await expect(page.getByRole('tooltip')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/notifications-viewer-768.png', fullPage: true });
});
