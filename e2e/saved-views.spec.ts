import type { Page, TestInfo } from '@playwright/test';
import { expect, signIn, test } from './support/auth';

/** Saved views of the Transactions list: saved, shared, opened, renamed, deleted, by whom. */

const views = (page: Page) => page.getByRole('navigation', { name: 'Saved views' });
const viewLink = (page: Page, name: string) => views(page).getByRole('link', { name });
const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

async function saveView(page: Page, name: string, shared: boolean) {
  await page.getByRole('button', { name: 'Save view' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save view' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  if (shared) await dialog.getByRole('checkbox', { name: 'Share with my team' }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  return dialog;
}

async function shot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

test('finance saves a shared view; the team opens it, another merchant never sees it', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(90_000);
  const suffix = Math.random().toString(36).slice(2, 7);
  const name = `Done deposits ${suffix}`;
  await signIn(page, 'finance');

  // filters, search and a page size in the URL, then saved under a name
  await page.goto('/invoices?statusIds=4&flowType=DEPOSIT&size=25&page=1');
  await expect(page.getByTestId('invoice-row').first()).toBeVisible();
  const dialog = await saveView(page, name, true);
  await expect(dialog).toBeHidden();
  await expect(toast(page, `View ${name} saved`)).toBeVisible();
  // the list shows this view (on any of its pages): it is marked as current
  await expect(viewLink(page, name)).toHaveAttribute('aria-current', 'true');

  // the same name again (any case) is refused in the dialog, nothing saved
  const again = await saveView(page, name.toUpperCase(), false);
  await expect(again.getByText('You already have a view with this name')).toBeVisible();
  await again.getByRole('button', { name: 'Cancel' }).click();
  await expect(views(page).getByTestId('saved-view')).toHaveCount(1);

  // elsewhere, the view brings its URL state back (page 0)
  await page.goto('/invoices');
  await expect(viewLink(page, name)).not.toHaveAttribute('aria-current');
  await viewLink(page, name).click();
  await expect(page).toHaveURL(/[?&]statusIds=4/);
  await expect(page).toHaveURL(/[?&]flowType=DEPOSIT/);
  await expect(page).toHaveURL(/[?&]size=25/);
  await expect(page).not.toHaveURL(/[?&]page=/);
  await expect(viewLink(page, name)).toHaveAttribute('aria-current', 'true');
  await expect(page.getByRole('button', { name: /Filter/ })).toContainText('2');
  for (const width of [1280, 768]) {
    await page.setViewportSize({ width, height: 900 });
    await shot(page, testInfo, `saved-views-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // a teammate sees it as shared by finance, may open it, may not change it
  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  await signIn(viewer, 'viewer');
  await expect(viewLink(viewer, name)).toBeVisible();
  await expect(views(viewer).getByRole('button', { name: `Actions of view ${name}` })).toHaveCount(0);
  await viewLink(viewer, name).click();
  await expect(viewer).toHaveURL(/[?&]statusIds=4/);
  await viewerContext.close();

  // another merchant's owner: not there
  const shopContext = await browser.newContext();
  const shop = await shopContext.newPage();
  await signIn(shop, 'shop2');
  await expect(shop.getByRole('heading', { name: 'Transactions', level: 1 })).toBeVisible();
  await expect(viewLink(shop, name)).toHaveCount(0);
  await shopContext.close();

  // the owner of the view renames it, stops sharing it, deletes it
  const actions = () => views(page).getByRole('button', { name: new RegExp(`^Actions of view .*${suffix}$`) });
  await actions().click();
  await page.getByRole('menuitem', { name: 'Rename' }).click();
  const rename = page.getByRole('dialog', { name: /^Rename/ });
  await rename.getByRole('textbox', { name: 'Name' }).fill(`Month end ${suffix}`);
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(viewLink(page, `Month end ${suffix}`)).toBeVisible();
  await actions().click();
  await page.getByRole('menuitem', { name: 'Stop sharing' }).click();
  await expect(toast(page, 'is private now')).toBeVisible();
  await actions().click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete view' }).getByRole('button', { name: 'Delete' }).click();
  await expect(views(page)).toHaveCount(0);
});

test('a view keeps its terminal: opening it selects the terminal in the top bar too', async ({ page }) => {
  const suffix = Math.random().toString(36).slice(2, 7);
  await signIn(page, 'support');
  const terminal = page.getByRole('banner').getByRole('combobox', { name: 'Terminal', exact: true });
  await terminal.click();
  const option = page.getByRole('option').nth(1);
  const terminalName = (await option.textContent())!.trim();
  await option.click();
  await expect(page).toHaveURL(/terminalId=/);
  await saveView(page, `One terminal ${suffix}`, false);
  await expect(viewLink(page, `One terminal ${suffix}`)).toHaveAttribute('aria-current', 'true');

  // back to all terminals, then the view again
  await terminal.click();
  await page.getByRole('option').first().click();
  await expect(page).not.toHaveURL(/terminalId=/);
  await viewLink(page, `One terminal ${suffix}`).click();
  await expect(page).toHaveURL(/terminalId=/);
  await expect(terminal).toHaveValue(terminalName);
  await expect(viewLink(page, `One terminal ${suffix}`)).toHaveAttribute('aria-current', 'true');
});
