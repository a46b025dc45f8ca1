import { describe, expect, it } from 'vitest';
import { DEFAULT_STATEMENT_MAPPING } from '@paydesk/contracts/statements';
import {
  columnsNote,
  counterpartyText,
  mappingBody,
  mappingErrors,
  mappingForm,
  refusedMappingFields,
  type MappingForm,
} from './statements';

const custom = { occurredAt: 'Date', accountId: 'Acct', amount: 'Sum', direction: 'Dir', reference: 'Ref' };

describe('the statement column mapping dialog', () => {
  it('shows the counterparty column as a field, empty when the mapping has none', () => {
    expect(mappingForm(DEFAULT_STATEMENT_MAPPING).counterparty).toBe('counterparty');
    expect(mappingForm(custom)).toEqual({ ...custom, counterparty: '' });
  });

  it('sends the names trimmed, and no counterparty when its field is empty', () => {
    const form: MappingForm = { ...custom, reference: ' Ref ', counterparty: '  ' };
    expect(mappingBody(form)).toEqual(custom);
    expect('counterparty' in mappingBody(form)).toBe(false);
    expect(mappingBody({ ...form, counterparty: ' Card ' })).toEqual({ ...custom, counterparty: 'Card' });
  });

  it('accepts the default mapping and one without a counterparty', () => {
    expect(mappingErrors(mappingForm(DEFAULT_STATEMENT_MAPPING))).toEqual({});
    expect(mappingErrors(mappingForm(custom))).toEqual({});
  });

  it('names a column given twice on the later field, in the dialog’s words', () => {
    // the reference renamed to the default counterparty column: the clash is on the visible counterparty field
    const form = { ...mappingForm(DEFAULT_STATEMENT_MAPPING), reference: 'Counterparty' };
    expect(mappingErrors(form)).toEqual({ counterparty: 'The same column as Reference' });
    expect(mappingErrors({ ...form, counterparty: '' })).toEqual({});
    expect(mappingErrors({ ...mappingForm(custom), amount: 'date' })).toEqual({
      amount: 'The same column as Time (ISO 8601)',
    });
  });

  it('asks for the required names only', () => {
    expect(mappingErrors({ ...mappingForm(custom), direction: ' ' })).toEqual({ direction: 'Give the column name' });
    expect(mappingErrors({ ...mappingForm(custom), counterparty: 'x'.repeat(65) })).toEqual({
      counterparty: 'At most 64 characters',
    });
  });

  it('puts the server’s refusal on the dialog’s fields, in its words', () => {
    expect(
      refusedMappingFields({
        'mapping.counterparty': 'The same column as reference',
        'mapping.amount': 'The same column as occurredAt',
        reason: 'Reason must be at least 3 characters long',
      }),
    ).toEqual({ counterparty: 'The same column as Reference', amount: 'The same column as Time (ISO 8601)' });
    expect(refusedMappingFields(undefined)).toEqual({});
  });
});

describe('statement lines and files', () => {
  it('says which way the money went with the masked counterparty', () => {
    expect(counterpartyText('OUT', '411111******1111')).toBe('to 411111******1111');
    expect(counterpartyText('IN', '+99890*****67')).toBe('from +99890*****67');
  });

  it('notes the columns a file needs, the counterparty as optional', () => {
    expect(columnsNote(DEFAULT_STATEMENT_MAPPING, false)).toBe(
      'Header occurredAt,accountId,amount,direction,reference; an optional counterparty column names a card or phone.',
    );
    expect(columnsNote(custom, true)).toBe("This provider's columns: Date, Acct, Sum, Dir, Ref.");
    expect(columnsNote({ ...custom, counterparty: 'Card' }, true)).toBe(
      "This provider's columns: Date, Acct, Sum, Dir, Ref; an optional Card column names a card or phone.",
    );
  });
});
