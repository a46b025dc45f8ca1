import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './support/auth';
import { createInvoice, type CreatedInvoice } from './support/merchant-api';

/**
 * Approving a support ticket sets its invoice DONE; a deposit that was never routed to a provider
 * account is DONE only against the account the money arrived on, which the operator names
 * in the approval dialog.
 */

type Account = { id: number; providerName: string; isSandbox: boolean; currency: string };

const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

/** A live UZS deposit nobody opened requisites for, with a ticket the customer opened from its payment form. */
async function unroutedDepositWithTicket(request: APIRequestContext, baseURL: string, amount: number) {
  const invoice = await createInvoice(baseURL, { flowType: 'DEPOSIT', currency: 'UZS', test: false, amount });
  const res = await request.post(`/api/payments/form/${invoice.formId}/support`, {
    data: { description: 'I paid by bank transfer but the page still waits' },
  });
  expect(res.status(), await res.text()).toBe(200);
  const ticketId = ((await res.json()) as { data: { ticketId: number } }).data.ticketId;
  return { invoice, ticketId };
}

async function openSupportHistory(page: Page, invoice: CreatedInvoice) {
  await page.goto(`/invoices/${invoice.invoiceId}`);
  await expect(page.getByRole('heading', { name: 'Transaction', level: 1, exact: true })).toBeVisible();
  await expect(page.getByTestId('invoice-status')).toHaveText('New');
  await page.getByRole('button', { name: /Support History/ }).click();
}

test('ops approves the ticket of a never-routed deposit by naming the account the money arrived on', async ({
  page,
  signInAs,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const { invoice, ticketId } = await unroutedDepositWithTicket(page.request, baseURL!, 141_000);
  await signInAs('ops');

  const accounts = ((await (await page.request.get('/api/v1/people/account')).json()) as { data: Account[] }).data;
  const liveUzs = accounts.filter((a) => a.currency === 'UZS' && !a.isSandbox);
  const rub = accounts.find((a) => a.currency === 'RUB' && !a.isSandbox);
  expect(liveUzs.length).toBeGreaterThan(0);
  expect(rub).toBeDefined();

  await openSupportHistory(page, invoice);
  const ticket = page.getByTestId('support-ticket').filter({ hasText: `#${ticketId}` });
  await expect(ticket).toContainText('New');
  await ticket.getByRole('button', { name: 'Approve' }).click();

  const dialog = page.getByRole('dialog', { name: 'Approve ticket' });
  await expect(dialog).toContainText(`Approving ticket #${ticketId} sets this deposit of 1,410.00 UZS to Done.`);
  const approve = dialog.getByRole('button', { name: 'Approve' });
  await expect(approve).toBeDisabled();

  // only live UZS accounts are offered
  await dialog.getByRole('combobox', { name: 'Account the money arrived on' }).click();
  const options = page.getByRole('option');
  await expect(options.first()).toBeVisible();
  const offered = (await options.allTextContents()).map((t) => Number(/^#(\d+) /.exec(t)?.[1]));
  expect(offered.length).toBeGreaterThan(0);
  for (const id of offered) expect(liveUzs.map((a) => a.id)).toContain(id);
  const chosen = liveUzs.find((a) => a.id === offered[0])!;
  await page.getByRole('option', { name: new RegExp(`^#${chosen.id} `) }).click();
  await expect(approve).toBeEnabled();

  // a refusal of the server stays in the dialog: the body is sent with an account of another currency once
  await page.route(
    '**/api/v1/merchant/support/approve?*',
    (route) => route.continue({ postData: JSON.stringify({ ticketId, peopleAccountId: rub!.id }) }),
    { times: 1 },
  );
  await approve.click();
  await expect(dialog.getByRole('alert')).toContainText(`Account ${rub!.id} takes another currency`);
  await expect(dialog.getByText('Choose an account of this currency')).toBeVisible();
  await expect(ticket).toContainText('New');

  const sent = page.waitForRequest('**/api/v1/merchant/support/approve?*');
  await approve.click();
  expect((await sent).postDataJSON()).toEqual({ ticketId, peopleAccountId: chosen.id });
  await expect(toast(page, 'Successfully approved')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(ticket).toContainText('Solved');
  await expect(ticket.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(page.getByTestId('invoice-status')).toHaveText('Done');
});

test('a viewer sees the open ticket but no approve button', async ({ page, signInAs, baseURL }) => {
  const { invoice, ticketId } = await unroutedDepositWithTicket(page.request, baseURL!, 142_000);
  await signInAs('viewer');
  await openSupportHistory(page, invoice);
  const ticket = page.getByTestId('support-ticket').filter({ hasText: `#${ticketId}` });
  await expect(ticket).toContainText('New');
  await expect(page.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Reject' })).toHaveCount(0);
});
