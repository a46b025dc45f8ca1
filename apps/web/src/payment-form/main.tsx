import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n, languageFromSearch, t } from './i18n';
import { formIdFromPath } from './lib/urls';
import { PaymentForm } from './payment-form';
import './styles.css';

// The public payment form: its own entry and bundle, nothing of the back-office (docs/performance.md, "The payment
// form's own small bundle").
const lang = languageFromSearch(window.location.search);
document.documentElement.lang = lang;

await initI18n(lang);
document.title = t('form.title');
const formId = formIdFromPath(window.location.pathname) ?? '';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <PaymentForm formId={formId} />
    <p id="pf-announcer" className="pf-sr-only" aria-live="polite" aria-atomic="true" />
  </StrictMode>,
);
