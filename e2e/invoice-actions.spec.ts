import type { APIRequestContext, Locator, Page, TestInfo } from '@playwright/test';
import { expect, signIn, signOut, test } from './support/auth';
import { createInvoice, demoMerchant } from './support/merchant-api';

/**
 * The back-office's invoice screens: actions the server would refuse are shown disabled with its reason, the event log
 * names who acted, amounts are typed and confirmed in major units, and the list and details fit 768 and 1280 px.
 */

const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

/**
 * A live withdrawal whose payout is with the provider (no real provider answers in the test run): created through the
 * merchant API, then completed by the customer through the payment form's calls.
 */
async function withdrawalWithPendingPayout(request: APIRequestContext, baseURL: string) {
  const amount = 123_400;
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
  const done = await request.post(`${form}/complete`, { data: { credential: '4111111111111111' } });
  expect(done.status(), await done.text()).toBe(200);
  return created.invoiceId;
}

async function openDetails(page: Page, invoiceId: string) {
  await page.goto(`/invoices/${invoiceId}`);
  await expect(page.getByRole('heading', { name: 'Transaction', level: 1, exact: true })).toBeVisible();
  await expect(page.getByTestId('invoice-status')).toBeVisible();
}

/** Whether the element's box lies inside the viewport, left to right. */
async function withinViewport(page: Page, el: Locator) {
  const box = (await el.boundingBox())!;
  const width = page.viewportSize()!.width;
  return box.x >= 0 && box.x + box.width <= width + 0.5;
}

/** The input's placeholder drawn whole: its text is no wider than the input's text box. */
function placeholderFits(input: Locator) {
  return input.evaluate((el: HTMLInputElement) => {
    const cs = getComputedStyle(el);
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const text = ctx.measureText(el.placeholder).width;
    const box = el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    return { placeholder: el.placeholder, text: Math.ceil(text), box: Math.floor(box) };
  });
}

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: testInfo.outputPath(name), fullPage: true });
}

test('a payout still with the provider: Retry is disabled with the reason, and so are the statuses it forbids', async ({
  page,
  baseURL,
}, testInfo) => {
  const invoiceId = await withdrawalWithPendingPayout(page.request, baseURL!);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, 'ops');
  await openDetails(page, invoiceId);
  await expect(page.getByTestId('invoice-status')).toHaveText('In progress');

  const reason = 'Payout attempt 1 is still with the provider; retry only after it is declined';
  const retry = page.getByRole('button', { name: 'Retry', exact: true });
  await expect(retry).toBeVisible();
  await expect(retry).toHaveAttribute('aria-disabled', 'true');
  await expect(retry).toHaveAccessibleDescription(reason);
  await retry.hover();
  await expect(page.getByRole('tooltip')).toHaveText(reason);
  // nothing to confirm: the click does nothing
  await retry.click({ force: true });
  await expect(page.getByRole('dialog', { name: 'Invoice retry' })).toHaveCount(0);

  // the current status once (the badge); the select offers the others, those the engine refuses disabled with why
  const select = page.getByRole('combobox', { name: 'Change status' });
  await expect(select).toHaveAttribute('placeholder', 'Change to…');
  await select.click();
  const option = (name: string) => page.getByRole('option', { name: new RegExp(`^${name}`) });
  await expect(option('In progress')).toHaveCount(0);
  await expect(option('Done')).not.toHaveAttribute('data-combobox-disabled');
  for (const status of ['New', 'Declined', 'Canceled']) {
    await expect(option(status), status).toHaveAttribute('data-combobox-disabled', 'true');
    await expect(option(status), status).toContainText('Payout attempt 1 is still with the provider');
  }
  await screenshot(page, testInfo, 'refused-status-options-1280.png');
  await option('Declined').click({ force: true });
  await expect(page.getByRole('dialog', { name: 'Change status' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await retry.hover();
  await screenshot(page, testInfo, 'refused-retry-1280.png');
});

test('the amount is typed and confirmed in major units with the currency; the current amount is refused at once', async ({
  page,
  baseURL,
}) => {
  const created = await createInvoice(baseURL!, { flowType: 'DEPOSIT', currency: 'RUB', test: false, amount: 360_000 });
  await signIn(page, 'ops');
  await openDetails(page, created.invoiceId);
  await expect(page.getByTestId('invoice-amount')).toHaveText('3,600.00 RUB');

  await page.getByRole('button', { name: 'Change amount' }).click();
  const input = page.getByRole('dialog', { name: 'Change amount' });
  const amount = input.getByRole('textbox', { name: 'Amount, RUB' });
  await expect(amount).toHaveValue('3600.00');
  await expect(input).toContainText('Now 3,600.00 RUB');
  await input.getByRole('button', { name: 'Change' }).click();
  await expect(input).toContainText('The amount is already 3,600.00 RUB');
  await expect(page.getByRole('dialog', { name: 'Confirm amount' })).toHaveCount(0);

  await amount.fill('3700');
  await input.getByRole('button', { name: 'Change' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm amount' });
  await expect(confirm).toContainText('Are you sure you want to change the amount to 3,700.00 RUB?');
  await confirm.getByRole('textbox', { name: 'Reason' }).fill('The customer sent 3,700.00 RUB');
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(toast(page, 'Successfully changed')).toBeVisible();
  await expect(page.getByTestId('invoice-amount')).toHaveText('3,700.00 RUB');
});

test('the event log names who acted (id on hover); a merchant sees platform staff only as such', async ({
  page,
  baseURL,
}) => {
  const created = await createInvoice(baseURL!, { flowType: 'DEPOSIT', amount: 250_000 });
  await signIn(page, 'ops');
  await openDetails(page, created.invoiceId);
  await page.getByRole('combobox', { name: 'Change status' }).click();
  await page.getByRole('option', { name: 'Canceled', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Change status' });
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('The customer asked to cancel');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(toast(page, 'Status changed successfully!')).toBeVisible();

  const me = (await (await page.request.get('/api/v1/people/me')).json()).data as { id: string };
  await page.getByRole('button', { name: /^Event Log/ }).click();
  const log = page.getByRole('table', { name: 'Event log' });
  await expect(log.getByRole('columnheader', { name: 'User', exact: true })).toBeVisible();
  const byOps = log.getByRole('row').filter({ hasText: 'STATUS_CHANGED_BY_OPERATOR' }).getByTestId('event-user');
  await expect(byOps).toHaveText('Omar Rashidovops');
  await expect(byOps.getByText('Omar Rashidov', { exact: true })).toBeVisible();
  await expect(byOps.getByText('ops', { exact: true })).toBeVisible();
  await expect(byOps).toHaveAttribute('title', `User ID ${me.id}`);
  // on one line, not a uuid wrapped over three
  const lines = await byOps.getByText('Omar Rashidov', { exact: true }).evaluate((el) => {
    const lh = parseFloat(getComputedStyle(el).lineHeight);
    return Math.round(el.getBoundingClientRect().height / lh);
  });
  expect(lines).toBe(1);
  await signOut(page);

  await signIn(page, 'support');
  await openDetails(page, created.invoiceId);
  await page.getByRole('button', { name: /^Event Log/ }).click();
  const seen = page
    .getByRole('table', { name: 'Event log' })
    .getByRole('row')
    .filter({ hasText: 'STATUS_CHANGED_BY_OPERATOR' })
    .getByTestId('event-user');
  await expect(seen).toHaveText('Platform staff');
  await expect(seen).not.toHaveAttribute('title');
  await expect(page.getByRole('main')).not.toContainText('Omar');
});

test('768 and 1280 px: the list shows every amount without a sideways scroll, the search says what it finds', async ({
  page,
}, testInfo) => {
  await signIn(page, 'ops');
  for (const width of [768, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/invoices?merchantId=${demoMerchant().merchantId}`);
    const amounts = page.getByTestId('row-amount');
    await expect(amounts.first()).toBeVisible();
    expect(await amounts.count()).toBeGreaterThan(0);
    for (const cell of await amounts.all()) {
      expect(await withinViewport(page, cell), `${width} px: ${await cell.textContent()}`).toBe(true);
      await expect(cell).toHaveText(/^[\d,]+\.\d{2} [A-Z]{3}$/);
    }
    // nothing hides behind a scroll inside the card either
    const scrolls = await page.getByRole('table', { name: 'Transactions' }).evaluate((t) => {
      const box = t.closest('.mantine-ScrollArea-viewport') ?? t.parentElement!;
      return box.scrollWidth - box.clientWidth;
    });
    expect(scrolls, `${width} px`).toBeLessThanOrEqual(1);
    const search = page.getByRole('textbox', { name: 'Search' });
    const fit = await placeholderFits(search);
    expect(fit.text, `${width} px: "${fit.placeholder}"`).toBeLessThanOrEqual(fit.box);
    expect(fit.placeholder).toBe('Search invoice, merchant, provider or user ID');
    await screenshot(page, testInfo, `transactions-${width}.png`);
  }
});

test('768 and 1280 px: the details say "Transaction" once and the status once', async ({ page, baseURL }, testInfo) => {
  const invoiceId = await withdrawalWithPendingPayout(page.request, baseURL!);
  await signIn(page, 'ops');
  // an entry of the event log by a person: a manual callback
  const sent = await page.request.post(`/api/v1/merchant/callback?merchantId=${demoMerchant().merchantId}`, {
    data: { invoiceId },
    headers: { origin: new URL(baseURL!).origin },
  });
  expect(sent.status(), await sent.text()).toBe(200);
  for (const width of [768, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await openDetails(page, invoiceId);
    await expect(page.getByRole('main').getByText('Transaction', { exact: true })).toHaveCount(1);
    // the status row: the badge, then the select to change it (not the same words again)
    const row = page.getByTestId('invoice-status').locator('xpath=..');
    await expect(row).toHaveText('In progress');
    await expect(row.getByRole('combobox', { name: 'Change status' })).toHaveAttribute('placeholder', 'Change to…');
    for (const section of ['Event Log', 'Transactions'])
      await page.getByRole('button', { name: new RegExp(`^${section}`) }).click();
    await expect(page.getByTestId('event-user').first()).toBeVisible();
    await expect(page.getByRole('table', { name: 'Provider transactions' })).toBeVisible();
    await screenshot(page, testInfo, `invoice-details-${width}.png`);
  }
});
