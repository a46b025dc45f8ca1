import {
  DEFAULT_STATEMENT_HEADER,
  STATEMENT_COUNTERPARTY,
  STATEMENT_FIELDS,
  statementMapping,
  type StatementDirection,
  type StatementMapping,
} from '@paydesk/contracts/statements';

/** The column-mapping dialog's fields: the five every file has, then the optional counterparty column. */
export const MAPPING_FIELDS = [...STATEMENT_FIELDS, STATEMENT_COUNTERPARTY] as const;
type MappingField = (typeof MAPPING_FIELDS)[number];

export const MAPPING_LABEL: Record<MappingField, string> = {
  occurredAt: 'Time (ISO 8601)',
  accountId: 'Account id',
  amount: 'Amount (minor units)',
  direction: 'Direction (IN / OUT)',
  reference: 'Reference',
  counterparty: 'Counterparty (card or phone)',
};

/** What the dialog edits: a column name per field, the counterparty's empty when the provider's files have none. */
export type MappingForm = Record<MappingField, string>;
export type MappingErrors = Partial<Record<MappingField, string>>;

export const mappingForm = (m: StatementMapping): MappingForm => ({ ...m, counterparty: m.counterparty ?? '' });

/** The mapping to save: each name trimmed; an empty counterparty left out (the files have no such column). */
export function mappingBody(form: MappingForm): StatementMapping {
  const columns = Object.fromEntries(STATEMENT_FIELDS.map((f) => [f, form[f].trim()])) as StatementMapping;
  const counterparty = form.counterparty.trim();
  return counterparty ? { ...columns, counterparty } : columns;
}

const isMappingField = (key: unknown): key is MappingField =>
  typeof key === 'string' && (MAPPING_FIELDS as readonly string[]).includes(key);

/** The schema's words about a column ("The same column as occurredAt") with the dialog's labels for the fields. */
const inDialogWords = (message: string) =>
  message.replace(/^(The same column as )(\w+)$/, (all, lead: string, key: string) =>
    isMappingField(key) ? `${lead}${MAPPING_LABEL[key]}` : all,
  );

/** What is wrong with the names as typed (the contract's own rules: given, not too long, no column twice), by field. */
export function mappingErrors(form: MappingForm): MappingErrors {
  const parsed = statementMapping.safeParse(mappingBody(form));
  const errors: MappingErrors = {};
  if (parsed.success) return errors;
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (isMappingField(field)) errors[field] ??= inDialogWords(issue.message);
  }
  return errors;
}

/** A refusal's field messages (`mapping.reference`: "The same column as occurredAt") on the dialog's fields. */
export function refusedMappingFields(fields: Record<string, string> | undefined): MappingErrors {
  const errors: MappingErrors = {};
  for (const [key, message] of Object.entries(fields ?? {})) {
    const field = key.replace(/^mapping\./, '');
    if (isMappingField(field)) errors[field] ??= inDialogWords(message);
  }
  return errors;
}

/** The upload form's note on the columns a file needs: the provider's own names, else the default header. */
export function columnsNote(mapping: StatementMapping | undefined, custom: boolean): string {
  if (!mapping || !custom)
    return `Header ${DEFAULT_STATEMENT_HEADER}; an optional ${STATEMENT_COUNTERPARTY} column names a card or phone.`;
  const columns = STATEMENT_FIELDS.map((f) => mapping[f]).join(', ');
  return mapping.counterparty
    ? `This provider's columns: ${columns}; an optional ${mapping.counterparty} column names a card or phone.`
    : `This provider's columns: ${columns}.`;
}

/** A line's counterparty as listed: who the money went to (OUT) or came from (IN), masked as the API gives it. */
export const counterpartyText = (direction: StatementDirection, masked: string) =>
  `${direction === 'OUT' ? 'to' : 'from'} ${masked}`;
