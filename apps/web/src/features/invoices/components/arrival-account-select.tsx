import { Select } from '@mantine/core';
import type { ArrivalAccountChoices } from '../api/arrival-accounts';

type Props = {
  choices: ArrivalAccountChoices;
  value: string | null;
  onChange: (value: string | null) => void;
  error?: string;
  disabled?: boolean;
};

/**
 * "Account the money arrived on": the required choice of a deposit that no account was routed to, when
 * an operator makes it DONE (status change, ticket approval).
 */
export function ArrivalAccountSelect({ choices, value, onChange, error, disabled }: Props) {
  return (
    <Select
      label="Account the money arrived on"
      description="No account was routed for this deposit: a deposit is DONE only against the account that received it"
      placeholder={choices.isPending ? 'Loading accounts…' : 'Choose an account'}
      nothingFoundMessage="No account of this currency"
      withAsterisk
      searchable
      data={choices.data}
      value={value}
      onChange={onChange}
      error={error ?? (choices.isError ? 'Could not load the accounts' : undefined)}
      disabled={disabled}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
