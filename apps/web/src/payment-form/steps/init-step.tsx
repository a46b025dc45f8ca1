import { useState, type Dispatch } from 'react';
import { AMOUNT_STEP, QUICK_AMOUNTS, stepAmount, withinCurrency, type FlowAction, type Ready } from '../flow';
import { MethodLogo } from '../components/method-logo';
import { Countdown } from '../components/countdown';
import { money, t } from '../i18n';

/** Amount: method banner, limits, stepper, quick amounts, the deposit or withdrawal button. */
export function InitStep({ state, dispatch }: { state: Ready; dispatch: Dispatch<FlowAction> }) {
  const { form, method, amount } = state;
  const { dimension: dim, code } = form.currencyInfo;
  const [rangeError, setRangeError] = useState(false);
  if (!method) return null;
  const several = form.methods.length > 1;
  const withdrawal = form.type === 'Withdrawal';
  const canMinus = stepAmount(amount, -AMOUNT_STEP, form.currencyInfo) !== amount;
  const canPlus = stepAmount(amount, AMOUNT_STEP, form.currencyInfo) !== amount;
  const inMethodRange = amount >= method.minAmount && amount <= method.maxAmount;
  const setAmount = (a: number) => {
    setRangeError(false);
    dispatch({ type: 'set_amount', amount: a });
  };
  const banner = (
    <>
      <MethodLogo code={method.code} name={method.name} />
      <span className="pf-banner-name">
        <span className="pf-sr-only">{t('form.label.method')}: </span>
        {method.name}
      </span>
      {several ? <span className="pf-banner-change">{t('form.button.change_method')}</span> : null}
    </>
  );

  return (
    <>
      <h1 tabIndex={-1}>{t('form.header.payment')}</h1>
      {several ? (
        <button type="button" className="pf-banner" onClick={() => dispatch({ type: 'open_methods' })}>
          {banner}
        </button>
      ) : (
        <div className="pf-banner">{banner}</div>
      )}
      <p className="pf-limits">
        {t('form.text.limits', { min: money(method.minAmount, dim), max: money(method.maxAmount, dim, code) })}
      </p>

      <div className="pf-stepper">
        <button
          type="button"
          className="pf-step-btn"
          aria-label={t('form.button.decrease', { step: money(AMOUNT_STEP, dim) })}
          aria-disabled={!canMinus}
          onClick={() => setAmount(stepAmount(amount, -AMOUNT_STEP, form.currencyInfo))}
        >
          −
        </button>
        <div className="pf-stepper-value">
          <span id="pf-amount-label" className="pf-stepper-label">
            {t('form.label.amount')}
          </span>
          <output aria-labelledby="pf-amount-label" aria-live="polite" className="pf-amount">
            {money(amount, dim, code)}
          </output>
        </div>
        <button
          type="button"
          className="pf-step-btn"
          aria-label={t('form.button.increase', { step: money(AMOUNT_STEP, dim) })}
          aria-disabled={!canPlus}
          onClick={() => setAmount(stepAmount(amount, AMOUNT_STEP, form.currencyInfo))}
        >
          +
        </button>
      </div>

      <div className="pf-quick" role="group" aria-label={t('form.label.quick_amounts')}>
        {QUICK_AMOUNTS.filter((q) => withinCurrency(q, form.currencyInfo)).map((q) => (
          <button key={q} type="button" className="pf-chip" aria-pressed={q === amount} onClick={() => setAmount(q)}>
            {money(q, dim)}
          </button>
        ))}
      </div>

      {rangeError ? (
        <p className="pf-error" role="alert">
          {t('form.field.amount_range', { min: money(method.minAmount, dim), max: money(method.maxAmount, dim, code) })}
        </p>
      ) : null}
      <button
        type="button"
        className="pf-primary"
        onClick={() => (inMethodRange ? dispatch({ type: 'submit_amount' }) : setRangeError(true))}
      >
        {t(withdrawal ? 'form.button.withdrawal' : 'form.button.deposit', { amount: money(amount, dim, code) })}
      </button>
      <Countdown deadline={state.deadline} />
    </>
  );
}
