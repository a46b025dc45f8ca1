import type { Page } from '@playwright/test';
import { expect, test } from './support/auth';
import { seriousViolations, wcagViolations } from './support/a11y';
import { createInvoice, formPath } from './support/merchant-api';

// Every screen a customer sees on the payment form, in each of its languages, checked by axe against
// WCAG 2.1 A and AA: any violation fails, whatever impact axe gives it. The steps are found by their
// structure, not their words, so the same walk serves every language. English is checked on a desktop
// screen, Russian and Uzbek on a phone's (390 × 844), where most customers pay.
test.describe.configure({ timeout: 90_000 });

const LANGS = [
  { lang: 'en', viewport: { width: 1280, height: 720 } },
  { lang: 'ru', viewport: { width: 390, height: 844 } },
  { lang: 'uz', viewport: { width: 390, height: 844 } },
] as const;

const main = (page: Page) => page.getByRole('main');
const heading = (page: Page) => main(page).getByRole('heading', { level: 1 });
const primary = (page: Page) => main(page).locator('.pf-primary');

/** Axe on the whole page once the step is settled; the step's name makes a failure readable. */
async function expectNoViolations(page: Page, step: string) {
  await expect(heading(page)).toBeVisible();
  expect.soft(await wcagViolations(page, { strict: true }), step).toEqual([]);
}

test('the check counts a violation of any impact, not only serious ones', async ({ page }) => {
  // a language attribute and an XML one that disagree: WCAG 3.1.1, which axe rates moderate
  await page.setContent(
    '<!doctype html><html lang="en" xml:lang="fr"><head><title>Check</title></head>' +
      '<body><main><h1>Check</h1></main></body></html>',
  );
  expect(await seriousViolations(page)).toEqual([]);
  const strict = await wcagViolations(page, { strict: true });
  expect(strict).toHaveLength(1);
  expect(strict[0]).toContain('html-xml-lang-mismatch');
});

for (const { lang, viewport } of LANGS) {
  test.describe(`${viewport.width} px`, () => {
    test.use({ viewport });
    test(`${lang}: deposit method choice, amount, requisites and waiting pass axe`, async ({ page, baseURL }) => {
      // a live terminal: nobody confirms the payment, so the waiting step stays on screen
      const invoice = await createInvoice(baseURL!, {
        flowType: 'DEPOSIT',
        amount: 1_000_000,
        canChangeAmount: true,
        test: false,
      });
      await page.goto(formPath(invoice, lang));
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await expect(main(page).locator('.pf-method').first()).toBeVisible();
      await expectNoViolations(page, `${lang} deposit: method choice`);

      await main(page).locator('.pf-method').first().click();
      await expect(main(page).locator('.pf-stepper')).toBeVisible();
      await expectNoViolations(page, `${lang} deposit: amount`);

      await primary(page).click();
      await expect(main(page).locator('.pf-requisites-number')).toBeVisible();
      await expect(primary(page)).toBeEnabled();
      await expectNoViolations(page, `${lang} deposit: requisites`);

      await primary(page).click();
      await expect(main(page).locator('.pf-big-amount')).toBeVisible();
      await expect(main(page).locator('.pf-spinner-wrap')).toBeVisible();
      await expectNoViolations(page, `${lang} deposit: waiting`);
    });

    test(`${lang}: deposit success passes axe`, async ({ page, baseURL }) => {
      const invoice = await createInvoice(baseURL!, {
        flowType: 'DEPOSIT',
        amount: 2_500_000,
        paymentMethod: 'CARDUZS',
      });
      await page.goto(formPath(invoice, lang));
      await expect(primary(page)).toBeEnabled();
      await primary(page).click();
      // the sandbox confirms test-terminal payments; the form polls every 5 s
      await expect(main(page).locator('.pf-big-amount.is-success')).toBeVisible({ timeout: 20_000 });
      await expectNoViolations(page, `${lang} deposit: success`);
    });

    test.describe('on a clock of its own', () => {
      // page.clock, which a page keeps once installed: this test on a page of its own
      test.use({ freshPage: true });
      test(`${lang}: the fail screens and the support request pass axe`, async ({ page, baseURL }) => {
        const invoice = await createInvoice(baseURL!, {
          flowType: 'DEPOSIT',
          amount: 1_000_000,
          canChangeAmount: true,
          expiresInSeconds: 60,
        });
        await page.clock.install();
        await page.goto(formPath(invoice, lang));
        await expect(main(page).locator('.pf-method').first()).toBeVisible();
        // the last minute: the countdown in red must still be readable
        await expect(page.locator('.pf-countdown.is-urgent')).toBeVisible();
        await expectNoViolations(page, `${lang}: countdown in its last minute`);

        await page.clock.fastForward('01:05');
        await expect(main(page).locator('.pf-payment-id')).toBeVisible();
        await expect(main(page).getByRole('alert')).toBeVisible();
        await expectNoViolations(page, `${lang} fail: expired`);

        await main(page).locator('button.pf-secondary').click();
        await expect(main(page).locator('textarea')).toBeVisible();
        await expectNoViolations(page, `${lang} fail: support request`);
        await main(page).locator('textarea').fill('The time ran out');
        await main(page).locator('.pf-support button[type=submit]').click();
        await expect(main(page).locator('.pf-success-note')).toBeVisible();
        await expectNoViolations(page, `${lang} fail: support request sent`);

        await page.goto(`/payment/NoSuchFormIdAtAll0123456789?lang=${lang}`);
        await expect(main(page).locator('.pf-text')).toHaveCount(2);
        await expectNoViolations(page, `${lang} fail: unknown form`);
      });
    });

    test(`${lang}: card withdrawal entry passes axe, with and without errors`, async ({ page, baseURL }) => {
      const invoice = await createInvoice(baseURL!, {
        flowType: 'WITHDRAWAL',
        amount: 1_500_000,
        canChangeAmount: true,
      });
      await page.goto(formPath(invoice, lang));
      await expect(main(page).locator('.pf-method').first()).toBeVisible();
      await expectNoViolations(page, `${lang} withdrawal: method choice`);
      await main(page)
        .locator('.pf-method')
        .filter({ has: page.locator('.pf-method-name', { hasText: /^Uzs$/ }) })
        .click();
      await expect(main(page).locator('.pf-stepper')).toBeVisible();
      await expectNoViolations(page, `${lang} withdrawal: amount`);
      await primary(page).click();

      const card = main(page).locator('input[autocomplete="cc-number"]');
      await expect(card).toBeVisible();
      await expectNoViolations(page, `${lang} withdrawal: card number`);
      await card.pressSequentially('41111111');
      await primary(page).click();
      await expect(card).toHaveAttribute('aria-invalid', 'true');
      await expectNoViolations(page, `${lang} withdrawal: card number refused`);
    });

    test(`${lang}: SBP withdrawal entry (bank list and phone) passes axe, with and without errors`, async ({
      page,
      baseURL,
    }) => {
      const invoice = await createInvoice(baseURL!, {
        flowType: 'WITHDRAWAL',
        currency: 'RUB',
        test: false,
        amount: 500_000,
        paymentMethod: 'SBPRUB',
      });
      await page.goto(formPath(invoice, lang));
      const radios = main(page).getByRole('radio');
      await expect(radios.first()).toBeVisible();
      await expectNoViolations(page, `${lang} SBP: bank list and phone`);

      await primary(page).click();
      const phone = main(page).locator('input[type=tel]');
      await expect(phone).toHaveAttribute('aria-invalid', 'true');
      await expect(main(page).locator('.pf-error')).toHaveCount(2);
      await expectNoViolations(page, `${lang} SBP: both fields refused`);

      const search = main(page).getByRole('searchbox');
      await search.fill('no such bank');
      await expect(radios).toHaveCount(0);
      await expectNoViolations(page, `${lang} SBP: no bank found`);
      await search.fill('sber');
      await radios.first().check();
      await search.fill('');
      await phone.pressSequentially('+78991234567');
      await expect(phone).toHaveValue('+7 (899) 123-45-67');
      await expectNoViolations(page, `${lang} SBP: the nine rule`);

      await phone.fill('');
      await phone.pressSequentially('89161234567');
      await expect(phone).toHaveValue('+7 (916) 123-45-67');
      await expect(phone).not.toHaveAttribute('aria-invalid');
      await expectNoViolations(page, `${lang} SBP: filled in`);

      await primary(page).click();
      await expect(main(page).locator('.pf-spinner-wrap')).toBeVisible();
      await expectNoViolations(page, `${lang} SBP: waiting`);
    });
  });
}
