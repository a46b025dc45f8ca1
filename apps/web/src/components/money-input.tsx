import type { Ref } from 'react';
import { TextInput, type TextInputProps } from '@mantine/core';
import { formatMoney, majorStringToMinorDigits, sanitizeAmountInput } from '@paydesk/contracts/money';

type Props = Omit<TextInputProps, 'value' | 'onChange' | 'label' | 'inputMode'> & {
  /** what the amount is, without the currency: "Limit" becomes "Limit (UZS)" */
  label: string;
  currency: { code: string; dimension: number };
  /** the amount as typed, in major units ("1500.50"); the form converts it to minor units when it sends */
  value: string;
  onChange: (value: string) => void;
  ref?: Ref<HTMLInputElement>;
};

/**
 * An amount typed and shown in major units of its currency, never in minor units: the label names the currency,
 * the input keeps digits and one dot, and below it the amount reads back as the rest of the back-office shows
 * money ("= 20,000,000.00 UZS"). The value stays text: contracts/money.ts turns it into exact minor units.
 */
export function MoneyInput({ label, currency, value, onChange, description, ...rest }: Props) {
  const minor = value === '' ? null : majorStringToMinorDigits(value, currency.dimension);
  return (
    <TextInput
      {...rest}
      label={`${label} (${currency.code})`}
      inputMode="decimal"
      autoComplete="off"
      value={value}
      onChange={(e) => onChange(sanitizeAmountInput(e.currentTarget.value))}
      description={
        minor !== null ? `= ${formatMoney(BigInt(minor), currency.dimension, 'en', currency.code)}` : description
      }
    />
  );
}
