import { describe, expect, it } from 'vitest';
import { payerFits } from './payer-name';

describe('payerFits', () => {
  it.each([
    ['Ivan Petrov', 'Ivan', 'Petrov', 'same'],
    ['PETROV IVAN', 'Ivan', 'Petrov', 'same'],
    ['Пётр Сидоров', 'Петр', 'Сидоров', 'same'],
    ['IVAN P.', 'Ivan', 'Petrov', 'fits'],
    ['I. PETROV', 'Ivan', 'Petrov', 'fits'],
    ['Ivan Petrov', 'Ivan', '', 'same'],
    ['I. P.', 'Ivan', 'Petrov', null],
    ['Ivan Sidorov', 'Ivan', 'Petrov', null],
    ['Anna', 'Ivan', 'Petrov', null],
    [null, 'Ivan', 'Petrov', null],
    ['Ivan Petrov', '', '', null],
  ] as const)('%s vs %s %s → %s', (payer, first, last, fit) => {
    expect(payerFits(payer, first, last)).toBe(fit);
  });
});
