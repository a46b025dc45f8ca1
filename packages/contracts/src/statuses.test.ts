import { describe, expect, it } from 'vitest';
import {
  INVOICE_STATUS_CODES,
  PAYED_GRACE_MS,
  amountChangeRefusal,
  awaitsProvider,
  canChangeStatus,
  canDecideTicket,
  canRetry,
  canTransition,
  expiryDeadline,
  holdsRequisites,
  isCancellable,
  isFinal,
  pendingProviderForbids,
  retryRefusal,
  statusChangeRefusal,
  statusColor,
  statusExistsInFlow,
  type InvoiceProcessing,
} from './statuses';

describe('status machine', () => {
  it('deposit path NEW → IN_PROGRESS → PAYED → DONE, nothing out of a final status', () => {
    expect(canTransition('DEPOSIT', 'NEW', 'IN_PROGRESS')).toBe(true);
    expect(canTransition('DEPOSIT', 'IN_PROGRESS', 'PAYED')).toBe(true);
    expect(canTransition('DEPOSIT', 'PAYED', 'DONE')).toBe(true);
    expect(canTransition('DEPOSIT', 'DONE', 'DECLINED')).toBe(false);
    expect(canTransition('DEPOSIT', 'CANCELED', 'DONE')).toBe(false);
    expect(canTransition('DEPOSIT', 'NEW', 'DONE')).toBe(false);
  });
  it('withdrawal: a declined payout may go back in progress (retry), done is final', () => {
    expect(canTransition('WITHDRAWAL', 'NEW', 'IN_PROGRESS')).toBe(true);
    expect(canTransition('WITHDRAWAL', 'IN_PROGRESS', 'DONE')).toBe(true);
    expect(canTransition('WITHDRAWAL', 'DECLINED', 'IN_PROGRESS')).toBe(true);
    expect(canTransition('WITHDRAWAL', 'DONE', 'IN_PROGRESS')).toBe(false);
    expect(canTransition('WITHDRAWAL', 'IN_PROGRESS', 'PAYED')).toBe(false);
  });
  it('named predicates: cancellable, holding requisites, awaiting the provider', () => {
    const dep = (status: string) => ({ flowType: 'DEPOSIT', status });
    const wd = (status: string) => ({ flowType: 'WITHDRAWAL', status });
    expect(['NEW', 'IN_PROGRESS', 'PAYED'].map((s) => isCancellable(dep(s)))).toEqual([true, true, true]);
    expect(['NEW', 'IN_PROGRESS', 'DECLINED'].map((s) => isCancellable(wd(s)))).toEqual([true, false, false]);
    expect(INVOICE_STATUS_CODES.filter((s) => holdsRequisites(dep(s)))).toEqual(['IN_PROGRESS', 'PAYED']);
    expect(INVOICE_STATUS_CODES.filter((s) => holdsRequisites(wd(s)))).toEqual([]);
    expect(INVOICE_STATUS_CODES.filter((s) => awaitsProvider(wd(s)))).toEqual(['IN_PROGRESS']);
    // nothing leaves a final status by the engine's own transitions, and nothing is cancellable there
    for (const flow of ['DEPOSIT', 'WITHDRAWAL'] as const)
      for (const from of INVOICE_STATUS_CODES.filter((s) => isFinal(s) && s !== 'DECLINED'))
        for (const to of INVOICE_STATUS_CODES) expect(canTransition(flow, from, to)).toBe(false);
    // every transition stays inside its flow
    for (const flow of ['DEPOSIT', 'WITHDRAWAL'] as const)
      for (const from of INVOICE_STATUS_CODES)
        for (const to of INVOICE_STATUS_CODES)
          if (canTransition(flow, from, to))
            expect(statusExistsInFlow(flow, from) && statusExistsInFlow(flow, to)).toBe(true);
  });
  it('expiry: open deposits and NEW withdrawals at expiresAt, a PAYED deposit a day later, nothing else', () => {
    const expiresAt = '2026-11-23T10:00:00.000Z';
    const at = Date.parse(expiresAt);
    const deadline = (flowType: string, status: string) => expiryDeadline({ flowType, status, expiresAt });
    expect(deadline('DEPOSIT', 'NEW')).toBe(at);
    expect(deadline('DEPOSIT', 'IN_PROGRESS')).toBe(at);
    expect(deadline('DEPOSIT', 'PAYED')).toBe(at + PAYED_GRACE_MS);
    expect(deadline('WITHDRAWAL', 'NEW')).toBe(at);
    for (const s of ['DONE', 'DECLINED', 'CANCELED']) expect(deadline('DEPOSIT', s)).toBeNull();
    expect(deadline('WITHDRAWAL', 'IN_PROGRESS')).toBeNull();
  });
  it('status colours', () => {
    expect(statusColor('DECLINED')).toBe('error');
    expect(statusColor('CANCELED')).toBe('error');
    expect(statusColor('DONE')).toBe('success');
    expect(statusColor('PAYED')).toBe('success');
    expect(statusColor('NEW')).toBe('neutral');
    expect(statusColor('IN_PROGRESS')).toBe('primary');
    expect(statusColor('SOMETHING')).toBe('warning');
  });
});

describe('action rules', () => {
  it('retry only for withdrawals neither CANCELED nor DONE', () => {
    expect(canRetry({ flowType: 'WITHDRAWAL', status: 'DECLINED' })).toBe(true);
    expect(canRetry({ flowType: 'WITHDRAWAL', status: 'IN_PROGRESS' })).toBe(true);
    expect(canRetry({ flowType: 'WITHDRAWAL', status: 'DONE' })).toBe(false);
    expect(canRetry({ flowType: 'WITHDRAWAL', status: 'CANCELED' })).toBe(false);
    expect(canRetry({ flowType: 'DEPOSIT', status: 'DECLINED' })).toBe(false);
  });
  it('retry refused, with the reason, in the states where the engine sends no payout', () => {
    const sent: InvoiceProcessing = {
      pendingAttempt: null,
      payoutDetailsGiven: true,
      paidOut: false,
      accountAssigned: true,
    };
    const w = (status: string, p: Partial<InvoiceProcessing> | null) => ({
      flowType: 'WITHDRAWAL',
      status,
      processing: p && { ...sent, ...p },
    });
    expect(retryRefusal(w('DECLINED', {}))).toBeNull();
    // the Retry button answered this only after a click
    expect(retryRefusal(w('IN_PROGRESS', { pendingAttempt: 1 }))).toBe(
      'Payout attempt 1 is still with the provider; retry only after it is declined',
    );
    expect(retryRefusal(w('NEW', { payoutDetailsGiven: false, accountAssigned: false }))).toBe(
      'The customer has not given payout details yet; there is nothing to retry',
    );
    expect(retryRefusal(w('DECLINED', { paidOut: true }))).toBe(
      'This withdrawal was already paid out by the provider; no second payout is sent',
    );
    expect(retryRefusal(w('DONE', {}))).toBe('A withdrawal in status DONE cannot be retried');
    expect(retryRefusal({ flowType: 'DEPOSIT', status: 'DECLINED' })).toBe(
      'A deposit in status DECLINED cannot be retried',
    );
    // without what the provider holds, only the state decides (the server reads the rest when asked)
    expect(retryRefusal(w('IN_PROGRESS', null))).toBeNull();
  });
  it('status changes a pending provider transaction forbids, and the other refusals the invoice itself shows', () => {
    const held: InvoiceProcessing = {
      pendingAttempt: 2,
      payoutDetailsGiven: true,
      paidOut: false,
      accountAssigned: true,
    };
    const payout = { flowType: 'WITHDRAWAL', status: 'IN_PROGRESS', processing: held };
    const confirmingDeposit = { flowType: 'DEPOSIT', status: 'PAYED', processing: held };
    expect(['NEW', 'DONE', 'DECLINED', 'CANCELED'].filter((to) => statusChangeRefusal(payout, to) === null)).toEqual([
      'DONE',
    ]);
    expect(statusChangeRefusal(payout, 'DECLINED')).toBe(
      'Payout attempt 2 is still with the provider: until it answers, the withdrawal can only be set DONE (if it was paid)',
    );
    expect(statusChangeRefusal(confirmingDeposit, 'NEW')).toBe(
      'The provider is still confirming this deposit: it goes back to NEW only after the provider answered',
    );
    expect(statusChangeRefusal(payout, 'PAYED')).toBe('PAYED is not a status of a withdrawal');
    expect(statusChangeRefusal(payout, 'IN_PROGRESS')).toBe('The invoice is already IN_PROGRESS');
    // nothing pending: any status of the flow
    const answered = { ...payout, status: 'DECLINED', processing: { ...held, pendingAttempt: null } };
    expect(['NEW', 'IN_PROGRESS', 'DONE', 'CANCELED'].map((to) => statusChangeRefusal(answered, to))).toEqual([
      null,
      null,
      null,
      null,
    ]);
    // a deposit being confirmed: back to NEW only is refused; any final status is a correction
    const confirming = { flowType: 'DEPOSIT', status: 'PAYED', processing: { ...held, pendingAttempt: 1 } };
    expect(
      ['NEW', 'IN_PROGRESS', 'DONE', 'DECLINED', 'CANCELED'].filter((to) => statusChangeRefusal(confirming, to)),
    ).toEqual(['NEW']);
    expect(pendingProviderForbids({ flowType: 'DEPOSIT', status: 'PAYED' }, 'NEW')).toBe(true);
    expect(pendingProviderForbids({ flowType: 'WITHDRAWAL', status: 'IN_PROGRESS' }, 'CANCELED')).toBe(true);
    expect(pendingProviderForbids({ flowType: 'WITHDRAWAL', status: 'IN_PROGRESS' }, 'DONE')).toBe(false);
    // no account was ever named: a deposit waits for money, a withdrawal is paid only from one
    const unrouted = { pendingAttempt: null, payoutDetailsGiven: false, paidOut: false, accountAssigned: false };
    const newDeposit = { flowType: 'DEPOSIT', status: 'NEW', processing: unrouted };
    expect(statusChangeRefusal(newDeposit, 'IN_PROGRESS')).toBe(
      'A deposit is IN_PROGRESS only once requisites of a provider account were given',
    );
    expect(statusChangeRefusal(newDeposit, 'DONE')).toBeNull(); // the operator names the account instead
    expect(statusChangeRefusal({ flowType: 'WITHDRAWAL', status: 'NEW', processing: unrouted }, 'DONE')).toBe(
      'A withdrawal becomes DONE only once its payout was sent from a provider account; this one never was',
    );
  });
  it('an amount change to the amount the invoice has is refused in the words of the page', () => {
    const money = (minor: number) => `${(minor / 100).toFixed(2)} RUB`;
    expect(amountChangeRefusal({ amount: 360_000 }, 360_000, money)).toBe('The amount is already 3600.00 RUB');
    expect(amountChangeRefusal({ amount: 360_000 }, 360_001, money)).toBeNull();
  });
  it('status editable for test invoices or with invoice.status.change', () => {
    expect(canChangeStatus({ flowType: 'DEPOSIT', status: 'NEW', isTest: true }, [])).toBe(true);
    expect(canChangeStatus({ flowType: 'DEPOSIT', status: 'NEW', isTest: false }, [])).toBe(false);
    expect(canChangeStatus({ flowType: 'DEPOSIT', status: 'NEW' }, ['invoice.status.change'])).toBe(true);
  });
  it('tickets decided only when open and with ticket.decision', () => {
    expect(canDecideTicket({ status: 'NEW' }, ['ticket.decision'])).toBe(true);
    expect(canDecideTicket({ status: 'SOLVED' }, ['ticket.decision'])).toBe(false);
    expect(canDecideTicket({ status: 'REJECTED' }, ['ticket.decision'])).toBe(false);
    expect(canDecideTicket({ status: 'PENDING' }, [])).toBe(false);
  });
});
