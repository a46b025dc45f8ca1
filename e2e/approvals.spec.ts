import fs from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { wcagViolations } from './support/a11y';
import { DEMO_PASSWORD, expect, signIn, signOut, test } from './support/auth';
import { cancelInvoice, createInvoice, demoMerchant } from './support/merchant-api';
import { apiSession } from './support/people';

/**
 * Two-person control through the back-office: an admin requires approval of live corrections into DONE on the Team
 * page's Policies tab; an operator's correction then waits for another person, who approves it on /approvals.
 */

const SHOTS = '/tmp/shots';
const ACTION = 'invoice.status.change';
const LABEL = 'Live status corrections into or out of DONE';

const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text }).first();
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });

async function shots(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const width of [1280, 768]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/**
 * A live UZS deposit whose customer got requisites (so an account is routed), then cancelled by the merchant: setting
 * it DONE afterwards is a real move of money, the kind a policy holds back.
 */
async function cancelledLiveDeposit(baseURL: string, amount: number) {
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
  await cancelInvoice(baseURL, created.invoiceId);
  return created;
}

const setPolicy = (admin: APIRequestContext, enabled: boolean) =>
  admin.put(`/api/v1/approval-policies/${ACTION}`, { data: { enabled, thresholds: {} } });

test('a live correction into DONE waits for a second person, who approves it on /approvals', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const admin = await apiSession(baseURL!, 'admin', DEMO_PASSWORD);
  const ops = await apiSession(baseURL!, 'ops', DEMO_PASSWORD);
  const deposit = await cancelledLiveDeposit(baseURL!, 2_750_000_00 + Math.floor(Math.random() * 90) + 1);
  try {
    // the admin turns the policy on, with no threshold: every amount waits for approval
    await signIn(page, 'admin');
    await page.goto('/team');
    await page.getByRole('tab', { name: 'Policies' }).click();
    const policies = page.getByRole('table', { name: 'Approval policies' });
    await expect(policies).toBeVisible();
    const row = policies.getByRole('row').filter({ hasText: LABEL });
    const toggle = row.getByRole('switch', { name: `Require approval: ${LABEL}` });
    await expect(toggle).not.toBeChecked();
    await toggle.click({ force: true });
    await expect(toast(page, `Approval required: ${LABEL}`)).toBeVisible();
    await expect(toggle).toBeChecked();
    await expect(row).toContainText('Every amount');
    await expect(row.getByTestId('policy-changed')).toContainText('Changed by admin');
    await shots(page, 'team-policies');
    expect(await wcagViolations(page, { within: ['main'], strict: true })).toEqual([]);
    // the thresholds dialog: typed in major units of the chosen currency, left without saving
    await row.getByRole('button', { name: `Thresholds: ${LABEL}` }).click();
    const thresholds = page.getByRole('dialog', { name: `Thresholds: ${LABEL}` });
    await thresholds.getByRole('button', { name: 'Add a currency' }).click();
    await expect(thresholds.getByRole('textbox', { name: /^Threshold \([A-Z]{3,5}\)$/ })).toBeVisible();
    await thresholds.getByRole('textbox', { name: /^Threshold/ }).fill('1000000.5');
    await expect(thresholds).toContainText('= 1,000,000.50');
    await page.screenshot({ path: `${SHOTS}/team-policies-thresholds-1280.png` });
    await thresholds.getByRole('button', { name: 'Cancel' }).click();
    await expect(thresholds).toHaveCount(0);
    await signOut(page);

    // the operator sets the cancelled deposit DONE: nothing changes yet, the request waits
    await signIn(page, 'ops');
    await page.goto(`/invoices/${deposit.invoiceId}`);
    await expect(page.getByTestId('invoice-status')).toHaveText('Canceled');
    await page.getByRole('combobox', { name: 'Change status' }).click();
    await page.getByRole('option', { name: 'Done', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Change status' });
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('The bank statement shows the money arrived');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(toast(page, 'Sent for approval: another person must approve it')).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId('invoice-status')).toHaveText('Canceled');
    const banner = page.getByTestId('pending-approval');
    await expect(banner).toContainText('Waiting for approval:');
    await expect(banner).toContainText('DONE (was CANCELED)');
    await expect(banner).toContainText('asked by ops, expires in 23 h');
    await expect(banner.getByRole('link', { name: 'Open Approvals' })).toHaveAttribute('href', '/approvals');
    await page.screenshot({ path: `${SHOTS}/invoice-pending-approval-1280.png` });

    // …and may not approve it: no buttons for them, and the server refuses them too
    await banner.getByRole('link', { name: 'Open Approvals' }).click();
    await expect(page.getByRole('heading', { name: 'Approvals', level: 1 })).toBeVisible();
    const own = page
      .getByTestId('approval-row')
      .filter({ has: page.locator(`a[href="/invoices/${deposit.invoiceId}"]`) });
    await expect(own).toContainText('Your request: another person must approve it');
    await expect(own.getByRole('button')).toHaveCount(0);
    const listed = (await (await ops.get(`/api/v1/approvals?status=PENDING&targetId=${deposit.invoiceId}`)).json()) as {
      data: { id: string; canDecide: boolean; maker: string }[];
    };
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0]).toMatchObject({ canDecide: false, maker: 'ops' });
    const refused = await ops.post(`/api/v1/approvals/${listed.data[0]!.id}/approve`, { data: {} });
    expect(refused.status()).toBe(403);
    await signOut(page);

    // the admin sees it counted beside the navigation entry, and approves it
    await signIn(page, 'admin');
    const entry = nav(page).getByRole('link', { name: 'Approvals', exact: true });
    await expect(entry).toBeVisible();
    await expect(entry).toHaveAccessibleDescription(/^\d+ waiting$/);
    await entry.click();
    await expect(page.getByRole('tab', { name: /Pending/, selected: true })).toBeVisible();
    const request = page
      .getByTestId('approval-row')
      .filter({ has: page.locator(`a[href="/invoices/${deposit.invoiceId}"]`) });
    await expect(request).toContainText(LABEL);
    await expect(request).toContainText('2,750,000.');
    await expect(request).toContainText('UZS');
    await expect(request).toContainText('The bank statement shows the money arrived');
    await expect(request).toContainText(/23 h \d+ min/);
    await shots(page, 'approvals');
    expect(await wcagViolations(page, { within: ['main'], strict: true })).toEqual([]);

    await request.getByRole('button', { name: /^Approve: / }).click();
    const approve = page.getByRole('dialog', { name: 'Approve this request' });
    await approve.getByRole('textbox', { name: 'Note (optional)' }).fill('Checked against the statement');
    await page.screenshot({ path: `${SHOTS}/approvals-approve-1280.png` });
    await approve.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(toast(page, 'Approved:')).toBeVisible();
    await expect(request).toHaveCount(0);

    // decided: on the Approved tab, and the invoice is DONE with nothing waiting any more
    await page.getByRole('tab', { name: 'Approved' }).click();
    await expect(page).toHaveURL(/[?&]status=APPROVED/);
    const decided = page
      .getByTestId('approval-row')
      .filter({ has: page.locator(`a[href="/invoices/${deposit.invoiceId}"]`) });
    await expect(decided).toContainText('Approved by admin');
    await expect(decided).toContainText('Checked against the statement');
    await decided.getByRole('link', { name: 'Open the invoice' }).click();
    await expect(page.getByTestId('invoice-status')).toHaveText('Done');
    await expect(page.getByTestId('pending-approval')).toHaveCount(0);
  } finally {
    // other specs correct live invoices without a second person (a failure here must not hide the test's own)
    const off = await setPolicy(admin, false);
    if (!off.ok()) console.error(`could not turn the policy off: ${off.status()} ${await off.text()}`);
    await admin.dispose();
    await ops.dispose();
  }
});

test('an approval the state now refuses says why on the request; a rejection needs a reason', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const admin = await apiSession(baseURL!, 'admin', DEMO_PASSWORD);
  const ops = await apiSession(baseURL!, 'ops', DEMO_PASSWORD);
  const deposit = await cancelledLiveDeposit(baseURL!, 1_400_000_00 + Math.floor(Math.random() * 90) + 1);
  const { merchantId } = demoMerchant();
  try {
    expect((await setPolicy(admin, true)).ok()).toBe(true);
    // the operator asks for the correction; the same request twice is refused while the first waits
    const ask = (reason: string) =>
      ops.patch(`/api/v1/invoice/status?merchantId=${merchantId}`, {
        data: { invoiceId: deposit.invoiceId, statusId: 4, reason },
      });
    const asked = await ask('Asked again by mistake');
    expect(asked.status(), await asked.text()).toBe(202);
    const second = ((await asked.json()) as { data: { approvalRequestId: string } }).data.approvalRequestId;
    expect((await ask('once more')).status()).toBe(409);
    // meanwhile the invoice moves: with the policy off for a moment, admin sets it DONE directly
    expect((await setPolicy(admin, false)).ok()).toBe(true);
    const direct = await admin.patch(`/api/v1/invoice/status?merchantId=${merchantId}`, {
      data: { invoiceId: deposit.invoiceId, statusId: 4, reason: 'The bank statement shows the money arrived' },
    });
    expect(direct.status(), await direct.text()).toBe(200);
    expect((await setPolicy(admin, true)).ok()).toBe(true);

    await signIn(page, 'admin');
    await page.goto('/approvals?action=invoice.status.change');
    await expect(page.getByRole('combobox', { name: 'Action' })).toHaveValue(LABEL);
    const request = page.getByTestId('approval-row').filter({ hasText: 'Asked again by mistake' });
    await expect(request).toHaveCount(1);
    // the invoice is DONE now: approving the second is refused, and the request keeps why
    await request.getByRole('button', { name: /^Approve: / }).click();
    await page.getByRole('dialog', { name: 'Approve this request' }).getByRole('button', { name: 'Approve' }).click();
    await expect(toast(page, 'Not approved:')).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(request.getByTestId('approval-refusal')).toContainText('Last approval refused:');
    await expect(request.getByTestId('approval-refusal')).toContainText('DONE');
    await page.screenshot({ path: `${SHOTS}/approvals-refused-1280.png`, fullPage: true });

    // rejecting it asks for a reason first
    await request.getByRole('button', { name: /^Reject: / }).click();
    const reject = page.getByRole('dialog', { name: 'Reject this request' });
    await reject.getByRole('button', { name: 'Reject' }).click();
    await expect(reject.getByText('Give a reason (at least 3 characters)')).toBeVisible();
    await reject.getByRole('textbox', { name: 'Reason' }).fill('Already approved once');
    await reject.getByRole('button', { name: 'Reject' }).click();
    await expect(toast(page, 'Rejected:')).toBeVisible();
    await expect(request).toHaveCount(0);

    await page.getByRole('tab', { name: 'Rejected' }).click();
    await expect(page).toHaveURL(/[?&]status=REJECTED/);
    await expect(page).toHaveURL(/[?&]action=invoice\.status\.change/);
    const rejected = page.getByTestId('approval-row').filter({ hasText: 'Asked again by mistake' });
    await expect(rejected).toContainText('Rejected by admin');
    await expect(rejected).toContainText('Already approved once');
    const item = (await (await ops.get(`/api/v1/approvals/${second}`)).json()) as { data: { status: string } };
    expect(item.data.status).toBe('REJECTED');
  } finally {
    const off = await setPolicy(admin, false);
    if (!off.ok()) console.error(`could not turn the policy off: ${off.status()} ${await off.text()}`);
    await admin.dispose();
    await ops.dispose();
  }
});

test("a merchant's owner sees only its own API key policy on Team, and the Approvals entry", async ({
  page,
  signInAs,
}) => {
  await signInAs('owner');
  await expect(nav(page).getByRole('link', { name: 'Approvals', exact: true })).toBeVisible();
  await page.goto('/team');
  await page.getByRole('tab', { name: 'Policies' }).click();
  const rows = page.getByRole('table', { name: 'Approval policies' }).locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Replacing a merchant's API public key");
  await expect(rows.first()).toContainText('Always');
  await expect(rows.first().getByRole('button', { name: /^Thresholds/ })).toHaveCount(0);
});
