import { Select, TextInput } from '@mantine/core';
import type { ChangeEvent, FocusEvent, Ref } from 'react';
import { BOOLEAN_ATTRIBUTE_OPTIONS, PARAM_TYPE_NAMES, type ParamType } from '@paydesk/contracts';

type Props = {
  label: string;
  paramType: ParamType;
  value: string;
  error?: string;
  readOnly?: boolean;
  onChange: (value: string) => void;
  onBlur: (e: FocusEvent) => void;
  inputRef?: Ref<HTMLInputElement>;
};

/** A terminal attribute's input, shaped by its type: Boolean is a true/false choice, the rest are text with their own keyboard. */
export function AttributeValueInput({ label, paramType, value, error, readOnly, onChange, onBlur, inputRef }: Props) {
  const description = PARAM_TYPE_NAMES[paramType];
  if (paramType === 'B') {
    return (
      <Select
        label={label}
        description={description}
        data={[...BOOLEAN_ATTRIBUTE_OPTIONS]}
        value={value || 'true'}
        onChange={(v) => onChange(v ?? 'true')}
        onBlur={onBlur}
        error={error}
        readOnly={readOnly}
        allowDeselect={false}
        ref={inputRef}
      />
    );
  }
  return (
    <TextInput
      label={label}
      description={description}
      value={value}
      onChange={(e: ChangeEvent<HTMLInputElement>) => onChange(e.currentTarget.value)}
      onBlur={onBlur}
      error={error}
      readOnly={readOnly}
      inputMode={paramType === 'I' ? 'numeric' : paramType === 'N' ? 'decimal' : undefined}
      autoComplete="off"
      ref={inputRef}
    />
  );
}
