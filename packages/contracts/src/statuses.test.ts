import { describe, expect, it } from 'vitest';
import {
  INVOICE_STATUS_CODES,
  PAYED_GRACE_MS,
  awaitsProvider,
  canChangeStatus,
  canDecideTicket,
  canRetry,
  canTransition,
  expiryDeadline,
  holdsRequisites,
  isCancellable,
  isFinal,
  statusColor,
  statusExistsInFlow,
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
  it('colours of SPEC §4', () => {
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
