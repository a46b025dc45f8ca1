import type { APIRequestContext, Page } from '@playwright/test';
import { maskRequisite } from '@paydesk/contracts/masking';
import { DEMO_PASSWORD, expect, signIn, test } from './support/auth';
import { cancelInvoice, createInvoice } from './support/merchant-api';
import { apiSession } from './support/people';

import { wcagViolations } from './support/a11y';

/** The operations desk: an operator resolves a late payment from /exceptions, as on a busy shift. */

const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text }).first();

/**
 * A live UZS deposit whose customer got requisites, then cancelled by the merchant (the form "expired"): the account
 * its requisites belong to, found as staff would, by the requisite's value: the account details show it masked, so
 * the full value the customer was shown is masked the same way to compare.
 */
async function cancelledDeposit(baseURL: string, ops: APIRequestContext, amount: number) {
  const created = await createInvoice(baseURL, { flowType: 'DEPOSIT', amount, test: false });
  const form = `${new URL(baseURL).origin}/api/payments/form/${created.formId}`;
  const init = (await (await fetch(`${form}/init`, { method: 'POST' })).json()) as {
    data: { methods: { id: number }[] };
  };
  const cred = await fetch(`${form}/credential`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ amount, paymentMethodId: init.data.methods[0]!.id }),
  });
  if (!cred.ok) throw new Error(`credential: ${cred.status} ${await cred.text()}`);
  const value = ((await cred.json()) as { data: { credentials: { value: string } } }).data.credentials.value;
  await cancelInvoice(baseURL, created.invoiceId);
  const accounts = (await (await ops.get('/api/v1/people/account')).json()) as {
    data: { id: number; isSandbox: boolean; currency: string }[];
  };
  for (const a of accounts.data.filter((x) => !x.isSandbox && x.currency === 'UZS')) {
    const d = (await (await ops.get(`/api/v1/people/account/${a.id}`)).json()) as {
      data: { providerId: number; credentials: { credentialType: string; value: string }[] };
    };
    if (d.data.credentials.some((c) => c.value === maskRequisite(c.credentialType, value))) {
      const providers = (await (await ops.get('/api/v1/provider')).json()) as { data: { id: number; code: string }[] };
      return { ...created, accountId: a.id, provider: providers.data.find((p) => p.id === d.data.providerId)!.code };
    }
  }
  throw new Error(`no account holds the requisites ${value}`);
}

test('ops matches a late payment to its cancelled deposit from /exceptions; the deposit is DONE, the queue clear', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const ops = await apiSession(baseURL!, 'ops', DEMO_PASSWORD);
  const amount = 1_250_000_00 + Math.floor(Math.random() * 90) + 1;
  const deposit = await cancelledDeposit(baseURL!, ops, amount);
  // the provider reports the money after the form expired: nothing waits for it any more
  const reference = `LATE-${Date.now()}`;
  const reported = await fetch(`${new URL(baseURL!).origin}/api/provider/v1/incoming`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer dev:${deposit.provider}` },
    body: JSON.stringify({ accountId: deposit.accountId, amount, occurredAt: new Date().toISOString(), reference }),
  });
  expect(((await reported.json()) as { data: { status: string } }).data.status).toBe('UNMATCHED');

  await signIn(page, 'ops');
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link', { name: /Exceptions/ })).toBeVisible();
  await nav.getByRole('link', { name: /Exceptions/ }).click();
  await expect(page.getByRole('heading', { name: 'Exceptions', level: 1 })).toBeVisible();
  await expect(page.getByRole('tab', { name: /Unmatched money/, selected: true })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: reference });
  await expect(row).toContainText('1,250,000.');
  await expect(row).toContainText('UZS');

  for (const width of [1280, 768]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/exceptions-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  expect(await wcagViolations(page, { within: ['main'], strict: true })).toEqual([]);

  await row.getByRole('button', { name: `Match or return ${reference}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Resolve unmatched money' });
  const candidate = dialog.getByRole('row').filter({ hasText: 'Canceled' }).first();
  await expect(dialog.getByRole('row').nth(1)).toContainText('same account');
  await expect(dialog.getByRole('button', { name: /^Match to / }).first()).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('customer paid three minutes after the form expired');
  await page.waitForTimeout(400); // the dialog's opening transition, for the screenshot only
  await page.screenshot({ path: 'test-results/exceptions-resolve-1280.png' });
  await candidate.getByRole('button', { name: /^Match to / }).click();
  await expect(toast(page, 'Matched to')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: reference })).toHaveCount(0);

  await page.goto(`/invoices/${deposit.invoiceId}`);
  await expect(page.getByTestId('invoice-status')).toHaveText('Done');
});

test('ops narrows unmatched money by account and amount; the URL keeps the filter through a reload', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const ops = await apiSession(baseURL!, 'ops', DEMO_PASSWORD);
  const accounts = (await (await ops.get('/api/v1/people/account')).json()) as {
    data: { id: number; isSandbox: boolean; currency: string }[];
  };
  const account = accounts.data.find((a) => !a.isSandbox && a.currency === 'UZS')!;
  const { data: details } = (await (await ops.get(`/api/v1/people/account/${account.id}`)).json()) as {
    data: { providerId: number };
  };
  const providers = (await (await ops.get('/api/v1/provider')).json()) as { data: { id: number; code: string }[] };
  const provider = providers.data.find((p) => p.id === details.providerId)!.code;
  // two payments on the account, 1 UZS apart: the range takes the first only
  const amount = 3_000_000_00 + Math.floor(Math.random() * 9_000) + 1;
  const stamp = Date.now();
  for (const [reference, value] of [
    [`IN-${stamp}`, amount],
    [`OUT-${stamp}`, amount + 1_00],
  ] as const) {
    const res = await fetch(`${new URL(baseURL!).origin}/api/provider/v1/incoming`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer dev:${provider}` },
      body: JSON.stringify({ accountId: account.id, amount: value, occurredAt: new Date().toISOString(), reference }),
    });
    expect(((await res.json()) as { data: { status: string } }).data.status).toBe('UNMATCHED');
  }
  const major = `${Math.floor(amount / 100)}.${String(amount % 100).padStart(2, '0')}`;
  const shown = `${Math.floor(amount / 100).toLocaleString('en')}.${String(amount % 100).padStart(2, '0')}`;

  await signIn(page, 'ops');
  await page.goto('/exceptions');
  await expect(page.getByRole('tab', { name: /Unmatched money/, selected: true })).toBeVisible();
  await page.getByRole('combobox', { name: 'Account', exact: true }).click();
  await page.getByRole('option', { name: new RegExp(`^#${account.id} `) }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]accountId=${account.id}(&|$)`));
  await page.getByRole('textbox', { name: 'Amount from (UZS)' }).fill(major);
  await page.getByRole('textbox', { name: 'Amount to (UZS)' }).fill(major);
  await expect(page).toHaveURL(new RegExp(`[?&]amountFrom=${amount}&amountTo=${amount}(&|$)`));

  const rows = page.locator('main tbody tr');
  const onlyTheMatch = async () => {
    await expect(rows.filter({ hasText: `IN-${stamp}` })).toHaveCount(1);
    await expect(rows.filter({ hasText: `OUT-${stamp}` })).toHaveCount(0);
    // every row shown is of that account and that amount
    const count = await rows.count();
    for (let i = 0; i < count; i++) {
      await expect(rows.nth(i)).toContainText(`${account.id} ·`);
      await expect(rows.nth(i)).toContainText(`${shown} UZS`);
    }
  };
  await onlyTheMatch();
  for (const width of [1280, 768]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `/tmp/shots/exceptions-filtered-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Account', exact: true })).toHaveValue(
    new RegExp(`^#${account.id} `),
  );
  await expect(page.getByRole('textbox', { name: 'Amount from (UZS)' })).toHaveValue(major);
  await expect(page.getByRole('textbox', { name: 'Amount to (UZS)' })).toHaveValue(major);
  await onlyTheMatch();

  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).not.toHaveURL(/accountId|amountFrom|amountTo/);
  await expect(rows.filter({ hasText: `OUT-${stamp}` })).toHaveCount(1);
});

test('merchant staff have no desk: no navigation entry, and the page says why', async ({ page }) => {
  await signIn(page, 'owner');
  await expect(
    page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: /Exceptions/ }),
  ).toHaveCount(0);
  await page.goto('/exceptions');
  await expect(page.getByText(/does not allow you/)).toBeVisible();
});

test('ops changes the automatic pause rule on the Paused accounts tab, with a reason', async ({ page }) => {
  await signIn(page, 'ops');
  await page.goto('/exceptions?tab=paused');
  const rule = page.getByTestId('pause-rule');
  await expect(rule).toContainText(/none of the last \d+ deposits/);
  const before = (await rule.textContent())!;
  await page.getByRole('button', { name: 'Change rule' }).click();
  const dialog = page.getByRole('dialog', { name: 'Automatic pause' });
  const unpaid = dialog.getByRole('textbox', { name: 'Unpaid deposits in a row' });
  const minutes = dialog.getByRole('textbox', { name: 'Minutes each had to be paid' });
  const [oldUnpaid, oldMinutes] = [await unpaid.inputValue(), await minutes.inputValue()];
  await unpaid.fill('12');
  await minutes.fill('45');
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('provider asked for more patience');
  await dialog.getByRole('button', { name: 'Save rule' }).click();
  await expect(toast(page, 'applies from the next health check')).toBeVisible();
  await expect(rule).toHaveText(
    'An account leaves routing when none of the last 12 deposits given its requisites was paid within 45 minutes.',
  );
  await expect(page.getByText(/Set by ops/)).toBeVisible();

  // put it back as it was, for the other tests of this server
  await page.getByRole('button', { name: 'Change rule' }).click();
  await unpaid.fill(oldUnpaid);
  await minutes.fill(oldMinutes);
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('back to the usual rule');
  await dialog.getByRole('button', { name: 'Save rule' }).click();
  await expect(rule).toHaveText(before);
});
