import type { Dispatch } from 'react';
import type { Ready, FlowAction } from '../flow';
import { MethodLogo } from '../components/method-logo';
import { Countdown } from '../components/countdown';
import { money, t } from '../i18n';

export function MethodStep({ state, dispatch }: { state: Ready; dispatch: Dispatch<FlowAction> }) {
  const { form } = state;
  const dim = form.currencyInfo.dimension;
  return (
    <>
      <h1 tabIndex={-1}>{t('form.header.method')}</h1>
      <ul className="pf-methods">
        {form.methods.map((m) => (
          <li key={m.id}>
            <button type="button" className="pf-method" onClick={() => dispatch({ type: 'choose_method', method: m })}>
              <MethodLogo code={m.code} name={m.name} />
              <span className="pf-method-name">{m.name}</span>
              <span className="pf-method-limits">
                {t('form.text.limits', {
                  min: money(m.minAmount, dim),
                  max: money(m.maxAmount, dim, form.currencyInfo.code),
                })}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <Countdown deadline={state.deadline} />
    </>
  );
}
