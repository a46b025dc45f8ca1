import type { Page } from '@playwright/test';
import { expect, test, type DemoRole } from './support/auth';
import { createInvoice, type CreatedInvoice } from './support/merchant-api';
import { ALL_NAV_ENTRIES, expectedNav, permissionsOf } from './support/roles';

/**
 * What each role sees (docs/architecture.md, "Who is who"): the navigation, and on a transaction the sections and the
 * buttons its permissions give. Money corrections are the platform's: only ops may change a live
 * invoice's status or amount, retry a payout or read payment credentials.
 */

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });
const SECTIONS = [
  ['Errors', 'invoice.error.read'],
  ['Event Log', 'invoice.event.read'],
  ['Callbacks', 'merchant.callback.read'],
  ['Transactions', 'invoice.transaction.read'],
] as const;

/** A live deposit and a live (retryable) withdrawal of Demo Merchant, made once for the whole file. */
let fixtures: Promise<{ deposit: CreatedInvoice; withdrawal: CreatedInvoice }> | undefined;
const liveInvoices = (baseURL: string) =>
  (fixtures ??= Promise.all([
    createInvoice(baseURL, { flowType: 'DEPOSIT', amount: 175_000, test: false }),
    createInvoice(baseURL, { flowType: 'WITHDRAWAL', amount: 150_000, test: false }),
  ]).then(([deposit, withdrawal]) => ({ deposit, withdrawal })));

async function openDetails(page: Page, invoiceId: string) {
  await page.goto(`/invoices/${invoiceId}`);
  await expect(page.getByRole('heading', { name: 'Transaction', level: 1, exact: true })).toBeVisible();
  await expect(page.getByTestId('invoice-status')).toBeVisible();
}

/** The sections, controls and buttons of an open transaction, checked against a role's permissions. */
async function expectDetailsFor(page: Page, role: DemoRole, { withdrawal }: { withdrawal: boolean }) {
  const perms = permissionsOf(role);
  const isOps = role === 'ops';
  for (const [section, permission] of SECTIONS) {
    const button = page.getByRole('button', { name: new RegExp(`^${section}`) });
    if (perms.includes(permission)) await expect(button).toBeVisible();
    else await expect(button).toHaveCount(0);
  }
  await expect(page.getByRole('button', { name: /^Support History/ })).toBeVisible();

  const visibleOnlyForOps = [
    page.getByRole('combobox', { name: 'Change status' }),
    page.getByRole('button', { name: 'Change amount', exact: true }),
    page.getByText('Credentials', { exact: true }),
  ];
  for (const control of visibleOnlyForOps) {
    if (isOps) await expect(control).toBeVisible();
    else await expect(control).toHaveCount(0);
  }
  const retry = page.getByRole('button', { name: 'Retry', exact: true });
  if (isOps && withdrawal) await expect(retry).toBeVisible();
  else await expect(retry).toHaveCount(0);
  const callback = page.getByRole('button', { name: 'Callback', exact: true });
  if (perms.includes('merchant.callback.edit')) await expect(callback).toBeVisible();
  else await expect(callback).toHaveCount(0);
}

for (const role of ['owner', 'ops', 'viewer'] as const) {
  test(`${role}: navigation and what a live transaction shows`, async ({ page, signInAs, baseURL }) => {
    const live = await liveInvoices(baseURL!);
    await signInAs(role);
    const expected = expectedNav(role);
    for (const entry of ALL_NAV_ENTRIES) {
      const link = nav(page).getByRole('link', { name: entry, exact: true });
      if (expected.entries.includes(entry)) await expect(link).toBeVisible();
      else await expect(link).toHaveCount(0);
    }

    await openDetails(page, live.deposit.invoiceId);
    await expectDetailsFor(page, role, { withdrawal: false });
    await openDetails(page, live.withdrawal.invoiceId);
    await expectDetailsFor(page, role, { withdrawal: true });
  });
}

test('owner may move a test invoice (nothing real moves), not a live one', async ({ page, signInAs, baseURL }) => {
  const live = await liveInvoices(baseURL!);
  const testDeposit = await createInvoice(baseURL!, { flowType: 'DEPOSIT', amount: 130_000 });
  await signInAs('owner');
  await openDetails(page, testDeposit.invoiceId);
  await expect(page.getByRole('combobox', { name: 'Change status' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Change amount', exact: true })).toHaveCount(0);
  await openDetails(page, live.deposit.invoiceId);
  await expect(page.getByRole('combobox', { name: 'Change status' })).toHaveCount(0);
});

test('shop2: its own navigation and transactions, never Demo Merchant’s', async ({ page, signInAs, baseURL }) => {
  const live = await liveInvoices(baseURL!);
  await signInAs('shop2');
  const expected = expectedNav('shop2');
  for (const entry of ALL_NAV_ENTRIES) {
    const link = nav(page).getByRole('link', { name: entry, exact: true });
    if (expected.entries.includes(entry)) await expect(link).toBeVisible();
    else await expect(link).toHaveCount(0);
  }

  // another merchant's invoice does not exist for it
  await page.goto(`/invoices/${live.deposit.invoiceId}`);
  await expect(page.getByText('Transaction not found')).toBeVisible();

  // one of its own live invoices: the merchant owner's sections, no platform controls
  const list = await (await page.request.get('/api/v1/invoice?size=100')).json();
  const own = (list.data as { invoiceId: string; isTestProcessing: boolean; flowType: { code: string } }[]).find(
    (i) => !i.isTestProcessing && i.flowType.code === 'DEPOSIT',
  );
  expect(own, 'Second Shop has a live deposit in the demo data').toBeTruthy();
  await openDetails(page, own!.invoiceId);
  await expectDetailsFor(page, 'shop2', { withdrawal: false });
});
