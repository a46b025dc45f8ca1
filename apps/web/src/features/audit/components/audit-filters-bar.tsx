import '@mantine/dates/styles.css';
import { useEffect, useState } from 'react';
import { Button, Select, SimpleGrid, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconFilterOff, IconSearch } from '@tabler/icons-react';
import { AUDIT_ACTIONS } from '@paydesk/contracts/audit';
import { ddMmYyyyToIsoDay, isoDayToDdMmYyyy } from '@paydesk/contracts/dates';
import type { Merchant } from '@paydesk/contracts/merchants';
import { AUDIT_ACTION_LABELS } from '../model/action-labels';
import { EMPTY_AUDIT_FILTERS, type AuditFilters } from '../model/audit-filters';

const ACTOR_DEBOUNCE_MS = 400;
const ALL = '__all__';
const ACTION_OPTIONS = [
  { value: ALL, label: 'All actions' },
  ...AUDIT_ACTIONS.map((a) => ({ value: a, label: AUDIT_ACTION_LABELS[a] })),
];

type Props = {
  value: AuditFilters;
  onChange: (next: Partial<AuditFilters>) => void;
  /** platform staff filter by merchant; null hides the filter (merchant staff see their own records only) */
  merchants: Merchant[] | null;
};

/** Audit filters: actor, action, merchant (platform staff), a range of UTC days sent as dd/MM/yyyy. */
export function AuditFiltersBar({ value, onChange, merchants }: Props) {
  const [actor, setActor] = useState(value.actor);
  // the URL may change under us (back/forward, reset): follow it
  useEffect(() => setActor(value.actor), [value.actor]);
  const applyActor = useDebouncedCallback((text: string) => onChange({ actor: text.trim() }), ACTOR_DEBOUNCE_MS);
  const dateFrom = value.dateFrom && ddMmYyyyToIsoDay(value.dateFrom);
  const dateTo = value.dateTo && ddMmYyyyToIsoDay(value.dateTo);
  const anySet = Object.entries(value).some(([k, v]) => v !== EMPTY_AUDIT_FILTERS[k as keyof AuditFilters]);

  return (
    <SimpleGrid cols={{ base: 1, xs: 2, lg: merchants ? 6 : 5 }} spacing="sm" verticalSpacing="sm">
      <TextInput
        label="Actor"
        placeholder="Username"
        leftSection={<IconSearch size={16} aria-hidden />}
        value={actor}
        maxLength={64}
        onChange={(e) => {
          setActor(e.currentTarget.value);
          applyActor(e.currentTarget.value);
        }}
      />
      <Select
        label="Action"
        data={ACTION_OPTIONS}
        value={value.action ?? ALL}
        onChange={(v) => onChange({ action: !v || v === ALL ? null : (v as AuditFilters['action']) })}
        allowDeselect={false}
        searchable
        nothingFoundMessage="Nothing found."
        comboboxProps={{ width: 300, position: 'bottom-start' }}
      />
      {merchants && (
        <Select
          label="Merchant"
          data={[
            { value: ALL, label: 'All merchants' },
            { value: 'platform', label: 'Platform (no merchant)' },
            ...merchants.map((m) => ({ value: m.id, label: m.name })),
          ]}
          value={value.merchant ?? ALL}
          onChange={(v) => onChange({ merchant: !v || v === ALL ? null : v })}
          allowDeselect={false}
          searchable={merchants.length > 8}
          comboboxProps={{ width: 260, position: 'bottom-start' }}
        />
      )}
      <DatePickerInput
        label="Date From"
        placeholder="dd/mm/yyyy"
        valueFormat="DD/MM/YYYY"
        clearable
        value={dateFrom}
        maxDate={dateTo ?? undefined}
        onChange={(v) => onChange({ dateFrom: v ? isoDayToDdMmYyyy(v) : null })}
      />
      <DatePickerInput
        label="Date To"
        placeholder="dd/mm/yyyy"
        valueFormat="DD/MM/YYYY"
        clearable
        value={dateTo}
        minDate={dateFrom ?? undefined}
        onChange={(v) => onChange({ dateTo: v ? isoDayToDdMmYyyy(v) : null })}
      />
      <Button
        variant="subtle"
        color="gray"
        leftSection={<IconFilterOff size={16} aria-hidden />}
        disabled={!anySet}
        onClick={() => onChange(EMPTY_AUDIT_FILTERS)}
        style={{ alignSelf: 'end' }}
      >
        Reset filters
      </Button>
    </SimpleGrid>
  );
}
