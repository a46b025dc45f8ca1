import { Select, type SelectProps } from '@mantine/core';

type Props = Omit<SelectProps, 'value' | 'onChange'> & {
  /** the chosen id; undefined until one is chosen (a form's schema then says what is missing) */
  value: number | undefined;
  onChange: (id: number | undefined) => void;
};

/**
 * A Select whose options are numeric ids (a role, a payment method, a currency…): Mantine's Select works on strings,
 * this one takes and gives numbers, so that a form holds the id its schema and the API expect.
 */
export function IdSelect({ value, onChange, ...rest }: Props) {
  return (
    <Select
      {...rest}
      value={value ? String(value) : null}
      onChange={(v) => onChange(v === null || v === '' ? undefined : Number(v))}
    />
  );
}
