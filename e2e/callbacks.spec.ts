import type { Page } from '@playwright/test';
import { DEMO_PASSWORD, expect, signIn, test } from './support/auth';
import { wcagViolations } from './support/a11y';
import { apiSession } from './support/people';

/**
 * After a day when the merchant's endpoint was down (the demo history has one: its deliveries gave up after 72 h), the
 * owner reads the endpoint's health on the Merchant page, lists the failed deliveries, previews a replay of them and
 * runs it; the worker sends them again and the endpoint (the demo's own inbox, which verifies every signature with
 * `standardwebhooks`) takes them.
 */

const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text }).first();

test('the owner sees the callback endpoint on the Merchant page, then previews and replays the failed deliveries', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const owner = await apiSession(baseURL!, 'owner', DEMO_PASSWORD);
  const audited = async () =>
    ((await (await owner.get('/api/v1/audit?action=callbacks.replayed')).json()) as { total: number }).total;
  const failed = (
    (await (await owner.get('/api/v1/callbacks?status=FAILED&limit=200')).json()) as { data: { id: string }[] }
  ).data;
  expect(failed.length).toBeGreaterThan(0);
  const auditedBefore = await audited();

  await signIn(page, 'owner');
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Merchant', exact: true })
    .click();
  await expect(page.getByRole('heading', { name: 'Merchant', level: 1 })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Profile', selected: true })).toBeVisible();
  const card = page.getByRole('region', { name: 'Callback endpoint' });
  await expect(card).toBeVisible();
  await expect(card.getByTestId('endpoint-state')).toHaveText(/^(Healthy|Failing)$/);
  for (const label of ['Last success', 'Failed attempts since', 'Success rate (24 h)', 'Waiting to be sent']) {
    await expect(card.getByText(label, { exact: true })).toBeVisible();
  }
  await expect(card.getByText('/api/demo/callbacks')).toBeVisible();
  await expect(card.getByText(/^\d+(\.\d)? % \([\d,]+ of [\d,]+ attempts\)$/)).toBeVisible();
  for (const width of [1280, 768]) {
    await page.setViewportSize({ width, height: 1000 });
    await page.screenshot({ path: `test-results/callbacks-endpoint-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 1000 });
  expect(await wcagViolations(page, { within: ['main'], strict: true })).toEqual([]);

  // the card's link: the failed deliveries, the filter in the URL
  await card.getByRole('link', { name: 'View failed deliveries' }).click();
  await expect(page).toHaveURL(/\/merchant\?tab=callbacks&status=FAILED$/);
  await expect(page.getByRole('tab', { name: 'Callbacks', selected: true })).toBeVisible();
  const table = page.getByRole('table', { name: 'Callback deliveries' });
  const rows = table.locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBe(Math.min(failed.length, 50));
  await expect(rows.filter({ hasNotText: 'Failed' })).toHaveCount(0);
  await expect(rows.first()).toContainText('HTTP 503');
  for (const width of [1280, 768]) {
    await page.setViewportSize({ width, height: 1000 });
    await page.screenshot({ path: `test-results/callbacks-list-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 1000 });
  expect(await wcagViolations(page, { within: ['main'], strict: true })).toEqual([]);

  // preview: a count, nothing sent
  await page.getByRole('button', { name: 'Replay', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Replay callbacks' });
  await expect(dialog.getByText('Failed · every event')).toBeVisible();
  const preview = dialog.getByTestId('replay-preview');
  await expect(preview).toContainText('will be sent once more');
  const count = Number((await preview.textContent())!.match(/^([\d,]+) event/)![1]!.replace(/,/g, ''));
  expect(count).toBe(failed.length);
  expect(await audited()).toBe(auditedBefore);
  for (const width of [1280, 768]) {
    await page.setViewportSize({ width, height: 1000 });
    await page.screenshot({ path: `test-results/callbacks-replay-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 1000 });
  expect(await wcagViolations(page, { strict: true })).toEqual([]);

  // run it
  await dialog.getByRole('button', { name: `Replay ${count}` }).click();
  await expect(toast(page, `${count} callbacks queued to be sent again`)).toBeVisible();
  await expect(dialog).toHaveCount(0);
  expect(await audited()).toBe(auditedBefore + 1);

  // the worker sends each event once more, at the replay's pace, and the demo endpoint takes them
  await expect
    .poll(
      async () => {
        const res = (await (await owner.get('/api/v1/callbacks?status=DELIVERED&limit=200')).json()) as {
          data: { replayOf: string | null }[];
        };
        return res.data.filter((d) => d.replayOf).length;
      },
      { timeout: 60_000, intervals: [1000] },
    )
    .toBe(count);
  await page.getByRole('main').getByRole('combobox', { name: 'Status', exact: true }).click();
  await page.getByRole('option', { name: 'Delivered', exact: true }).click();
  await expect(page).toHaveURL(/status=DELIVERED/);
  await expect(rows.first()).toContainText('Replay');
  await expect(rows.first()).toContainText('Delivered');
  // a second replay of the same deliveries still sends each event once more (nothing of it is in flight now)
  await page.getByRole('main').getByRole('combobox', { name: 'Status', exact: true }).click();
  await page.getByRole('option', { name: 'Failed', exact: true }).click();
  await page.getByRole('button', { name: 'Replay', exact: true }).click();
  await expect(dialog.getByTestId('replay-preview')).toContainText(`${count} event`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect(await audited()).toBe(auditedBefore + 1);
});
