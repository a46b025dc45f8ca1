import { generateKeyPairSync } from 'node:crypto';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './support/auth';

/** Picks an option of a Mantine Select by its label. */
async function choose(page: Page, select: Locator, option: string) {
  await select.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text }).first();
/** Saves go through the real server on a shared 2-core machine: allow them more than the default wait. */
const SAVED = { timeout: 15_000 };

// Each run works on records it creates itself, so the demo data other specs rely on stays as seeded.
const suffix = () => Math.random().toString(36).slice(2, 7);

test.describe('terminals', () => {
  test('admin creates a terminal, validates and saves every attribute type, and switches it to production', async ({
    page,
    signInAs,
  }) => {
    // creating terminals, their fees and limits, and going live are platform work (docs/architecture.md, "Who is who")
    await signInAs('admin');
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Terminals', exact: true })
      .click();
    await expect(page.getByRole('heading', { name: 'Terminals', level: 1 })).toBeVisible();

    // New Terminal: the form checks on submit, then on change
    const name = `E2E Payouts ${suffix()}`;
    await page.getByRole('button', { name: 'New Terminal' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Terminal' });
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog.getByText('Name is required')).toBeVisible();
    await expect(dialog.getByText('Flow type is required')).toBeVisible();
    await expect(dialog.getByText('Currency is required')).toBeVisible();
    await dialog.getByLabel('Name').fill(name);
    await choose(page, dialog.getByRole('combobox', { name: 'Flow type' }), 'WITHDRAWAL');
    await choose(page, dialog.getByRole('combobox', { name: 'Currency' }), 'UZS · Uzbekistani sum');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(toast(page, 'Terminal created')).toBeVisible(SAVED);
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('tab', { name, selected: true })).toBeVisible();

    const form = page.getByRole('form', { name: `Edit terminal ${name}` });
    await expect(form.getByText('No attributes')).toBeVisible();
    await expect(page.getByText('Test', { exact: true })).toBeVisible();

    // name rules
    await form.getByLabel('Name').fill('');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText('Name is required')).toBeVisible();
    await form.getByLabel('Name').fill('ab');
    await expect(form.getByText('Name must be at least 3 characters long')).toBeVisible();
    await form.getByLabel('Name').fill(name);
    await expect(form.getByText('Name must be at least 3 characters long')).toBeHidden();

    // one attribute of each type, first with a wrong value; the maximum amount is typed in major units of the
    // terminal's currency (stored in minor units), never in minor units
    const attributes = [
      {
        option: 'Maximum invoice amount',
        label: 'Maximum invoice amount (UZS)',
        wrong: '12.555',
        message: 'Maximum invoice amount must have at most 2 decimals',
        right: '1500000',
        shown: '1500000.00',
      },
      { label: 'Preferred provider code', wrong: 'bad\u0007code', message: 'value is not String', right: 'SANDBOX' },
      { label: 'Currency symbol', wrong: 'UZS', message: 'value is not Char', right: '$' },
    ];
    await form.getByRole('combobox', { name: 'Add attribute' }).click();
    await expect(page.getByRole('option', { name: /minor units/ })).toHaveCount(0);
    await page.keyboard.press('Escape');
    for (const a of attributes)
      await choose(page, form.getByRole('combobox', { name: 'Add attribute' }), a.option ?? a.label);
    await choose(page, form.getByRole('combobox', { name: 'Add attribute' }), 'Auto-confirm paid invoices');
    // Boolean: a true/false choice, true by default
    await expect(form.getByRole('combobox', { name: 'Auto-confirm paid invoices' })).toHaveValue('true');

    for (const a of attributes) await form.getByRole('textbox', { name: a.label }).fill(a.wrong);
    await form.getByRole('button', { name: 'Save' }).click();
    for (const a of attributes) await expect(form.getByText(a.message, { exact: true })).toBeVisible();
    await expect(toast(page, 'Successfully changed')).toHaveCount(0);

    for (const a of attributes) {
      await form.getByRole('textbox', { name: a.label }).fill(a.right);
      await expect(form.getByText(a.message, { exact: true })).toBeHidden();
    }
    await choose(page, form.getByRole('combobox', { name: 'Auto-confirm paid invoices' }), 'false');
    const put = page.waitForRequest((r) => r.method() === 'PUT' && r.url().includes('/api/v1/terminal/'));
    await form.getByRole('button', { name: 'Save' }).click();
    // the API keeps minor units: 1,500,000.00 UZS is sent as 150000000
    const sent = (await put).postDataJSON() as { attributes: { value: string }[] };
    expect(sent.attributes.map((a) => a.value)).toContain('150000000');
    await expect(toast(page, 'Successfully changed')).toBeVisible(SAVED);

    // stored: a fresh page shows the saved values
    await page.reload();
    await page.getByRole('tab', { name }).click();
    const saved = page.getByRole('form', { name: `Edit terminal ${name}` });
    for (const a of attributes)
      await expect(saved.getByRole('textbox', { name: a.label })).toHaveValue(a.shown ?? a.right);
    await expect(saved.getByRole('combobox', { name: 'Auto-confirm paid invoices' })).toHaveValue('false');

    // the fee is typed (basis points) and checked by the same parser on both sides; the callback URL is http(s)
    const settings = page.getByRole('form', { name: `Fee and callback of ${name}` });
    await settings.getByRole('textbox', { name: 'Fee, %' }).fill('1.555');
    await settings.getByRole('textbox', { name: 'Callback URL' }).fill('ftp://shop.example.com/cb');
    await settings.getByRole('button', { name: 'Save fee and callback' }).click();
    await expect(
      settings.getByText('Fee must be a percentage from 0 to 100 with at most two decimals, e.g. 2.5'),
    ).toBeVisible();
    await expect(settings.getByText('Callback URL must be an http(s) URL')).toBeVisible();
    await settings.getByRole('textbox', { name: 'Fee, %' }).fill('2.75');
    await settings.getByRole('textbox', { name: 'Callback URL' }).fill('https://shop.example.com/paydesk');
    await settings.getByRole('button', { name: 'Save fee and callback' }).click();
    await expect(toast(page, 'Successfully changed').last()).toBeVisible(SAVED);
    await page.reload();
    await page.getByRole('tab', { name }).click();
    await expect(page.getByRole('textbox', { name: 'Fee, %' })).toHaveValue('2.75');
    await expect(page.getByRole('textbox', { name: 'Callback URL' })).toHaveValue('https://shop.example.com/paydesk');

    // a stored attribute removed at once
    await saved.getByRole('button', { name: 'Remove Preferred provider code' }).click();
    await expect(toast(page, 'Successfully removed')).toBeVisible(SAVED);
    await expect(saved.getByRole('textbox', { name: 'Preferred provider code' })).toHaveCount(0);

    // test → production, after the confirmation; no way back in the UI
    await page.getByRole('button', { name: 'Switch to production' }).click();
    const confirm = page.getByRole('dialog', { name: 'State changing' });
    await expect(confirm.getByText('Are you sure to switch current terminal to production state?')).toBeVisible();
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await expect(toast(page, 'Successfully changed').last()).toBeVisible(SAVED);
    await expect(page.getByText('Production', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Switch to production' })).toHaveCount(0);
  });

  test('a merchant owner edits the callback URL in "Callbacks" and never sees the fee', async ({ page, signInAs }) => {
    await signInAs('owner', '/terminals');
    await page.getByRole('tab', { name: 'UZS Deposit', exact: true }).click();
    const callbacks = page.getByRole('form', { name: 'Callbacks of UZS Deposit' });
    await expect(callbacks.getByRole('heading', { name: 'Callbacks', level: 2 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Fee and callbacks' })).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: 'Fee, %' })).toHaveCount(0);
    const url = callbacks.getByRole('textbox', { name: 'Callback URL' });
    await expect(url).toBeEditable();
    // the demo's own inbox: saved back as it is, so that the other specs' callbacks still arrive there
    const current = await url.inputValue();
    expect(current).toMatch(/\/api\/demo\/callbacks$/);
    await url.fill('not a url');
    const save = callbacks.getByRole('button', { name: 'Save', exact: true });
    await expect(save).toBeEnabled();
    await save.click();
    await expect(callbacks.getByText('Callback URL must be an http(s) URL')).toBeVisible();
    await url.fill(current);
    const patch = page.waitForRequest((r) => r.method() === 'PATCH' && r.url().includes('/api/v1/terminal/'));
    await save.click();
    expect((await patch).postDataJSON()).toEqual({ callbackUrl: current });
    await expect(toast(page, 'Successfully changed')).toBeVisible(SAVED);
  });

  test('support sees terminals without attributes and cannot create or switch them', async ({ page, signInAs }) => {
    await signInAs('support', '/terminals');
    await expect(page.getByRole('heading', { name: 'Terminals', level: 1 })).toBeVisible();
    await expect(page.getByRole('tab').first()).toBeVisible();
    await expect(page.getByLabel('Name')).toBeVisible();
    await expect(page.getByRole('button', { name: 'New Terminal' })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Attributes' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Switch to production' })).toHaveCount(0);
    // support resends callbacks (merchant.callback.edit): the URL with its Save, never the fee
    await expect(page.getByRole('heading', { name: 'Callbacks', level: 2 })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Fee, %' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: /^Save/ })).toHaveText(['Save']);
  });
});

test.describe('accounts', () => {
  test('admin creates an account, toggles it, edits a credential and a limit', async ({ page, signInAs }) => {
    await signInAs('admin');
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Accounts', exact: true })
      .click();
    await expect(page.getByRole('heading', { name: 'Accounts', level: 1 })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Provider accounts' })).toBeVisible();

    const bank = `E2E Bank ${suffix()}`;
    await page.getByRole('button', { name: 'New Account' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Account' });
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog.getByText('Payment method is required')).toBeVisible();
    await expect(dialog.getByText('Payment provider is required')).toBeVisible();
    await choose(page, dialog.getByRole('combobox', { name: 'Payment method' }), 'Humo (HUMOUZS)');
    await choose(page, dialog.getByRole('combobox', { name: 'Payment provider' }), 'TuronPay');
    await dialog.getByLabel('Bank name').fill(bank);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(toast(page, 'Account created')).toBeVisible(SAVED);
    await expect(page).toHaveURL(/\/accounts\/\d+$/);
    const id = page.url().split('/').pop()!;

    // the on/off cell in the list
    await page.getByRole('link', { name: 'Accounts' }).first().click();
    const row = page.getByRole('row', { name: `Account ${id}` });
    await expect(row).toContainText(bank);
    // a new account's health: none given, no money yet (not a read in flight)
    await expect(row.getByRole('cell', { name: '…' })).toHaveCount(0);
    await expect(row).toContainText('none given');
    await expect(row).toContainText('never');
    const enabled = row.getByRole('switch', { name: `Account ${id} enabled` });
    // the switch's visible track, clicked as a user does: Playwright waits for it to stand still (the list and the
    // health figures fill in and move it), where a forced click on the hidden input could land beside it
    const track = row.locator('.mantine-Switch-track');
    await expect(enabled).toBeChecked();
    await track.click();
    await expect(enabled).not.toBeChecked();
    await page.reload();
    await expect(enabled).not.toBeChecked();
    await track.click();
    await expect(enabled).toBeChecked();

    // details: add a card (Luhn checked), then edit it
    await page
      .getByRole('row', { name: `Account ${id}` })
      .getByRole('cell', { name: bank })
      .click();
    await expect(page).toHaveURL(new RegExp(`/accounts/${id}$`));
    await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
    await expect(page.getByText('TuronPay').first()).toBeVisible();
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const add = page.getByRole('dialog', { name: 'Add credential' });
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(add.getByText('Credential type is required')).toBeVisible();
    await choose(page, add.getByRole('combobox', { name: 'Credential type' }), 'CARD');
    await add.getByLabel('Value').fill('4111 1111 1111 1112');
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(add.getByText('Card number is not valid (Luhn check failed)')).toBeVisible();
    await add.getByLabel('Value').fill('4111 1111 1111 1111');
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page, 'Successfully created')).toBeVisible(SAVED);
    // every answer masks a card (first 6, last 4): the list shows it so, and the edit starts from an empty value
    const credentials = page.getByRole('table', { name: 'Credentials' });
    await expect(credentials.getByText('411111******1111')).toBeVisible();
    await expect(credentials.getByText('4111111111111111')).toHaveCount(0);

    await credentials.getByRole('button', { name: 'Edit CARD 411111******1111' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit credential' });
    await expect(edit.getByLabel('Value')).toHaveValue('');
    await expect(edit.getByLabel('Value')).toHaveAttribute('placeholder', '411111******1111');
    await edit.getByLabel('Value').fill('1234');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit.getByText('Card number must be 16 to 19 digits')).toBeVisible();
    await edit.getByLabel('Value').fill('5555555555554444');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page, 'Successfully changed')).toBeVisible(SAVED);
    await expect(credentials.getByText('555555******4444')).toBeVisible();

    // limits grid: the limit is typed in major units of the account's currency (digits and one dot); priority at
    // least 0
    const limits = page.getByRole('table', { name: 'Limits' });
    await expect(limits.getByRole('cell', { name: '0.00 UZS' }).first()).toBeVisible();
    await limits.getByRole('button', { name: 'Edit limit' }).click();
    const limit = page.getByRole('dialog', { name: 'Edit limit' });
    const limitInput = limit.getByRole('textbox', { name: 'Limit (UZS)' });
    await expect(limitInput).toHaveValue('0.00');
    await limitInput.fill('');
    await limit.getByRole('button', { name: 'Save' }).click();
    await expect(limit.getByText('Limit is required')).toBeVisible();
    await limitInput.pressSequentially('5x0-00.0.05');
    await expect(limitInput).toHaveValue('5000.005');
    await expect(limit.getByText('Limit must have at most 2 decimals')).toBeVisible();
    await limitInput.fill('50000');
    await expect(limit.getByText('= 50,000.00 UZS')).toBeVisible();
    await limit.getByLabel('Priority').fill('-1');
    await limit.getByRole('button', { name: 'Save' }).click();
    await expect(limit.getByText('Priority must be at least 0')).toBeVisible();
    await limit.getByLabel('Priority').fill('7');
    await limit.getByLabel(/Unique amount/).check();
    await limit.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page, 'Successfully changed').last()).toBeVisible(SAVED);
    await expect(limits.getByRole('cell', { name: '50,000.00 UZS' })).toBeVisible();
    await expect(limits.getByRole('cell', { name: '7', exact: true })).toBeVisible();
    await expect(limits.getByRole('cell', { name: 'Yes' })).toBeVisible();

    // exact integers: a limit past 2^53 minor units is saved and shown digit for digit (JSON.parse would round it)
    await limits.getByRole('button', { name: 'Edit limit' }).click();
    await limitInput.fill('90071992547409.93');
    await expect(limit.getByText('= 90,071,992,547,409.93 UZS')).toBeVisible();
    const sent = page.waitForRequest((r) => r.method() === 'PUT' && r.url().includes('/people/account/limit/'));
    await limit.getByRole('button', { name: 'Save' }).click();
    // the API keeps minor units, exactly
    expect((await sent).postData()).toContain('"limit":9007199254740993');
    await expect(toast(page, 'Successfully changed').last()).toBeVisible(SAVED);
    await expect(limits.getByRole('cell', { name: '90,071,992,547,409.93 UZS' })).toBeVisible();
    await limits.getByRole('button', { name: 'Edit limit' }).click();
    await expect(limitInput).toHaveValue('90071992547409.93');
    await limit.getByRole('button', { name: 'Cancel' }).click();
  });
});

test.describe('merchant', () => {
  test('owner renames the merchant; bad names and keys are refused', async ({ page, signInAs }) => {
    await signInAs('owner');
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Merchant', exact: true })
      .click();
    await expect(page.getByRole('heading', { name: 'Merchant', level: 1 })).toBeVisible();
    const form = page.getByRole('form', { name: 'Edit merchant' });
    await expect(form.getByLabel('ID')).toHaveAttribute('readonly', '');
    const keySection = page.getByRole('region', { name: 'Public key' });
    await expect(keySection.getByText('-----BEGIN PUBLIC KEY-----', { exact: true })).toBeVisible();
    await expect(keySection.getByText('-----END PUBLIC KEY-----', { exact: true })).toBeVisible();
    await expect(keySection.getByRole('button', { name: 'Copy public key' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'New Merchant' })).toHaveCount(0);

    const original = await form.getByLabel('Name').inputValue();
    await form.getByLabel('Name').fill('ab');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText('Name must be at least 3 characters long')).toBeVisible();
    await form.getByLabel('Name').fill('');
    await expect(form.getByText('Name is required')).toBeVisible();

    await form.getByLabel('Name').fill(`${original} E2E`);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page, 'Successfully changed')).toBeVisible(SAVED);

    // a malformed key never reaches the server; the stored key stays
    const keyForm = page.getByRole('form', { name: 'Replace public key' });
    await keyForm.getByLabel('New public key (PEM)').fill('not a key');
    await keyForm.getByRole('button', { name: 'Save key' }).click();
    await expect(keyForm.getByText('Public key must be an Ed25519 public key in PEM (SPKI) format')).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Replace public key' })).toHaveCount(0);

    await page.reload();
    await expect(page.getByRole('form', { name: 'Edit merchant' }).getByLabel('Name')).toHaveValue(`${original} E2E`);
    await expect(page.getByText('-----BEGIN PUBLIC KEY-----', { exact: true })).toBeVisible();

    // put the name back for the other specs
    await page.getByRole('form', { name: 'Edit merchant' }).getByLabel('Name').fill(original);
    await page.getByRole('form', { name: 'Edit merchant' }).getByRole('button', { name: 'Save' }).click();
    await expect(toast(page, 'Successfully changed').last()).toBeVisible(SAVED);
  });

  // Second Shop: no other spec signs requests or checks callbacks with its keys
  test('shop2 replaces the API public key and rotates the webhook secret', async ({ page, signInAs }) => {
    await signInAs('shop2', '/merchant');
    await expect(page.getByRole('form', { name: 'Edit merchant' }).getByLabel('Name')).toHaveValue('Second Shop');

    const pem = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const body = pem.trim().split('\n').slice(1, -1).join('');
    const keyForm = page.getByRole('form', { name: 'Replace public key' });
    await keyForm.getByLabel('New public key (PEM)').fill(pem);
    await keyForm.getByRole('button', { name: 'Save key' }).click();
    const confirmKey = page.getByRole('dialog', { name: 'Replace public key' });
    await expect(confirmKey).toContainText(
      'Replace the API public key? Requests signed with the old key will be refused.',
    );
    await confirmKey.getByRole('button', { name: 'Replace key' }).click();
    await expect(toast(page, 'Public key replaced')).toBeVisible(SAVED);
    await expect(page.getByRole('region', { name: 'Public key' }).getByText(body)).toBeVisible();
    await expect(keyForm.getByLabel('New public key (PEM)')).toHaveValue('');

    const webhook = page.getByRole('region', { name: 'Webhook secret' });
    await webhook.getByRole('button', { name: 'Rotate secret' }).click();
    await page
      .getByRole('dialog', { name: 'Rotate webhook secret' })
      .getByRole('button', { name: 'Rotate secret' })
      .click();
    const shown = page.getByRole('dialog', { name: 'New webhook secret' });
    await expect(shown.getByRole('textbox', { name: 'Webhook secret' })).toHaveValue(/^whsec_/);
    await expect(shown).toContainText(
      /The previous secret keeps signing callbacks until \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} UTC/,
    );
    await expect(shown.getByRole('button', { name: 'Copy webhook secret' })).toBeVisible();
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(shown).toBeHidden();
    // the secret is never shown again; the overlap is
    await page.reload();
    await expect(page.getByRole('region', { name: 'Webhook secret' })).toContainText(
      'The previous secret keeps signing callbacks until',
    );
    await expect(page.getByText(/whsec_/)).toHaveCount(0);
  });

  test('finance reads the key but cannot change keys or secrets', async ({ page, signInAs }) => {
    await signInAs('finance', '/merchant');
    await expect(
      page.getByRole('region', { name: 'Public key' }).getByText('-----BEGIN PUBLIC KEY-----', { exact: true }),
    ).toBeVisible();
    await expect(page.getByRole('form', { name: 'Replace public key' })).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Webhook secret' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Rotate secret' })).toHaveCount(0);
  });

  test('admin creates a merchant and is offered to switch to it', async ({ page, signInAs }) => {
    await signInAs('admin', '/merchant');
    const name = `E2E Store ${suffix()}`;
    await page.getByRole('button', { name: 'New Merchant' }).click();
    const dialog = page.getByRole('dialog', { name: 'New Merchant' });
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog.getByText('Name is required')).toBeVisible();
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(toast(page, 'Merchant created')).toBeVisible(SAVED);
    await dialog.getByRole('button', { name: `Switch to ${name}` }).click();
    await expect(page.getByRole('form', { name: 'Edit merchant' }).getByLabel('Name')).toHaveValue(name);
    await expect(page.getByRole('banner').getByRole('combobox', { name: 'Merchant' })).toHaveValue(name);
    await expect(page.getByText('not set')).toBeVisible();
  });
});
