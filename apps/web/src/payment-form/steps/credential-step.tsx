import { useEffect, useRef, useState, type Dispatch } from 'react';
import type { BankOption } from '@paydesk/contracts/payment-form';
import { minorToMajorString } from '@paydesk/contracts/money';
import {
  checkRuPhone,
  phoneCredentialForComplete,
  PHONE_CREDENTIAL_MIN_LENGTH,
  ruPhoneNationalDigits,
} from '@paydesk/contracts/phone';
import { canGoBack, CREDENTIAL_RETRY_MS, type FlowAction, type Ready } from '../flow';
import { ApiError, formApi, isAbort, type CredentialResult } from '../api';
import { RequisitesCard } from '../components/requisites-card';
import { CopyButton } from '../components/copy-button';
import { Spinner } from '../components/spinner';
import { Countdown } from '../components/countdown';
import { CardField, PhoneField } from '../components/fields';
import { BankList } from '../components/bank-list';
import { BankInstructions } from '../components/instructions';
import { checkCardNumber } from '@paydesk/contracts/card';
import { money, t } from '../i18n';
import { errorText } from '../errors';

const codeOf = (e: unknown) => (e instanceof ApiError ? e.code : undefined);

type Props = { formId: string; state: Ready; dispatch: Dispatch<FlowAction> };

export function CredentialStep({ formId, state, dispatch }: Props) {
  const { form, method, amount } = state;
  const deposit = form.type === 'Deposit';
  const [result, setResult] = useState<CredentialResult | null>(null);
  // a withdrawal shows its inputs at once; completing waits for the credential request
  const pending = useRef<Promise<CredentialResult | null> | null>(null);

  useEffect(() => {
    if (!method) return;
    const ac = new AbortController();
    let timer: number | undefined;
    const body = { amount, paymentMethodId: method.id, supportCode: form.verificationKey };
    const attempt = async (): Promise<CredentialResult | null> => {
      try {
        const r = await formApi.credential(formId, body, ac.signal);
        if (ac.signal.aborted) return null;
        setResult(r);
        dispatch({ type: 'held_amount', amount: r.amount });
        if (deposit && !r.credentials) {
          // requisites not assigned yet: ask again in a second
          return await new Promise((resolve) => {
            timer = window.setTimeout(() => resolve(attempt()), CREDENTIAL_RETRY_MS);
          });
        }
        return r;
      } catch (e) {
        if (!isAbort(e) && !ac.signal.aborted) dispatch({ type: 'credential_failed', errorCode: codeOf(e) });
        return null;
      }
    };
    pending.current = attempt();
    return () => {
      ac.abort();
      window.clearTimeout(timer);
    };
  }, [formId, method, amount, deposit, form.verificationKey, dispatch]);

  if (!method) return null;
  const { dimension: dim, code } = form.currencyInfo;
  const shownAmount = result?.amount ?? amount;
  const amountText = money(shownAmount, dim, code);
  const creds = result?.credentials ?? null;

  const title = (
    <h1 tabIndex={-1}>{t(deposit ? 'form.header.deposit' : 'form.header.withdrawal', { amount: amountText })}</h1>
  );
  // nothing is laid out below the spinner, so the requisites arriving shift nothing (CLS)
  if (deposit && !creds) {
    return (
      <>
        {title}
        <Spinner label={t('form.text.loading_credentials')} />
      </>
    );
  }

  return (
    <>
      {title}
      {deposit ? (
        creds ? (
          <>
            <p className="pf-text">{t('form.text.deposit_instructions', { amount: amountText })}</p>
            <RequisitesCard
              methodCode={method.code}
              methodName={method.name}
              amountText={amountText}
              amountCopy={minorToMajorString(shownAmount, dim)}
              cardNumber={creds.value}
              type={creds.type}
              countryCode={creds.country_code}
              bankName={creds.bank_name}
              owner={creds.owner}
            />
            <BankInstructions methodCode={method.code} amountText={amountText} />
          </>
        ) : null
      ) : (
        <WithdrawalInputs formId={formId} state={state} amountText={amountText} pending={pending} dispatch={dispatch} />
      )}

      <div className="pf-payment-id">
        <div className="pf-requisites-row">
          <div>
            <span className="pf-requisites-label">{t('form.label.payment_id')}</span>
            <span className="pf-mono">{form.invoiceId}</span>
          </div>
          <CopyButton value={form.invoiceId} what={t('form.label.payment_id')} />
        </div>
        <p className="pf-note">{t('form.text.payment_id_note')}</p>
      </div>

      {deposit ? <HavePaid formId={formId} disabled={!creds} dispatch={dispatch} /> : null}
      {canGoBack(form) ? (
        <button type="button" className="pf-secondary" onClick={() => dispatch({ type: 'back' })}>
          {t('form.button.back')}
        </button>
      ) : null}
      <Countdown deadline={state.deadline} />
    </>
  );
}

function HavePaid({
  formId,
  disabled,
  dispatch,
}: {
  formId: string;
  disabled: boolean;
  dispatch: Dispatch<FlowAction>;
}) {
  const [busy, setBusy] = useState(false);
  async function onClick() {
    if (busy || disabled) return;
    setBusy(true);
    try {
      const r = await formApi.complete(formId, {});
      dispatch({ type: 'completed', successUrl: r.successUrl });
    } catch (e) {
      dispatch({ type: 'credential_failed', errorCode: codeOf(e) });
    }
  }
  return (
    <button type="button" className="pf-primary" disabled={disabled} aria-busy={busy} onClick={onClick}>
      {t('form.button.have_paid')}
    </button>
  );
}

type WithdrawalProps = Props & {
  amountText: string;
  pending: React.RefObject<Promise<CredentialResult | null> | null>;
};

function WithdrawalInputs({ formId, state, amountText, pending, dispatch }: WithdrawalProps) {
  const { form, method } = state;
  const isPhone = method!.type === 'phone';
  const sbp = isPhone && method!.isBankTransfer;
  const russian = form.currencyInfo.code === 'RUB';
  const [value, setValue] = useState('');
  const [bank, setBank] = useState<BankOption | null>(null);
  const [banks, setBanks] = useState<BankOption[] | null>(sbp ? null : []);
  const [errors, setErrors] = useState<{ value?: string | null; bank?: string | null }>({});
  const [busy, setBusy] = useState(false);
  const valueRef = useRef<HTMLInputElement>(null);
  const bankRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!sbp) return;
    const ac = new AbortController();
    formApi.banks(formId, ac.signal).then(setBanks, (e) => {
      if (!isAbort(e)) dispatch({ type: 'credential_failed', errorCode: codeOf(e) });
    });
    return () => ac.abort();
  }, [sbp, formId, dispatch]);

  function onValue(v: string) {
    setValue(v);
    // the Russian number is checked as soon as all ten digits are there
    const nineError = russian && isPhone && ruPhoneNationalDigits(v).length === 10 && checkRuPhone(v).ok === false;
    setErrors((e) => ({ ...e, value: nineError ? t('form.field.phoneNumberError') : null }));
  }

  function validate(): { credential: string } | null {
    let credential = '';
    let valueError: string | null = null;
    if (isPhone) {
      if (russian) {
        const c = checkRuPhone(value);
        if (c.ok) credential = c.value;
        else
          valueError =
            c.reason === 'mustStartWithNine' ? t('form.field.phoneNumberError') : t('form.field.phone_required');
      } else {
        credential = value.trim();
      }
      if (!valueError && credential.trim().length < PHONE_CREDENTIAL_MIN_LENGTH)
        valueError = t('form.field.phone_required');
    } else {
      const c = checkCardNumber(value);
      if (c.ok) credential = c.value;
      else valueError = t(c.reason === 'length' ? 'form.field.card_length' : 'form.field.card_invalid');
    }
    const bankError = sbp && !bank ? t('form.field.bank_required') : null;
    setErrors({ value: valueError, bank: bankError });
    if (valueError) valueRef.current?.focus();
    else if (bankError) bankRef.current?.focus();
    return valueError || bankError ? null : { credential };
  }

  async function submit() {
    if (busy) return;
    const ok = validate();
    if (!ok) return;
    setBusy(true);
    try {
      await pending.current;
      const r = await formApi.complete(formId, {
        credential: isPhone ? phoneCredentialForComplete(ok.credential) : ok.credential,
        ...(sbp && bank ? { bankCodeInteger: bank.codeInteger } : {}),
      });
      dispatch({ type: 'completed', successUrl: r.successUrl });
    } catch (e) {
      if (e instanceof ApiError && e.status === 400) {
        setBusy(false);
        // the server names the field it refused; its message is for operators, the code is translated
        if (e.fields?.bankCodeInteger && sbp) {
          setErrors((x) => ({ ...x, bank: t('form.field.bank_required') }));
          bankRef.current?.focus();
        } else {
          setErrors((x) => ({ ...x, value: errorText(e.code) }));
          valueRef.current?.focus();
        }
        return;
      }
      dispatch({ type: 'credential_failed', errorCode: codeOf(e) });
    }
  }

  const input = isPhone ? (
    <PhoneField ref={valueRef} value={value} onChange={onValue} error={errors.value} russian={russian} />
  ) : (
    <CardField ref={valueRef} value={value} onChange={onValue} error={errors.value} />
  );

  return (
    <form
      className="pf-withdrawal"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <p className="pf-text">
        {sbp
          ? t('form.text.withdrawal_sbp.intro')
          : t(isPhone ? 'form.text.withdrawal_phone' : 'form.text.withdrawal_card')}
      </p>
      {sbp ? (
        banks ? (
          <BankList
            ref={bankRef}
            banks={banks}
            selected={bank}
            onSelect={(b) => (setBank(b), setErrors((x) => ({ ...x, bank: null })))}
            error={errors.bank}
          />
        ) : (
          <Spinner label={t('form.text.loading')} />
        )
      ) : null}
      <RequisitesCard
        mode="editable"
        methodCode={method!.code}
        methodName={method!.name}
        amountText={amountText}
        amountCopy={minorToMajorString(state.amount, form.currencyInfo.dimension)}
        type={isPhone ? 'by_mobile' : 'card'}
        bankName={bank?.value}
      >
        {input}
      </RequisitesCard>
      <button type="submit" className="pf-primary" aria-busy={busy}>
        {t('form.button.withdrawal', { amount: amountText })}
      </button>
    </form>
  );
}
