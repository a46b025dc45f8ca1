import { describe, expect, it } from 'vitest';
import { canDecideTicket, canRetry, canTransition, canChangeStatus, statusColor } from './statuses';

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
