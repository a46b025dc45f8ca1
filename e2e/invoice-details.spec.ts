import type { Page, TestInfo } from '@playwright/test';
import { expect, signIn, signOut, test } from './support/auth';
import { createInvoice, demoMerchant } from './support/merchant-api';

/** Transaction details readable at 1280–1920 px, every currency on the finance strip, privacy, sign-out. */

const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });
const SECTIONS = /^(Errors|Event Log|Callbacks|Support History|Transactions)/;

async function openDetails(page: Page, invoiceId: string) {
  await page.goto(`/invoices/${invoiceId}`);
  await expect(page.getByRole('heading', { name: 'Transaction', level: 1, exact: true })).toBeVisible();
}

/** Opens every collapsible section and waits for their contents. */
async function expandSections(page: Page) {
  const toggles = page.getByRole('button', { name: SECTIONS });
  for (const toggle of await toggles.all()) {
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  }
  await expect(page.getByText(/^Loading/)).toHaveCount(0);
}

/**
 * Every element of the main content ends inside the viewport and inside the card (bordered panel or section)
 * that holds it; the page does not scroll sideways. Returns the offenders, described.
 */
function spills(page: Page) {
  return page.evaluate(() => {
    const out: string[] = [];
    const vw = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > vw)
      out.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${vw}`);
    // geometry, not behaviour: the cards are Mantine's bordered papers and the accordion's sections
    const CARD = '.mantine-Paper-root, .mantine-Accordion-item';
    // the audit itself must see the page: its cards and what is in them
    const cards = document.querySelectorAll(`main :is(${CARD})`).length;
    if (cards < 3) out.push(`only ${cards} cards found in main`);
    for (const el of Array.from(document.querySelectorAll('main *'))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const what = `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
      if (r.right > vw + 0.5) out.push(`${what} ends at ${Math.round(r.right)} past the viewport ${vw}`);
      const card = el.parentElement?.closest(CARD);
      if (card) {
        const c = card.getBoundingClientRect();
        if (r.right > c.right + 0.5)
          out.push(`${what} ends at ${Math.round(r.right)} past its card's ${Math.round(c.right)}`);
      }
    }
    return out;
  });
}

/** Each event code's text is drawn whole inside its badge (never "S." / "T."), or the badge names it in a title. */
function clippedCodes(page: Page) {
  return page.getByTestId('event-code').evaluateAll((badges) =>
    badges
      .filter((b) => {
        const code = (b.textContent ?? '').trim();
        const box = b.getBoundingClientRect();
        const range = document.createRange();
        range.selectNodeContents(b);
        const text = range.getBoundingClientRect();
        const whole = !code.includes('…') && text.left >= box.left - 0.5 && text.right <= box.right + 0.5;
        return !(whole || b.getAttribute('title') === code);
      })
      .map((b) => b.textContent),
  );
}

async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  // from the top, so the fixed top bar and navigation sit where a person sees them
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: testInfo.outputPath(name), fullPage: true });
}

test('ops: the details fit their cards at 1280 and 1920 px, codes whole, amounts in major units', async ({
  page,
  baseURL,
}, testInfo) => {
  const created = await createInvoice(baseURL!, { flowType: 'DEPOSIT', amount: 150_000 });
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, 'ops');
  await openDetails(page, created.invoiceId);

  // 0 is refused at the input, before the confirmation step
  await page.getByRole('button', { name: 'Change amount' }).click();
  const amountDialog = page.getByRole('dialog', { name: 'Change amount' });
  await amountDialog.getByRole('textbox').fill('0');
  await amountDialog.getByRole('button', { name: 'Change' }).click();
  await expect(amountDialog).toContainText('The amount must be greater than 0');
  await expect(page.getByRole('dialog', { name: 'Confirm amount' })).toHaveCount(0);
  await amountDialog.getByRole('textbox').fill('2500');
  await amountDialog.getByRole('button', { name: 'Change' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm amount' });
  await confirm.getByRole('textbox', { name: 'Reason' }).fill('Bank statement shows 2500.00');
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(toast(page, 'Successfully changed')).toBeVisible();

  await page.getByRole('button', { name: /^Event Log/ }).click();
  const log = page.getByRole('table', { name: 'Event log' });
  await expect(log.getByRole('row').filter({ hasText: 'AMOUNT_CHANGED' })).toContainText(
    'Amount changed from 1,500.00 UZS to 2,500.00 UZS: Bank statement shows 2500.00',
  );

  // a seeded payout with provider transactions and a long history: the widest tables there are
  const merchantId = demoMerchant().merchantId;
  const list = await (
    await page.request.get(`/api/v1/invoice?flowType=WITHDRAWAL&size=40&merchantId=${merchantId}`)
  ).json();
  let withTransactions = '';
  for (const inv of list.data as { invoiceId: string }[]) {
    const q = `invoiceId=${inv.invoiceId}&merchantId=${merchantId}`;
    const txs = (await (await page.request.get(`/api/v1/transaction/invoice?${q}`)).json()).data as unknown[];
    if (txs.length > 0) {
      withTransactions = inv.invoiceId;
      break;
    }
  }
  expect(withTransactions, 'a seeded withdrawal with provider transactions').not.toBe('');

  for (const invoiceId of [created.invoiceId, withTransactions]) {
    await openDetails(page, invoiceId);
    await expandSections(page);
    await expect(page.getByTestId('event-code').first()).toBeVisible();
    for (const width of [1280, 1920]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await spills(page), `${invoiceId} at ${width} px`).toEqual([]);
      expect(await clippedCodes(page), `${invoiceId} at ${width} px`).toEqual([]);
    }
  }
  await expect(page.getByRole('table', { name: 'Provider transactions' })).toBeVisible();
  for (const width of [1280, 768]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, testInfo, `invoice-details-${width}.png`);
  }
});

test("the finance strip shows every currency Demo Merchant's owner holds", async ({ page, signInAs }, testInfo) => {
  await signInAs('owner');
  const strip = page.getByRole('region', { name: 'Finance summary' });
  const balance = strip.getByRole('group', { name: 'Balance' }).getByTestId('balance-amount');
  await expect(balance.filter({ hasText: /UZS$/ })).toHaveCount(1);
  await expect(balance.filter({ hasText: /RUB$/ })).toHaveCount(1);
  // both in major units with their currency's two decimals
  for (const text of await balance.allTextContents()) expect(text).toMatch(/^-?[\d,]+\.\d{2} (UZS|RUB)$/);
  await page.setViewportSize({ width: 1280, height: 900 });
  await screenshot(page, testInfo, 'transactions-1280.png');
});

test("a viewer sees nothing of the account's requisites; ops does", async ({ page }) => {
  await signIn(page, 'ops');
  const merchantId = demoMerchant().merchantId;
  type Listed = { invoiceId: string; credentials: { bankName: string | null; owner: string | null } | null };
  const list = await (
    await page.request.get(`/api/v1/invoice?flowType=DEPOSIT&statusIds=4&size=40&merchantId=${merchantId}`)
  ).json();
  const inv = (list.data as Listed[]).find((i) => i.credentials?.bankName && i.credentials.owner);
  expect(inv, 'a routed deposit with a holder and a bank').toBeTruthy();
  const { bankName, owner } = inv!.credentials as { bankName: string; owner: string };

  await openDetails(page, inv!.invoiceId);
  await expect(page.getByText('Bank name', { exact: true })).toBeVisible();
  // (the bank may stand twice: the requisites and the account the money arrived on)
  await expect(page.getByText(bankName, { exact: true }).first()).toBeVisible();
  await expect(page.getByText(owner, { exact: true }).first()).toBeVisible();
  await signOut(page);

  await signIn(page, 'viewer');
  await openDetails(page, inv!.invoiceId);
  await expect(page.getByText('Flow Type', { exact: true })).toBeVisible();
  for (const label of ['Credentials', 'Bank name', 'Owner', 'Provider'])
    await expect(page.getByText(label, { exact: true })).toHaveCount(0);
  // (as the values they would be: a method's name may contain a bank's, "SberbankXCountry" holds "Sberbank")
  await expect(page.getByText(bankName, { exact: true })).toHaveCount(0);
  await expect(page.getByText(owner, { exact: true })).toHaveCount(0);
  // nor does the API send them
  const body = await (await page.request.get(`/api/v1/invoice/${inv!.invoiceId}`)).text();
  expect(body).not.toContain(owner);
  expect(body).not.toContain(bankName);
});

test('sign-out leaves no per-user selection in localStorage; the next user starts from none', async ({ page }) => {
  const stored = () =>
    page.evaluate(() => Object.fromEntries(Object.entries(localStorage).filter(([k]) => k.startsWith('paydesk.'))));
  await signIn(page, 'admin');
  // the merchant picker and the terminal selector both remember their choice
  await page.getByRole('banner').getByRole('combobox', { name: 'Terminal', exact: true }).click();
  await page.getByRole('option').nth(1).click();
  await expect.poll(stored).toHaveProperty(['paydesk.terminalId']);
  const selected = (await stored())['paydesk.terminalId'];
  expect(selected).not.toBe('""');

  await signOut(page);
  expect(await stored()).toEqual({});

  // a different user on the same browser: no leftover choice, and its balance calls name no other terminal
  const balanceCalls: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/v1/merchant/balance')) balanceCalls.push(r.url());
  });
  await signIn(page, 'owner');
  await expect(
    page.getByRole('region', { name: 'Finance summary' }).getByTestId('balance-amount').first(),
  ).toBeVisible();
  expect(balanceCalls.length).toBeGreaterThan(0);
  for (const url of balanceCalls) expect(url).not.toContain(JSON.parse(selected) as string);
  expect(Object.keys(await stored())).not.toContain('paydesk.terminalId');
});

test('the account limit can be cleared and edited digit by digit; it never snaps back', async ({ page }) => {
  await signIn(page, 'admin');
  await page.goto('/accounts');
  await page
    .getByRole('table', { name: 'Provider accounts' })
    .getByRole('row', { name: /^Account \d+/ })
    .first()
    .click();
  const limits = page.getByRole('table', { name: 'Limits' });
  await limits.getByRole('button', { name: 'Edit limit' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Edit limit' });
  // typed in major units of the account's currency
  const input = dialog.getByRole('textbox', { name: /^Limit \([A-Z]{3}\)$/ });
  await expect(input).not.toHaveValue('');
  await input.fill('');
  await input.press('Tab');
  await expect(input).toHaveValue('');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('Limit is required')).toBeVisible();
  await expect(input).toHaveValue('');
  // past 2^53 minor units and exact
  await input.pressSequentially('90071992547409.931');
  await expect(input).toHaveValue('90071992547409.931');
  await input.press('Backspace');
  await expect(input).toHaveValue('90071992547409.93');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
});
