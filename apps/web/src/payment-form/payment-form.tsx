import { useEffect, useReducer, useRef } from 'react';
import { ApiError, formApi, isAbort } from './api';
import { flowReducer, type Ready } from './flow';
import { MethodStep } from './steps/method-step';
import { InitStep } from './steps/init-step';
import { CredentialStep } from './steps/credential-step';
import { FailStep, ProcessingStep, SuccessStep } from './steps/result-steps';
import { Spinner } from './components/spinner';
import { announce } from './lib/announce';
import { t } from './i18n';

const MAX_TIMER_MS = 2_147_483_647;

export function PaymentForm({ formId }: { formId: string }) {
  const [state, dispatch] = useReducer(flowReducer, { phase: 'loading' });
  const main = useRef<HTMLElement>(null);
  const stepName = state.phase === 'ready' ? state.step.name : state.phase;

  useEffect(() => {
    const ac = new AbortController();
    formApi.init(formId, ac.signal).then(
      (form) => dispatch({ type: 'loaded', form, now: performance.now() }),
      (e) => {
        if (isAbort(e)) return;
        const gone = e instanceof ApiError && (e.status === 404 || e.status === 410 || e.status === 400);
        dispatch({ type: 'load_failed', kind: gone ? 'not_found' : 'network' });
      },
    );
    return () => ac.abort();
  }, [formId]);

  // form expiry by the server's clock runs the fail handler
  const deadline = state.phase === 'ready' ? state.deadline : null;
  useEffect(() => {
    if (deadline === null) return;
    const ms = deadline - performance.now();
    if (ms > MAX_TIMER_MS) return;
    const id = window.setTimeout(() => dispatch({ type: 'expired' }), Math.max(0, ms));
    return () => window.clearTimeout(id);
  }, [deadline]);

  // each new step: move focus to its heading and announce the outcome steps
  const firstStep = useRef(true);
  useEffect(() => {
    const heading = main.current?.querySelector('h1');
    if (heading) document.title = `${heading.textContent} · ${t('form.title')}`;
    if (firstStep.current) {
      firstStep.current = stepName === 'loading';
      return;
    }
    heading?.focus();
    if (stepName === 'processing') announce(t('form.text.processing'));
    else if (stepName === 'success') announce(`${t('form.header.success')}. ${t('form.text.success')}`);
    else if (stepName === 'fail') announce(`${t('form.header.fail')}. ${t('form.text.fail')}`);
  }, [stepName]);

  return (
    <main ref={main} className="pf-card" aria-busy={state.phase === 'loading'}>
      {state.phase === 'loading' ? (
        <>
          <h1 className="pf-sr-only">{t('form.title')}</h1>
          <Spinner label={t('form.text.loading')} />
        </>
      ) : state.phase === 'load_error' ? (
        <LoadError kind={state.kind} />
      ) : (
        <Step formId={formId} state={state} dispatch={dispatch} />
      )}
    </main>
  );
}

function Step({
  formId,
  state,
  dispatch,
}: {
  formId: string;
  state: Ready;
  dispatch: React.Dispatch<Parameters<typeof flowReducer>[1]>;
}) {
  const step = state.step;
  switch (step.name) {
    case 'method':
      return <MethodStep state={state} dispatch={dispatch} />;
    case 'init':
      return <InitStep state={state} dispatch={dispatch} />;
    case 'credential':
      return <CredentialStep formId={formId} state={state} dispatch={dispatch} />;
    case 'processing':
      return <ProcessingStep formId={formId} state={state} dispatch={dispatch} />;
    case 'success':
      return <SuccessStep state={state} />;
    case 'fail':
      return (
        <FailStep
          formId={formId}
          state={state}
          reason={step.reason}
          redirect={step.redirect}
          errorCode={step.errorCode}
        />
      );
  }
}

function LoadError({ kind }: { kind: 'not_found' | 'network' }) {
  return (
    <>
      <h1 tabIndex={-1}>{t('form.header.fail')}</h1>
      <p className="pf-text">{t('form.text.fail')}</p>
      <p className="pf-text">{t(kind === 'not_found' ? 'form.text.not_found' : 'form.text.load_error')}</p>
      {kind === 'network' ? (
        <button type="button" className="pf-primary" onClick={() => window.location.reload()}>
          {t('form.button.try_again')}
        </button>
      ) : null}
    </>
  );
}
