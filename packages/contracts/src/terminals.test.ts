import { describe, expect, it } from 'vitest';
import {
  attributeFormValue,
  attributeLabel,
  attributeValueIssue,
  entityName,
  terminalForm,
  terminalFormToPutBody,
} from './terminals';

describe('attributeValueIssue', () => {
  it.each([
    ['I', '42', null],
    ['I', '-7', null],
    ['I', '4.2', 'value is not Integer'],
    ['I', 'x', 'value is not Integer'],
    ['S', 'any text, ₽ 1.5', null],
    ['S', 'tab\there', 'value is not String'],
    ['C', '₽', null],
    ['C', 'ab', 'value is not Char'],
    ['B', 'true', null],
    ['B', 'false', null],
    ['B', 'yes', 'value is not Boolean'],
    ['N', '2.5', null],
    ['N', '10.75', null],
    ['N', '25', 'value is not Numeric'],
    ['N', '1.2.3', 'value is not Numeric'],
    ['N', '-1.5', 'value is not Numeric'],
    ['N', '1,5', 'value is not Numeric'],
  ] as const)('%s %j → %s', (type, value, message) => {
    expect(attributeValueIssue(type, value)).toBe(message);
  });

  it('asks for a value first', () => {
    expect(attributeValueIssue('I', undefined)).toBe('Value is required');
    expect(attributeValueIssue('S', '')).toBe('Value must be at least 1 characters long');
    expect(attributeValueIssue('I', 5)).toBe('value is not Integer');
  });
});

describe('names', () => {
  it('are required and at least 3 characters after trimming', () => {
    expect(entityName.safeParse('  ab ').error?.issues[0]?.message).toBe('Name must be at least 3 characters long');
    expect(entityName.safeParse('').error?.issues[0]?.message).toBe('Name is required');
    expect(entityName.safeParse(undefined).error?.issues[0]?.message).toBe('Name is required');
    expect(entityName.parse(' abc ')).toBe('abc');
  });
});

describe('terminal edit form', () => {
  const row = (over: object) => ({ attrTypeId: 1, paramType: 'I' as const, label: 'Max', value: '', ...over });
  it('drops empty new rows on save, requires a value on stored rows, checks types', () => {
    const ok = terminalForm.parse({
      name: 'Main',
      attributes: [row({ value: '' }), row({ id: 5, attrTypeId: 2, value: '10' })],
    });
    expect(terminalFormToPutBody(ok)).toEqual({ name: 'Main', attributes: [{ value: '10', attrType: { id: 2 } }] });
    const stored = terminalForm.safeParse({ name: 'Main', attributes: [row({ id: 5, value: '' })] });
    expect(stored.error?.issues[0]).toMatchObject({ path: ['attributes', 0, 'value'], message: 'Value is required' });
    const typed = terminalForm.safeParse({ name: 'Main', attributes: [row({ value: 'x' })] });
    expect(typed.error?.issues[0]?.message).toBe('value is not Integer');
  });
});

describe('amount attributes: minor units stored, major units of the terminal currency shown and typed', () => {
  const row = (value: string, id?: number) => ({
    ...(id !== undefined ? { id } : {}),
    attrTypeId: 7,
    paramType: 'I' as const,
    label: attributeLabel('MAX_INVOICE_AMOUNT', 'Maximum invoice amount (minor units)'),
    amountDimension: 2,
    value,
  });

  it('the label drops the storage unit; other attributes keep theirs', () => {
    expect(attributeLabel('MAX_INVOICE_AMOUNT', 'Maximum invoice amount (minor units)')).toBe('Maximum invoice amount');
    expect(attributeLabel('CURRENCY_SYMBOL', 'Currency symbol')).toBe('Currency symbol');
  });

  it('a stored 2000000000 shows as 20000000.00; typed major units go back in minor units, exactly', () => {
    expect(attributeFormValue('2000000000', 2)).toBe('20000000.00');
    expect(attributeFormValue('SANDBOX', undefined)).toBe('SANDBOX');
    const form = terminalForm.parse({ name: 'Main', attributes: [row('20000000.00', 1), row('1500.5')] });
    expect(terminalFormToPutBody(form).attributes).toEqual([
      { value: '2000000000', attrType: { id: 7 } },
      { value: '150050', attrType: { id: 7 } },
    ]);
  });

  it('a typed amount is checked in major units: required when stored, a number, the currency decimals', () => {
    const issues = (value: string, id?: number) =>
      terminalForm.safeParse({ name: 'Main', attributes: [row(value, id)] }).error?.issues.map((i) => i.message);
    expect(issues('', 1)).toEqual(['Value is required']);
    expect(issues('')).toBeUndefined();
    expect(issues('12.555')).toEqual(['Maximum invoice amount must have at most 2 decimals']);
    expect(issues('abc')).toEqual(['Maximum invoice amount must be a number, e.g. 1500.50']);
    expect(issues('12.5')).toBeUndefined();
  });
});
