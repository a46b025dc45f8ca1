import { t, type MessageKey } from '../i18n';

type Plan = { app: MessageKey | null; transfer: MessageKey };

// Step-by-step hints for the Russian banks' apps.
const PLANS: Record<string, Plan> = {
  SBERRUB: { app: 'form.instructions.app_sberbank', transfer: 'form.instructions.transfer_card' },
  SBERRUB_X: { app: 'form.instructions.app_sberbank', transfer: 'form.instructions.transfer_phone' },
  TCSBRUB: { app: 'form.instructions.app_tinkoff', transfer: 'form.instructions.transfer_card' },
  TSCBRUB_X: { app: 'form.instructions.app_tinkoff', transfer: 'form.instructions.transfer_phone' },
  SBPRUB: { app: null, transfer: 'form.instructions.transfer_sbp' },
};

export function BankInstructions({ methodCode, amountText }: { methodCode: string; amountText: string }) {
  const plan = PLANS[methodCode];
  if (!plan) return null;
  const bank = t(plan.app ?? 'form.instructions.app_sbp');
  return (
    <details className="pf-instructions">
      <summary>{t('form.instructions.title', { bank })}</summary>
      <ol>
        <li>{plan.app ? t('form.instructions.open_app', { app: bank }) : t('form.instructions.open_bank_app')}</li>
        <li>{t('form.instructions.payments')}</li>
        <li>{t(plan.transfer)}</li>
        <li>{t('form.instructions.paste')}</li>
        <li>{t('form.instructions.amount', { amount: amountText })}</li>
        <li>{t('form.instructions.confirm')}</li>
      </ol>
    </details>
  );
}
