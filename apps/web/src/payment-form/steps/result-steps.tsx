import { useEffect, useId, useState, type Dispatch } from 'react';
import { STATUS_POLL_MS, type FailReason, type FlowAction, type Ready } from '../flow';
import { ApiError, formApi } from '../api';
import { Spinner } from '../components/spinner';
import { CopyButton } from '../components/copy-button';
import { redirectHref } from '../lib/urls';
import { money, t } from '../i18n';
import { errorText } from '../errors';

/** The amount the server holds (never only what the customer last typed). */
const plus = (s: Ready) => `+${money(s.held ?? s.amount, s.form.currencyInfo.dimension, s.form.currencyInfo.code)}`;

/** Polls the form status every 5 s: DONE → Success, CANCELED or DECLINED → Fail. */
export function ProcessingStep({
  formId,
  state,
  dispatch,
}: {
  formId: string;
  state: Ready;
  dispatch: Dispatch<FlowAction>;
}) {
  useEffect(() => {
    const ac = new AbortController();
    const id = window.setInterval(async () => {
      try {
        const r = await formApi.status(formId, ac.signal);
        dispatch({ type: 'status', status: r.status });
      } catch (e) {
        // a dropped connection is retried at the next tick; an answer that refuses is a failure
        if (e instanceof ApiError) dispatch({ type: 'processing_failed', errorCode: e.code });
      }
    }, STATUS_POLL_MS);
    return () => {
      window.clearInterval(id);
      ac.abort();
    };
  }, [formId, dispatch]);
  return (
    <>
      <h1 tabIndex={-1}>{t('form.header.processing')}</h1>
      <p className="pf-big-amount">{plus(state)}</p>
      <Spinner label={t('form.text.processing')} />
    </>
  );
}

function ContinueLink({ url }: { url: string | null }) {
  const href = redirectHref(url);
  return href ? (
    <a className="pf-primary" href={href}>
      {t('form.button.continue')}
    </a>
  ) : null;
}

export function SuccessStep({ state }: { state: Ready }) {
  return (
    <>
      <h1 tabIndex={-1}>{t('form.header.success')}</h1>
      <p className="pf-big-amount is-success">{plus(state)}</p>
      <p className="pf-text">{t('form.text.success')}</p>
      <ContinueLink url={state.successUrl} />
    </>
  );
}

const REASON_TEXT: Partial<Record<FailReason, 'form.text.expired' | 'form.text.no_methods'>> = {
  expired: 'form.text.expired',
  no_methods: 'form.text.no_methods',
};

export function FailStep({
  formId,
  state,
  reason,
  redirect,
  errorCode,
}: {
  formId: string;
  state: Ready;
  reason: FailReason;
  redirect: string | null;
  /** the API's error code when a server answer ended the payment */
  errorCode?: string;
}) {
  const extraKey = REASON_TEXT[reason];
  const extra = errorCode ? errorText(errorCode) : extraKey ? t(extraKey) : null;
  return (
    <>
      <h1 tabIndex={-1}>{t('form.header.fail')}</h1>
      <p className="pf-text">{t('form.text.fail')}</p>
      {extra ? (
        <p className="pf-text" role="alert">
          {extra}
        </p>
      ) : null}
      <div className="pf-payment-id">
        <div className="pf-requisites-row">
          <div>
            <span className="pf-requisites-label">{t('form.label.invoice_id')}</span>
            <span className="pf-mono">{state.form.invoiceId}</span>
          </div>
          <CopyButton value={state.form.invoiceId} what={t('form.label.invoice_id')} />
        </div>
      </div>
      <ContinueLink url={redirect} />
      <SupportRequest formId={formId} supportCode={state.form.verificationKey} />
    </>
  );
}

/** A support ticket from the Fail screen, carrying the support code (verificationKey). */
function SupportRequest({ formId, supportCode }: { formId: string; supportCode: string }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [description, setDescription] = useState('');
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'error'>('idle');
  if (state === 'sent') {
    return (
      <p className="pf-success-note" role="status">
        {t('form.text.support_sent')}
      </p>
    );
  }
  if (!open) {
    return (
      <button type="button" className="pf-secondary" onClick={() => setOpen(true)}>
        {t('form.button.support')}
      </button>
    );
  }
  return (
    <form
      className="pf-support"
      onSubmit={async (e) => {
        e.preventDefault();
        setState('sending');
        try {
          await formApi.support(formId, {
            supportCode,
            ...(description.trim() ? { description: description.trim() } : {}),
          });
          setState('sent');
        } catch {
          setState('error');
        }
      }}
    >
      <p className="pf-text">{t('form.text.support_intro', { code: supportCode })}</p>
      <label htmlFor={id}>{t('form.label.support_description')}</label>
      <textarea
        id={id}
        rows={3}
        maxLength={2000}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
      />
      {state === 'error' ? (
        <p className="pf-error" role="alert">
          {t('form.text.support_error')}
        </p>
      ) : null}
      <button type="submit" className="pf-secondary" aria-busy={state === 'sending'} disabled={state === 'sending'}>
        {t('form.button.send')}
      </button>
    </form>
  );
}
