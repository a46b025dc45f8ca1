import type { Page, TestInfo } from '@playwright/test';
import { expect, test } from './support/auth';
import { seriousViolations } from './support/a11y';

/**
 * The Transactions list past its first 10,000 rows (docs/performance.md, "Keyset pagination"): numbered pages reach the
 * capped total, "next" on the last of them goes on by position (keyset cursor in the URL), newer/older steps walk every
 * row and back, and "Count exactly" gives the filter's exact total. The e2e server seeds Second Shop with
 * SEED_EXTRA_INVOICES (10,500) canceled invoices EXTRA-0000001… older than its demo history (playwright.config.ts). The
 * walk filters on them alone (search "EXTRA-", status Canceled): rows nothing changes while the test runs (the demo's
 * own invoices move on with the sandbox and the expiry worker), so the filter's exact total is known.
 */

const EXTRA = 10_500;
const SIZE = 40;
const CANCELED = 6;
const FILTER = `search=EXTRA-&statusIds=${CANCELED}`;
const rows = (page: Page) => page.getByTestId('invoice-row');
const rowIds = async (page: Page) => (await rows(page).getByRole('link').allTextContents()).map((s) => s.trim());
const range = (page: Page) => page.getByTestId('invoice-range');
const positionButtons = (page: Page) => page.getByRole('group', { name: 'Pages by position' });
const older = (page: Page) => positionButtons(page).getByRole('button', { name: 'Older' });
const newer = (page: Page) => positionButtons(page).getByRole('button', { name: 'Newer' });
const urlParams = (page: Page) => new URL(page.url()).searchParams;

/** Waits for a list whose rows differ from `before` (the previous page stays on screen while the next loads). */
async function nextRows(page: Page, before: string[]): Promise<string[]> {
  let ids: string[] = [];
  await expect
    .poll(async () => {
      ids = await rowIds(page);
      return ids.length > 0 && ids.join() !== before.join() && !(await page.locator('[aria-busy="true"]').count());
    })
    .toBe(true);
  return ids;
}

/** The screen at the list's pager (the top bar and navigation are fixed: a full-page shot would repeat them). */
async function shot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await range(page).scrollIntoViewIfNeeded();
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

/** Nothing sticks out sideways: the page does not scroll horizontally (the table scrolls inside its card). */
async function expectNoSidewaysScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

test('past the 10,000th row of a filter by position and back; "Count exactly" gives its exact total', async ({
  page,
  signInAs,
}, testInfo) => {
  test.setTimeout(120_000);
  await signInAs('shop2');
  const counted = await (await page.request.get(`/api/v1/invoice/count?${FILTER}`)).json();
  const exact = counted.data.total as number;
  expect(exact, 'the e2e seed gives Second Shop 10,500 extra canceled invoices').toBe(EXTRA);

  await page.goto(`/invoices?${FILTER}&size=${SIZE}`);
  await expect(range(page)).toHaveText(`1–${SIZE} of 10,000+`);

  // "Count exactly": the exact total of this filter, announced
  await page.getByRole('button', { name: 'Count exactly' }).click();
  const count = page.getByTestId('invoice-exact-count');
  await expect(count).toHaveText(`${exact.toLocaleString('en')} transactions`);
  await expect(count.locator('xpath=ancestor::*[@aria-live="polite"]')).toHaveCount(1);

  // the last numbered page: rows 9,961–10,000
  await page.getByRole('button', { name: `Page ${10_000 / SIZE}` }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]page=${10_000 / SIZE - 1}(&|$)`));
  await expect(range(page)).toHaveText(`${(10_000 - SIZE + 1).toLocaleString('en')}–10,000 of 10,000+`);
  let ids = await nextRows(page, []);
  expect(ids).toHaveLength(SIZE);
  const lastNumbered = ids;

  // "next page" goes on by position: rows 10,001… in the URL as after=, linkable
  await page.getByRole('button', { name: 'next page' }).click();
  await expect(page).toHaveURL(/[?&]after=/);
  expect(urlParams(page).has('page')).toBe(false);
  expect(urlParams(page).getAll('statusIds')).toEqual([String(CANCELED)]);
  expect(urlParams(page).get('search')).toBe('EXTRA-');
  ids = await nextRows(page, lastNumbered);
  const firstByPosition = ids;
  expect(ids.filter((id) => lastNumbered.includes(id))).toEqual([]);
  await expect(range(page)).toHaveText(new RegExp(`^Page by page · ${SIZE} rows, .+ UTC$`));
  // the count of this filter is kept: not asked again
  await expect(count).toHaveText(`${exact.toLocaleString('en')} transactions`);
  await expect(page.getByRole('button', { name: 'First page' })).toBeVisible();
  await expect(newer(page)).toBeEnabled();

  for (const width of [1280, 768]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await shot(page, testInfo, `invoices-by-position-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  expect(await seriousViolations(page, ['main'])).toEqual([]);

  // older, page by page, to the very last row: every row once, 10,000 by number + the rest by position
  const seen = new Set(firstByPosition);
  let walked = firstByPosition.length;
  let previous = firstByPosition;
  let beforeLast = firstByPosition;
  let steps = 0;
  while (await older(page).isEnabled()) {
    await older(page).click();
    beforeLast = previous;
    previous = await nextRows(page, previous);
    for (const id of previous) seen.add(id);
    walked += previous.length;
    steps++;
    expect(steps, 'the walk ends').toBeLessThan(100);
  }
  expect(seen.size).toBe(walked);
  expect(10_000 + walked).toBe(exact);
  await expect(older(page)).toBeDisabled();
  const lastPage = previous;
  expect(lastPage.length).toBeGreaterThan(0);

  // newer: the page before, the same rows; Back in the browser: the last page again, then the one before
  await newer(page).click();
  expect(await nextRows(page, lastPage)).toEqual(beforeLast);
  await expect(page).toHaveURL(/[?&]before=/);
  await page.goBack();
  expect(await nextRows(page, beforeLast)).toEqual(lastPage);
  await page.goBack();
  expect(await nextRows(page, lastPage)).toEqual(beforeLast);

  // "First page": numbered pages again, with the filter
  await page.getByRole('button', { name: 'First page' }).click();
  await expect(range(page)).toHaveText(`1–${SIZE} of 10,000+`);
  expect(urlParams(page).has('after') || urlParams(page).has('before')).toBe(false);
  expect(urlParams(page).getAll('statusIds')).toEqual([String(CANCELED)]);

  // a changed page size leaves paging by position, back to page 1
  await page.goBack();
  await expect(page).toHaveURL(/[?&](after|before)=/);
  await page.getByRole('combobox', { name: 'Items per page' }).click();
  await page.getByRole('option', { name: '25', exact: true }).click();
  await expect(range(page)).toHaveText('1–25 of 10,000+');
  expect(urlParams(page).has('after') || urlParams(page).has('before')).toBe(false);

  // another filter (all statuses, the same search): its own count, not asked yet; back: this filter's count is kept
  await page.getByRole('button', { name: 'Filter' }).click();
  const dialog = page.getByRole('dialog', { name: 'Filter' });
  await dialog.getByRole('checkbox', { name: 'Canceled' }).uncheck();
  await dialog.getByRole('button', { name: 'Apply Filter' }).click();
  await expect(page).not.toHaveURL(/statusIds=/);
  await expect(range(page)).toHaveText('1–25 of 10,000+');
  await expect(page.getByRole('button', { name: 'Count exactly' })).toBeVisible();
  await expect(count).toHaveCount(0);
  await page.goBack();
  await expect(page).toHaveURL(/statusIds=6/);
  await expect(range(page)).toHaveText('1–25 of 10,000+');
  await expect(count).toHaveText(`${exact.toLocaleString('en')} transactions`);
});

test('"Count exactly" in the app’s words when the count fails; asked again, it counts', async ({
  page,
  signInAs,
}, testInfo) => {
  await signInAs('shop2');
  let fail = true;
  await page.route('**/api/v1/invoice/count?**', async (route) => {
    // the second time: a slow count, so that its loader shows
    if (!fail) return new Promise((r) => setTimeout(r, 800)).then(() => route.continue());
    await route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({
        error: { code: 'SERVICE_BUSY', message: 'canceling statement due to statement timeout' },
      }),
    });
  });
  await page.goto(`/invoices?${FILTER}`);
  await expect(range(page)).toHaveText('1–10 of 10,000+');
  await page.getByRole('button', { name: 'Count exactly' }).click();
  await expect(
    page.getByText('The service is busy, or this took too long. Try again in a moment, or narrow the filters.'),
  ).toBeVisible();
  await expect(page.getByText('statement timeout')).toHaveCount(0);
  fail = false;
  await page.getByRole('button', { name: 'Count exactly' }).click();
  await expect(page.getByText('Counting…')).toBeVisible();
  await expect(page.getByTestId('invoice-exact-count')).toHaveText('10,500 transactions');
  for (const width of [1280, 768]) {
    await page.setViewportSize({ width, height: 900 });
    await expectNoSidewaysScroll(page);
    await shot(page, testInfo, `invoices-exact-count-${width}`);
  }
});
