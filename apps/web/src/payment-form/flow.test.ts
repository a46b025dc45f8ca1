import { describe, expect, it } from 'vitest';
import type { FormInit, FormMethod } from '@paydesk/contracts/payment-form';
import { canGoBack, flowReducer, initialState, stepAmount, type FlowState, type Ready } from './flow';

const humo: FormMethod = {
  id: 1,
  name: 'Humo',
  code: 'HUMOUZS',
  type: 'card',
  isBankTransfer: false,
  minAmount: 100_000,
  maxAmount: 5_000_000_000,
};
const uzs: FormMethod = { ...humo, id: 2, name: 'Uzs', code: 'CARDUZS' };

const form = (over: Partial<FormInit> = {}): FormInit => ({
  invoiceId: '5534fee2-6347-4870-809a-92282a76144f',
  successUrl: 'https://shop.example/ok',
  cancelUrl: 'https://shop.example/cancel',
  errorUrl: 'https://shop.example/error',
  methods: [humo, uzs],
  paymentMethodId: null,
  paymentMethodName: null,
  type: 'Deposit',
  canChangeAmount: true,
  amount: 1_000_000,
  currencyInfo: { code: 'UZS', dimension: 2, minValue: 100_000, maxValue: 5_000_000_000 },
  expiredIn: 1800,
  status: 'NEW',
  verificationKey: 'K-123',
  ...over,
});

const run = (state: FlowState, ...actions: Parameters<typeof flowReducer>[1][]) =>
  actions.reduce(flowReducer, state) as Ready;

describe('payment form flow', () => {
  it('starts with the method choice when several methods exist', () => {
    expect(initialState(form(), 0).step).toEqual({ name: 'method' });
  });

  it('goes to Init with a single method or a preselected one when the amount may change', () => {
    expect(initialState(form({ methods: [humo] }), 0)).toMatchObject({ step: { name: 'init' }, method: humo });
    expect(initialState(form({ paymentMethodId: 2 }), 0)).toMatchObject({ step: { name: 'init' }, method: uzs });
  });

  it('asks for credentials at once with a fixed amount', () => {
    expect(initialState(form({ paymentMethodId: 2, canChangeAmount: false }), 0)).toMatchObject({
      step: { name: 'credential' },
      amount: 1_000_000,
    });
    const s = run(initialState(form({ canChangeAmount: false }), 0), { type: 'choose_method', method: humo });
    expect(s.step).toEqual({ name: 'credential' });
  });

  it('back from Credential returns to Init when the amount may change, else to Method', () => {
    const changeable = run(initialState(form(), 0), { type: 'choose_method', method: humo }, { type: 'submit_amount' });
    expect(changeable.step.name).toBe('credential');
    expect(run(changeable, { type: 'back' }).step.name).toBe('init');
    const fixed = run(initialState(form({ canChangeAmount: false }), 0), { type: 'choose_method', method: humo });
    expect(run(fixed, { type: 'back' }).step.name).toBe('method');
  });

  it('shows the amount the server holds after credentials, whatever was typed; Back forgets it', () => {
    const typed = run(
      initialState(form(), 0),
      { type: 'choose_method', method: humo },
      { type: 'set_amount', amount: 3_600_000 },
      { type: 'submit_amount' },
      { type: 'held_amount', amount: 3_300_000 },
    );
    expect(typed).toMatchObject({ amount: 3_600_000, held: 3_300_000 });
    expect(run(typed, { type: 'back' })).toMatchObject({ held: null, step: { name: 'init' } });
    expect(run(typed, { type: 'completed', successUrl: null })).toMatchObject({
      held: 3_300_000,
      step: { name: 'processing' },
    });
  });

  it('hides the back button for RUB and for a fixed amount with one method', () => {
    expect(canGoBack(form())).toBe(true);
    expect(canGoBack(form({ currencyInfo: { code: 'RUB', dimension: 2, minValue: 1, maxValue: 10 } }))).toBe(false);
    expect(canGoBack(form({ canChangeAmount: false, methods: [humo] }))).toBe(false);
    expect(canGoBack(form({ canChangeAmount: false }))).toBe(true);
  });

  it('credential failure fails to the error URL; processing outcomes by status', () => {
    const cred = run(initialState(form({ paymentMethodId: 1, canChangeAmount: false }), 0));
    expect(run(cred, { type: 'credential_failed' }).step).toEqual({
      name: 'fail',
      reason: 'error',
      redirect: 'https://shop.example/error',
    });
    const processing = run(cred, { type: 'completed', successUrl: 'https://shop.example/thanks' });
    expect(processing).toMatchObject({ step: { name: 'processing' }, successUrl: 'https://shop.example/thanks' });
    expect(run(processing, { type: 'status', status: 'PAYED' }).step.name).toBe('processing');
    expect(run(processing, { type: 'status', status: 'DONE' }).step.name).toBe('success');
    expect(run(processing, { type: 'status', status: 'DECLINED' }).step).toEqual({
      name: 'fail',
      reason: 'declined',
      redirect: 'https://shop.example/cancel',
    });
    expect(run(processing, { type: 'processing_failed' }).step.name).toBe('fail');
  });

  it('a server refusal carries its error code to the Fail step, which shows it translated', () => {
    const cred = run(initialState(form({ paymentMethodId: 1, canChangeAmount: false }), 0));
    expect(run(cred, { type: 'credential_failed', errorCode: 'AMOUNT_OUT_OF_RANGE' }).step).toEqual({
      name: 'fail',
      reason: 'error',
      redirect: 'https://shop.example/error',
      errorCode: 'AMOUNT_OUT_OF_RANGE',
    });
    const processing = run(cred, { type: 'completed', successUrl: null });
    expect(run(processing, { type: 'processing_failed', errorCode: 'GONE' }).step).toMatchObject({ errorCode: 'GONE' });
  });

  it('expiry fails to the cancel URL before processing, never after', () => {
    const init = run(initialState(form({ methods: [humo] }), 0));
    expect(run(init, { type: 'expired' }).step).toEqual({
      name: 'fail',
      reason: 'expired',
      redirect: 'https://shop.example/cancel',
    });
    const processing = run(initialState(form({ status: 'PAYED' }), 0));
    expect(run(processing, { type: 'expired' }).step.name).toBe('processing');
    expect(initialState(form({ expiredIn: 0 }), 0).step).toMatchObject({ name: 'fail', reason: 'expired' });
  });

  it('anchors the deadline to the monotonic clock given at load', () => {
    expect(initialState(form({ expiredIn: 90 }), 5_000).deadline).toBe(95_000);
  });

  it('resumes a reloaded form by its status', () => {
    expect(initialState(form({ status: 'DONE' }), 0).step.name).toBe('success');
    expect(initialState(form({ status: 'CANCELED' }), 0).step.name).toBe('fail');
    expect(initialState(form({ status: 'IN_PROGRESS', paymentMethodId: 1 }), 0).step.name).toBe('credential');
    expect(initialState(form({ status: 'IN_PROGRESS', type: 'Withdrawal' }), 0).step.name).toBe('processing');
  });

  it('steps the amount by 100000 within the currency bounds', () => {
    const b = { minValue: 100_000, maxValue: 1_000_000 };
    expect(stepAmount(500_000, 100_000, b)).toBe(600_000);
    expect(stepAmount(1_000_000, 100_000, b)).toBe(1_000_000);
    expect(stepAmount(950_000, 100_000, b)).toBe(950_000);
    expect(stepAmount(150_000, -100_000, b)).toBe(150_000);
    expect(stepAmount(200_000, -100_000, b)).toBe(100_000);
  });
});
