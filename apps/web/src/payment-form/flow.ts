import type { FormInit, FormMethod } from '@paydesk/contracts/payment-form';
import type { InvoiceStatus } from '@paydesk/contracts/statuses';
import { countdownDeadline } from '@paydesk/contracts/countdown';

/** The flow: Init or Method, then Credential, then Processing, then Success or Fail. */

export const AMOUNT_STEP = 100_000;
export const QUICK_AMOUNTS = [100_000, 1_000_000, 5_000_000, 10_000_000] as const;
export const STATUS_POLL_MS = 5_000;
export const CREDENTIAL_RETRY_MS = 1_000;

export type FailReason = 'error' | 'expired' | 'declined' | 'no_methods';

type Step =
  | { name: 'method' }
  | { name: 'init' }
  | { name: 'credential' }
  | { name: 'processing' }
  | { name: 'success' }
  | { name: 'fail'; reason: FailReason; redirect: string | null; errorCode?: string };

export type Ready = {
  phase: 'ready';
  form: FormInit;
  /** performance.now()-based deadline from the server's expiredIn */
  deadline: number;
  method: FormMethod | null;
  amount: number;
  /** the amount the server holds once credentials were given: what Processing and Success show */
  held: number | null;
  step: Step;
  successUrl: string | null;
};

export type FlowState = { phase: 'loading' } | { phase: 'load_error'; kind: 'not_found' | 'network' } | Ready;

export type FlowAction =
  | { type: 'loaded'; form: FormInit; now: number }
  | { type: 'load_failed'; kind: 'not_found' | 'network' }
  | { type: 'choose_method'; method: FormMethod }
  | { type: 'open_methods' }
  | { type: 'set_amount'; amount: number }
  | { type: 'submit_amount' }
  | { type: 'back' }
  | { type: 'credential_failed'; errorCode?: string }
  | { type: 'held_amount'; amount: number }
  | { type: 'completed'; successUrl: string | null }
  | { type: 'status'; status: InvoiceStatus }
  | { type: 'processing_failed'; errorCode?: string }
  | { type: 'expired' };

const fail = (s: Ready, reason: FailReason, redirect: string | null, errorCode?: string): Ready => ({
  ...s,
  step: { name: 'fail', reason, redirect, ...(errorCode ? { errorCode } : {}) },
});

/** After a method is chosen: Init when the amount may change, otherwise credentials at once. */
function withMethod(s: Ready, method: FormMethod): Ready {
  return {
    ...s,
    method,
    amount: s.form.amount,
    step: s.form.canChangeAmount ? { name: 'init' } : { name: 'credential' },
  };
}

export function initialState(form: FormInit, now: number): Ready {
  const base: Ready = {
    phase: 'ready',
    form,
    deadline: countdownDeadline(form.expiredIn, now),
    method: null,
    amount: form.amount,
    held: null,
    step: { name: 'method' },
    successUrl: form.successUrl,
  };
  const preselected = form.methods.find((m) => m.id === form.paymentMethodId) ?? null;
  const only = form.methods.length === 1 ? form.methods[0]! : null;
  switch (form.status) {
    case 'DONE':
      return { ...base, method: preselected, step: { name: 'success' } };
    case 'DECLINED':
    case 'CANCELED':
      return fail({ ...base, method: preselected }, 'declined', form.cancelUrl);
    case 'PAYED':
      return { ...base, method: preselected, step: { name: 'processing' } };
    case 'IN_PROGRESS':
      if (form.type === 'Withdrawal') return { ...base, method: preselected, step: { name: 'processing' } };
      // a reloaded deposit gets its assigned requisites again
      if (preselected ?? only) return { ...base, method: preselected ?? only, step: { name: 'credential' } };
      break;
    case 'NEW':
      break;
  }
  if (form.expiredIn <= 0) return fail(base, 'expired', form.cancelUrl);
  if (form.methods.length === 0) return fail(base, 'no_methods', form.errorUrl);
  if (preselected) return withMethod(base, preselected);
  if (only) return withMethod(base, only);
  return base;
}

/** Stepper: plus and minus are ignored past the currency's bounds. */
export function stepAmount(amount: number, delta: number, bounds: { minValue: number; maxValue: number }): number {
  const next = amount + delta;
  return next > bounds.maxValue || next < bounds.minValue ? amount : next;
}

export function withinCurrency(amount: number, bounds: { minValue: number; maxValue: number }): boolean {
  return amount >= bounds.minValue && amount <= bounds.maxValue;
}

/** The Credential back button is hidden for RUB, and when the amount is fixed and there is only one method. */
export function canGoBack(form: FormInit): boolean {
  if (form.currencyInfo.code === 'RUB') return false;
  return form.canChangeAmount || form.methods.length > 1;
}

export function flowReducer(state: FlowState, action: FlowAction): FlowState {
  if (action.type === 'loaded') return initialState(action.form, action.now);
  if (action.type === 'load_failed') return { phase: 'load_error', kind: action.kind };
  if (state.phase !== 'ready') return state;
  const s = state;
  const at = s.step.name;
  switch (action.type) {
    case 'choose_method':
      return at === 'method' || at === 'init' ? withMethod(s, action.method) : s;
    case 'open_methods':
      return at === 'init' && s.form.methods.length > 1 ? { ...s, step: { name: 'method' } } : s;
    case 'set_amount':
      return at === 'init' ? { ...s, amount: action.amount } : s;
    case 'submit_amount':
      return at === 'init' && s.method ? { ...s, step: { name: 'credential' } } : s;
    case 'back':
      if (at !== 'credential' || !canGoBack(s.form)) return s;
      return { ...s, held: null, step: s.form.canChangeAmount ? { name: 'init' } : { name: 'method' } };
    case 'held_amount':
      return at === 'credential' ? { ...s, held: action.amount } : s;
    case 'credential_failed':
      return at === 'credential' ? fail(s, 'error', s.form.errorUrl, action.errorCode) : s;
    case 'completed':
      return at === 'credential'
        ? { ...s, successUrl: action.successUrl ?? s.successUrl, step: { name: 'processing' } }
        : s;
    case 'status':
      if (at !== 'processing') return s;
      if (action.status === 'DONE') return { ...s, step: { name: 'success' } };
      if (action.status === 'DECLINED' || action.status === 'CANCELED') return fail(s, 'declined', s.form.cancelUrl);
      return s;
    case 'processing_failed':
      return at === 'processing' ? fail(s, 'error', s.form.cancelUrl, action.errorCode) : s;
    case 'expired':
      return at === 'method' || at === 'init' || at === 'credential' ? fail(s, 'expired', s.form.cancelUrl) : s;
  }
}
