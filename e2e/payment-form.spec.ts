import type { APIRequestContext, Page } from '@playwright/test';
import { DEMO_PASSWORD, expect, test } from './support/auth';
import { createInvoice, demoMerchant, formPath } from './support/merchant-api';

// The public payment form, each test starting from a signed merchant-API create.
test.use({ permissions: ['clipboard-read', 'clipboard-write'] });
// the sandbox confirms after a delay and the form polls every 5 s: room for a busy 2-core machine
test.describe.configure({ timeout: 60_000 });

const main = (page: Page) => page.getByRole('main');
const heading = (page: Page) => main(page).getByRole('heading', { level: 1 });

/**
 * The payout credential the server stored for an invoice, read back through the back-office API as admin: the
 * invoice details send it masked, the full value only by the audited reveal (which needs the Origin of a browser).
 */
async function storedCredential(
  request: APIRequestContext,
  baseURL: string,
  invoiceId: string,
): Promise<{ masked: string | undefined; value: string }> {
  const signIn = await request.post('/api/v1/login', { data: { username: 'admin', password: DEMO_PASSWORD } });
  expect(signIn.status()).toBe(200);
  const scope = `merchantId=${demoMerchant().merchantId}`;
  const res = await request.get(`/api/v1/invoice/${invoiceId}?${scope}`);
  expect(res.status()).toBe(200);
  const masked = ((await res.json()) as { data: { account: { value: string } | null } }).data.account?.value;
  const reveal = await request.post(`/api/v1/invoice/${invoiceId}/credentials/reveal?${scope}`, {
    headers: { origin: new URL(baseURL).origin },
  });
  expect(reveal.status(), await reveal.text()).toBe(200);
  return { masked, value: ((await reveal.json()) as { data: { value: string } }).data.value };
}

async function expectNoRawKeys(page: Page) {
  const text = await page.locator('body').innerText();
  expect(text).not.toMatch(/form\.[a-z_.]+/);
}

test('deposit with several methods: method, stepper and quick amount, requisites, Have paid, Success, Continue', async ({
  page,
  baseURL,
}) => {
  const invoice = await createInvoice(baseURL!, { flowType: 'DEPOSIT', amount: 1_000_000, canChangeAmount: true });
  await page.goto(formPath(invoice));
  await expect(page).toHaveTitle(/Payment/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  await expect(heading(page)).toHaveText('Select payment method');
  await expect(page.getByRole('timer')).toHaveText(/^00:\d\d:\d\d$/);
  await page.getByRole('button', { name: /Humo/ }).click();

  await expect(heading(page)).toHaveText('Payment');
  await expect(main(page).getByText('Min 1,000.00 · Max 50,000,000.00 UZS')).toBeVisible();
  const amount = page.getByRole('status', { name: 'Amount' });
  await expect(amount).toHaveText('10,000.00 UZS');
  await page.getByRole('button', { name: 'Increase the amount by 1,000.00' }).click();
  await expect(amount).toHaveText('11,000.00 UZS');
  await page.getByRole('button', { name: 'Decrease the amount by 1,000.00' }).click();
  await page.getByRole('button', { name: 'Decrease the amount by 1,000.00' }).click();
  await expect(amount).toHaveText('9,000.00 UZS');
  await page.getByRole('group', { name: 'Quick amounts' }).getByRole('button', { name: '50,000.00' }).click();
  await expect(amount).toHaveText('50,000.00 UZS');

  // the banner returns to the method choice
  await page.getByRole('button', { name: /Payment method: Humo/ }).click();
  await expect(heading(page)).toHaveText('Select payment method');
  await page.getByRole('button', { name: /Humo/ }).click();
  await page.getByRole('group', { name: 'Quick amounts' }).getByRole('button', { name: '50,000.00' }).click();
  await page.getByRole('button', { name: 'Deposit 50,000.00 UZS' }).click();

  await expect(heading(page)).toHaveText('Deposit 50,000.00 UZS');
  const requisites = page.getByRole('region', { name: 'Payment details' });
  await expect(requisites.getByText(/^\d{4} \d{4} \d{4} \d{4}$/)).toBeVisible();
  await expect(requisites.getByText('50,000.00 UZS')).toBeVisible();
  await requisites.getByRole('button', { name: 'Copy Card number' }).click();
  await expect(requisites.getByRole('button', { name: 'Copied Card number' })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toMatch(/^\d{16}$/);
  await expect(main(page).getByText(invoice.invoiceId)).toBeVisible();
  await expect(main(page).getByText('Save your Payment ID until the money arrives in your account')).toBeVisible();

  await page.getByRole('button', { name: 'Have paid' }).click();
  await expect(heading(page)).toHaveText('Payment in progress');
  await expect(main(page).getByText('Wait. Payment in progress...')).toBeVisible();

  // the sandbox confirms test-terminal payments; the form polls every 5 s
  await expect(heading(page)).toHaveText('Success', { timeout: 20_000 });
  await expect(main(page).getByText('+50,000.00 UZS')).toBeVisible();
  await expect(main(page).getByText('Your balance will be updated soon')).toBeVisible();
  await page.getByRole('link', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/api\/health\?ok$/);
});

test('deposit with a fixed method and amount asks for the requisites at once', async ({ page, baseURL }) => {
  const invoice = await createInvoice(baseURL!, { flowType: 'DEPOSIT', amount: 2_500_000, paymentMethod: 'CARDUZS' });
  await page.goto(formPath(invoice));

  await expect(heading(page)).toHaveText('Deposit 25,000.00 UZS');
  const requisites = page.getByRole('region', { name: 'Payment details' });
  await expect(requisites.getByText('Uzs', { exact: true })).toBeVisible();
  await expect(requisites.getByText(/^\d{4} \d{4} \d{4} \d{4}$/)).toBeVisible();
  await requisites.getByRole('button', { name: 'Copy Amount' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('25000.00');

  await page.getByRole('button', { name: 'Have paid' }).click();
  await expect(heading(page)).toHaveText('Success', { timeout: 20_000 });
});

test('withdrawal to a card validates the number and completes', async ({ page, baseURL }) => {
  const invoice = await createInvoice(baseURL!, { flowType: 'WITHDRAWAL', amount: 1_500_000, canChangeAmount: true });
  await page.goto(formPath(invoice));

  await page.getByRole('button', { name: /Uzs/ }).click();
  await expect(heading(page)).toHaveText('Payment');
  await page.getByRole('button', { name: 'Withdraw 15,000.00 UZS' }).click();

  await expect(heading(page)).toHaveText('Transfer to your account 15,000.00 UZS');
  const card = page.getByRole('textbox', { name: 'Card number' });
  await card.pressSequentially('41111111');
  await expect(card).toHaveValue('4111 1111');
  await page.getByRole('button', { name: 'Withdraw 15,000.00 UZS' }).click();
  await expect(main(page).getByText('Card number must have 16 to 19 digits')).toBeVisible();
  await expect(card).toBeFocused();
  await card.fill('4111 1111 1111 1112');
  await page.getByRole('button', { name: 'Withdraw 15,000.00 UZS' }).click();
  await expect(main(page).getByText('Card number is not valid')).toBeVisible();
  await card.fill('4111111111111111');
  await expect(card).toHaveValue('4111 1111 1111 1111');
  await page.getByRole('button', { name: 'Withdraw 15,000.00 UZS' }).click();

  await expect(heading(page)).toHaveText('Payment in progress');
  await expect(heading(page)).toHaveText('Success', { timeout: 20_000 });
  await expect(main(page).getByText('+15,000.00 UZS')).toBeVisible();
});

test('SBP withdrawal: bank search, both validation messages, the Russian phone mask', async ({ page, baseURL }) => {
  const invoice = await createInvoice(baseURL!, {
    flowType: 'WITHDRAWAL',
    currency: 'RUB',
    test: false,
    amount: 500_000,
    paymentMethod: 'SBPRUB',
  });
  await page.goto(formPath(invoice));

  await expect(heading(page)).toHaveText('Transfer to your account 5,000.00 RUB');
  // RUB: no way back
  await expect(page.getByRole('button', { name: 'Back' })).toHaveCount(0);

  const search = page.getByRole('searchbox', { name: 'Search for your bank' });
  await search.fill('no such bank');
  await expect(main(page).getByText('Nothing found')).toBeVisible();
  await search.fill('  SBER ');
  await expect(page.getByRole('radio')).toHaveCount(1);
  await search.fill('');

  const withdraw = page.getByRole('button', { name: 'Withdraw 5,000.00 RUB' });
  await withdraw.click();
  await expect(main(page).getByText('Choose the bank')).toBeVisible();
  await expect(main(page).getByText('Fill in the phone number')).toBeVisible();
  const phone = page.getByRole('textbox', { name: 'Phone number' });
  await expect(phone).toBeFocused();

  await search.fill('sber');
  await page.getByRole('radio', { name: 'Sberbank' }).check();
  await expect(main(page).getByText('Choose the bank')).toHaveCount(0);

  // after the country code, 8 is the first national digit: not a mobile number
  await phone.pressSequentially('+78991234567');
  await expect(phone).toHaveValue('+7 (899) 123-45-67');
  await expect(main(page).getByText('Phone number must start with nine')).toBeVisible();
  await phone.fill('');
  await phone.pressSequentially('9991234567');
  await expect(phone).toHaveValue('+7 (999) 123-45-67');
  await expect(main(page).getByText('Phone number must start with nine')).toHaveCount(0);

  await withdraw.click();
  await expect(heading(page)).toHaveText('Payment in progress');
  await expect(main(page).getByText('+5,000.00 RUB')).toBeVisible();
});

for (const keys of ['+79161234567', '89161234567', '9161234567']) {
  test(`SBP withdrawal: ${keys} typed key by key reads +7 (916) 123-45-67 and pays out to 79161234567`, async ({
    page,
    baseURL,
    request,
  }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const invoice = await createInvoice(baseURL!, {
      flowType: 'WITHDRAWAL',
      currency: 'RUB',
      test: false,
      amount: 500_000,
      paymentMethod: 'SBPRUB',
    });
    await page.goto(formPath(invoice));
    await page.getByRole('searchbox', { name: 'Search for your bank' }).fill('sber');
    await page.getByRole('radio', { name: 'Sberbank' }).check();

    const phone = page.getByRole('textbox', { name: 'Phone number' });
    await phone.pressSequentially(keys);
    await expect(phone).toHaveValue('+7 (916) 123-45-67');
    await page.screenshot({ path: testInfo.outputPath(`sbp-phone-${keys.replace('+', 'plus')}-390.png`) });

    if (keys === '9161234567') {
      // a customer correcting a digit in the middle: the caret stays where they edit
      for (let i = 0; i < 6; i++) await phone.press('ArrowLeft');
      await phone.press('Backspace');
      await expect(phone).toHaveValue('+7 (916) 124-56-7');
      await phone.press('3');
      await expect(phone).toHaveValue('+7 (916) 123-45-67');
      // an eleventh digit is refused; Backspace from the end over a dash removes one digit at a time
      await phone.press('End');
      await phone.press('8');
      await phone.press('Backspace');
      await phone.press('Backspace');
      await phone.press('Backspace');
      await expect(phone).toHaveValue('+7 (916) 123-4');
      await phone.pressSequentially('567');
      await expect(phone).toHaveValue('+7 (916) 123-45-67');
    }

    const sent = page.waitForRequest((r) => r.url().endsWith('/complete'));
    await page.getByRole('button', { name: 'Withdraw 5,000.00 RUB' }).click();
    expect((await sent).postDataJSON()).toMatchObject({ credential: '79161234567' });
    await expect(heading(page)).toHaveText('Payment in progress');
    expect(await storedCredential(request, baseURL!, invoice.invoiceId)).toEqual({
      masked: '7916*****67',
      value: '79161234567',
    });
  });
}

test.describe('on a clock of its own', () => {
  // page.clock, which a page keeps once installed: this test on a page of its own
  test.use({ freshPage: true });
  test('a form that expires on screen fails and continues to the cancel URL', async ({ page, baseURL }) => {
    const invoice = await createInvoice(baseURL!, {
      flowType: 'DEPOSIT',
      amount: 1_000_000,
      canChangeAmount: true,
      expiresInSeconds: 120,
    });
    // the countdown runs on the page's monotonic clock; fast-forward it instead of waiting two minutes
    await page.clock.install();
    await page.goto(formPath(invoice));

    await expect(heading(page)).toHaveText('Select payment method');
    const timer = page.getByRole('timer');
    // red only in the last minute, when no hours and no minutes remain
    await expect(timer).toHaveText(/^00:01:\d\d$/);
    await expect(timer).toHaveCSS('color', 'rgb(22, 25, 29)');
    await page.clock.fastForward('01:05');
    await expect(timer).toHaveText(/^00:00:\d\d$/);
    await expect(timer).toHaveCSS('color', 'rgb(185, 28, 28)');

    await page.clock.fastForward('01:00');
    await expect(heading(page)).toHaveText('Fail');
    await expect(main(page).getByText('Something went wrong')).toBeVisible();
    await expect(main(page).getByText('The time for this payment has run out.')).toBeVisible();
    await expect(main(page).getByText(invoice.invoiceId)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Copy Invoice ID' })).toBeVisible();

    await page.getByRole('button', { name: 'Contact support' }).click();
    await page
      .getByRole('textbox', { name: 'Describe the problem (optional)' })
      .fill('The time ran out while I was paying');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(main(page).getByText('Your request has been sent.', { exact: false })).toBeVisible();

    await page.getByRole('link', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/api\/health\?cancel$/);
  });
});

test('an unknown form id shows the fail screen', async ({ page }) => {
  await page.goto('/payment/NoSuchFormIdAtAll0123456789');
  await expect(heading(page)).toHaveText('Fail');
  await expect(main(page).getByText('This payment form does not exist or has expired.')).toBeVisible();
});

const LANGS = [
  {
    lang: 'ru',
    title: 'Оплата',
    method: 'Выберите способ оплаты',
    deposit: /^Пополнить на 10\s000,00 UZS$/,
    paid: 'Я оплатил',
  },
  {
    lang: 'uz',
    title: 'To‘lov',
    method: 'To‘lov usulini tanlang',
    deposit: /^To‘ldirish 10\s000,00 UZS$/,
    paid: 'To‘ladim',
  },
];

for (const l of LANGS) {
  test(`the deposit flow in ${l.lang} shows no untranslated key`, async ({ page, baseURL }) => {
    const invoice = await createInvoice(baseURL!, { flowType: 'DEPOSIT', amount: 1_000_000, canChangeAmount: true });
    await page.goto(formPath(invoice, l.lang));
    await expect(page.locator('html')).toHaveAttribute('lang', l.lang);

    await expect(heading(page)).toHaveText(l.method);
    await expect(page).toHaveTitle(new RegExp(l.title));
    await expectNoRawKeys(page);
    await page.getByRole('button', { name: /Humo/ }).click();

    await expect(heading(page)).toHaveText(l.title);
    await expectNoRawKeys(page);
    await page.getByRole('button', { name: l.deposit }).click();

    await expect(page.getByRole('button', { name: l.paid })).toBeEnabled();
    await expectNoRawKeys(page);
    await page.getByRole('button', { name: l.paid }).click();
    await expect(page.getByRole('status').filter({ hasText: /\.\.\.$/ })).toBeVisible();
    await expectNoRawKeys(page);
  });
}
