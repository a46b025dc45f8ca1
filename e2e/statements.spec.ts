import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { DEMO_PASSWORD, expect, signIn, test } from './support/auth';
import { apiSession } from './support/people';
import { wcagViolations } from './support/a11y';

/** Provider statements on the operations desk: ops uploads a statement, sees how its lines came out, resolves one. */

const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text }).first();
const SHOTS = '/tmp/shots';

test('ops uploads a statement on /exceptions, sees its outcomes and accepts an exception with a reason', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  fs.mkdirSync(SHOTS, { recursive: true });
  const origin = new URL(baseURL!).origin;
  const ops = await apiSession(baseURL!, 'ops', DEMO_PASSWORD);
  const accounts = (await (await ops.get('/api/v1/people/account')).json()) as {
    data: { id: number; isSandbox: boolean; currency: string }[];
  };
  const account = accounts.data.find((a) => !a.isSandbox && a.currency === 'UZS')!;
  const { data: details } = (await (await ops.get(`/api/v1/people/account/${account.id}`)).json()) as {
    data: { providerId: number };
  };
  const providers = (await (await ops.get('/api/v1/provider')).json()) as {
    data: { id: number; code: string; name: string }[];
  };
  const provider = providers.data.find((p) => p.id === details.providerId)!;

  // a quiet day long ago: what the books hold for it is what this test reports
  const day = '2020-01-15';
  const at = (hh: string) => `${day}T${hh}:00:00Z`;
  const stamp = Date.now();
  const ref = {
    known: `KNOWN-${stamp}`,
    short: `SHORT-${stamp}`,
    newIn: `NEW-IN-${stamp}`,
    newOut: `NEW-OUT-${stamp}`,
  };
  for (const [reference, amount] of [
    [ref.known, 150_000_00],
    [ref.short, 90_000_00],
  ] as const) {
    const res = await fetch(`${origin}/api/provider/v1/incoming`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer dev:${provider.code}` },
      body: JSON.stringify({ accountId: account.id, amount, occurredAt: at('09'), reference }),
    });
    expect(res.ok, await res.text()).toBe(true);
  }
  // the counterparty column names the card the money went to and the phone it came from: shown masked only
  const card = { plain: '4111111111111111', masked: '411111******1111' };
  const phone = { plain: '+998901234567', masked: '+99890*****67' };
  const csv = [
    'occurredAt,accountId,amount,direction,reference,counterparty',
    `${at('09')},${account.id},15000000,IN,${ref.known},`,
    `${at('10')},${account.id},8900000,IN,${ref.short},`,
    `${at('11')},${account.id},4200000,IN,${ref.newIn},${phone.plain}`,
    `${at('12')},${account.id},1000000,OUT,${ref.newOut},${card.plain}`,
  ].join('\n');

  await signIn(page, 'ops');
  await page.goto('/exceptions?tab=statements');
  await expect(page.getByRole('tab', { name: /Statements/, selected: true })).toBeVisible();
  await page.getByRole('combobox', { name: 'Provider' }).click();
  await page.getByRole('option', { name: provider.name, exact: true }).click();
  await page.getByLabel('From (UTC day)').fill(day);
  await page.getByLabel('To (UTC day, inclusive)').fill(day);
  await page.locator('input[type="file"]').setInputFiles({
    name: `${provider.code}-${day}.csv`,
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  await page.getByRole('button', { name: 'Upload and reconcile' }).click();
  await expect(toast(page, 'Statement reconciled: 4 lines, 3 exceptions')).toBeVisible();

  // the statement is open below its list, on the exceptions to resolve
  const panel = page.getByRole('heading', { name: `${provider.code}-${day}.csv`, level: 3 });
  await expect(panel).toBeVisible();
  await expect(page.getByText('Matched: 1', { exact: true })).toBeVisible();
  await expect(page.getByText('Mismatch: 1', { exact: true })).toBeVisible();
  await expect(page.getByText('Statement only: 2', { exact: true })).toBeVisible();
  const rows = page.locator('main tbody tr');
  const row = (reference: string) => rows.filter({ hasText: reference });
  await expect(row(ref.short)).toContainText('Mismatch');
  await expect(row(ref.short)).toContainText('the books have the amount 90000.00 UZS');
  await expect(row(ref.newIn)).toContainText('Statement only');
  await expect(row(ref.newIn)).toContainText('unmatched money, in suspense');
  await expect(row(ref.newOut)).toContainText('Statement only');
  await expect(row(ref.newOut)).toContainText(`to ${card.masked}`);
  await expect(row(ref.newIn)).toContainText(`from ${phone.masked}`);
  await expect(row(ref.short)).not.toContainText('*');
  await expect(row(ref.known)).toHaveCount(0);
  const content = await page.content();
  expect(content).not.toContain(card.plain);
  expect(content).not.toContain(phone.plain.slice(1));
  const show = (label: string) =>
    page.getByRole('radiogroup', { name: 'Which lines' }).locator('label').filter({ hasText: label }).click();
  await show('Matched');
  await expect(row(ref.known)).toContainText('Matched');
  await show('To resolve');
  await expect(row(ref.short)).toBeVisible();

  for (const width of [1280, 768]) {
    await page.setViewportSize({ width, height: 900 });
    await page.evaluate(() => window.scrollTo(0, 0)); // the fixed header drawn where it belongs
    await page.screenshot({ path: `${SHOTS}/statements-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  expect(await wcagViolations(page, { within: ['main'], strict: true })).toEqual([]);

  // the provider's columns: the counterparty's is a field of its own, optional; a name given twice is said in the
  // dialog's words, on the field, before anything is sent
  await page.getByRole('button', { name: 'Columns', exact: true }).click();
  const columns = page.getByRole('dialog', { name: `Statement columns of ${provider.name}` });
  const counterparty = columns.getByRole('textbox', { name: 'Counterparty (card or phone)' });
  await expect(counterparty).toHaveValue('counterparty');
  await expect(counterparty).not.toHaveAttribute('required');
  await columns.getByRole('textbox', { name: 'Reference' }).fill('Counterparty');
  await columns.getByRole('textbox', { name: 'Reason' }).fill('the bank renamed its columns');
  await expect(columns.getByText('The same column as Reference')).toBeVisible();
  await expect(columns.getByRole('button', { name: 'Save' })).toBeDisabled();
  await page.setViewportSize({ width: 768, height: 900 });
  await page.screenshot({ path: `${SHOTS}/statements-columns-768.png` });
  await page.setViewportSize({ width: 1280, height: 900 });
  await counterparty.fill('');
  await expect(columns.getByText('The same column as Reference')).toHaveCount(0);
  await expect(columns.getByRole('button', { name: 'Save' })).toBeEnabled();
  await columns.getByRole('button', { name: 'Cancel' }).click();
  await expect(columns).toHaveCount(0);

  // the bank took a fee from the transfer: accept the difference, with a reason
  await row(ref.short).getByRole('button', { name: 'Resolve line 3' }).click();
  const dialog = page.getByRole('dialog', { name: 'Resolve line 3' });
  await dialog.getByRole('radiogroup', { name: 'Resolution' }).locator('label').filter({ hasText: 'Accept' }).click();
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('the bank took its fee from the transfer');
  await page.screenshot({ path: `${SHOTS}/statements-resolve-1280.png` });
  await dialog.getByRole('button', { name: 'Accept' }).click();
  await expect(toast(page, 'Difference accepted')).toBeVisible();
  await expect(row(ref.short)).toHaveCount(0);
  await show('All');
  await expect(row(ref.short)).toContainText('Accepted by ops: the bank took its fee from the transfer');
  await expect(row(ref.newOut)).toContainText(`to ${card.masked}`);
  expect(await page.content()).not.toContain(card.plain);

  // the same file again is recognised, not counted twice
  await page.locator('input[type="file"]').setInputFiles({
    name: 'again.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  await page.getByRole('button', { name: 'Upload and reconcile' }).click();
  await expect(toast(page, 'This file was uploaded before')).toBeVisible();

  // a bad file is refused, naming its line
  await page.locator('input[type="file"]').setInputFiles({
    name: 'bad.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(`${csv}\n${at('13')},${account.id},12.50,IN,BAD-${stamp},\n`),
  });
  await page.getByRole('button', { name: 'Upload and reconcile' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Line 6, column "amount"' })).toBeVisible();
  await page.setViewportSize({ width: 768, height: 900 });
  await page.screenshot({ path: `${SHOTS}/statements-bad-file-768.png`, fullPage: true });
});
