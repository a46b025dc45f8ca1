import '@mantine/dates/styles.css';
import { useState } from 'react';
import { Button, Checkbox, Group, Modal, NumberInput, Select, SimpleGrid, Stack } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { ddMmYyyyToIsoDay, isoDayToDdMmYyyy } from '@paydesk/contracts/dates';
import { majorStringToMinor, minorToMajorString } from '@paydesk/contracts/money';
import { FLOW_TYPES, type FlowType } from '@paydesk/contracts/statuses';
import { SectionLoader } from '../../../components/full-page-loader';
import { useCurrencies } from '../../../lib/references';
import { useSelectedTerminal, useTerminals } from '../../../lib/terminals';
import { useInvoiceStatuses } from '../api/invoice-statuses';
import { EMPTY_FILTERS, type InvoiceFilters } from '../model/list-state';

const NOT_SELECTED = '__none__';

type Draft = {
  statusIds: number[];
  dateFrom: string | null; // yyyy-MM-dd, the pickers' value
  dateTo: string | null;
  lastStatusDate: string | null;
  flowType: FlowType | null;
  sumFrom: string | number;
  sumTo: string | number;
};

const toDraft = (f: InvoiceFilters, dimension: number): Draft => ({
  statusIds: f.statusIds,
  dateFrom: f.dateFrom && ddMmYyyyToIsoDay(f.dateFrom),
  dateTo: f.dateTo && ddMmYyyyToIsoDay(f.dateTo),
  lastStatusDate: f.lastStatusDate && ddMmYyyyToIsoDay(f.lastStatusDate),
  flowType: f.flowType,
  sumFrom: f.sumFrom === null ? '' : minorToMajorString(f.sumFrom, dimension),
  sumTo: f.sumTo === null ? '' : minorToMajorString(f.sumTo, dimension),
});

/** NaN values and invalid dates are dropped on apply. */
const sum = (v: string | number, dimension: number) => (v === '' ? null : majorStringToMinor(String(v), dimension));
const day = (v: string | null) => (v ? isoDayToDdMmYyyy(v) : null);

function fromDraft(d: Draft, dimension: number): InvoiceFilters {
  return {
    statusIds: d.statusIds,
    dateFrom: day(d.dateFrom),
    dateTo: day(d.dateTo),
    lastStatusDate: day(d.lastStatusDate),
    flowType: d.flowType,
    sumFrom: sum(d.sumFrom, dimension),
    sumTo: sum(d.sumTo, dimension),
  };
}

const asNumber = (v: string | number) => {
  const n = typeof v === 'number' ? v : Number.parseFloat(v);
  return Number.isFinite(n) ? n : undefined;
};

type Props = { opened: boolean; value: InvoiceFilters; onClose: () => void; onApply: (f: InvoiceFilters) => void };

export function FilterDialog({ opened, value, onClose, onApply }: Props) {
  return (
    <Modal opened={opened} onClose={onClose} title="Filter" size="lg" centered>
      {/* mounted per opening so the draft starts from the applied filters */}
      {opened && <FilterForm value={value} onApply={onApply} />}
    </Modal>
  );
}

/**
 * Sums are typed in major units of the invoices' currency: the selected terminal's, or the one all the
 * merchant's terminals share; with all terminals in currencies of different dimensions, the largest (no decimal
 * a user types is refused).
 */
function useSumDimension(): number | undefined {
  const [terminalId] = useSelectedTerminal();
  const { data: terminals } = useTerminals();
  const { data: currencies } = useCurrencies();
  if (!terminals || !currencies) return undefined;
  const codes = new Set(terminals.filter((t) => !terminalId || t.id === terminalId).map((t) => t.currency.code));
  const dims = currencies.filter((c) => codes.has(c.code)).map((c) => c.dimension);
  return dims.length ? Math.max(...dims) : Math.max(0, ...currencies.map((c) => c.dimension));
}

function FilterForm({ value, onApply }: { value: InvoiceFilters; onApply: (f: InvoiceFilters) => void }) {
  const dimension = useSumDimension();
  if (dimension === undefined) return <SectionLoader label="Loading currencies" />;
  return <FilterFields value={value} onApply={onApply} dimension={dimension} />;
}

function FilterFields({
  value,
  onApply,
  dimension,
}: {
  value: InvoiceFilters;
  onApply: (f: InvoiceFilters) => void;
  dimension: number;
}) {
  const { data: statuses = [] } = useInvoiceStatuses();
  const [d, setD] = useState<Draft>(() => toDraft(value, dimension));
  const set = <K extends keyof Draft>(key: K, v: Draft[K]) => setD((prev) => ({ ...prev, [key]: v }));

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onApply(fromDraft(d, dimension));
      }}
    >
      <Stack gap="md">
        <Checkbox.Group
          label="Status"
          value={d.statusIds.map(String)}
          onChange={(v) => set('statusIds', v.map(Number))}
        >
          <Group gap="md" mt="xs">
            {statuses.map((s) => (
              <Checkbox key={s.id} value={String(s.id)} label={s.value} />
            ))}
          </Group>
        </Checkbox.Group>

        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <DatePickerInput
            label="Date From"
            placeholder="dd/mm/yyyy"
            valueFormat="DD/MM/YYYY"
            clearable
            value={d.dateFrom}
            maxDate={d.dateTo ?? undefined}
            onChange={(v) => set('dateFrom', v)}
          />
          <DatePickerInput
            label="Date To"
            placeholder="dd/mm/yyyy"
            valueFormat="DD/MM/YYYY"
            clearable
            value={d.dateTo}
            minDate={d.dateFrom ?? undefined}
            onChange={(v) => set('dateTo', v)}
          />
          <DatePickerInput
            label="Last Status Date"
            placeholder="dd/mm/yyyy"
            valueFormat="DD/MM/YYYY"
            clearable
            value={d.lastStatusDate}
            onChange={(v) => set('lastStatusDate', v)}
          />
          <Select
            label="Flow Type"
            data={[{ value: NOT_SELECTED, label: 'Not selected' }, ...FLOW_TYPES.map((f) => ({ value: f, label: f }))]}
            value={d.flowType ?? NOT_SELECTED}
            onChange={(v) => set('flowType', !v || v === NOT_SELECTED ? null : (v as FlowType))}
            allowDeselect={false}
          />
          <NumberInput
            label="Sum From"
            placeholder={minorToMajorString(0, dimension)}
            min={0}
            max={asNumber(d.sumTo)}
            decimalScale={dimension}
            thousandSeparator=" "
            value={d.sumFrom}
            onChange={(v) => set('sumFrom', v)}
          />
          <NumberInput
            label="Sum To"
            placeholder={minorToMajorString(0, dimension)}
            min={asNumber(d.sumFrom) ?? 0}
            decimalScale={dimension}
            thousandSeparator=" "
            value={d.sumTo}
            onChange={(v) => set('sumTo', v)}
          />
        </SimpleGrid>

        <Group justify="space-between" mt="sm">
          <Button variant="default" onClick={() => onApply(EMPTY_FILTERS)}>
            Reset Filter
          </Button>
          <Button type="submit">Apply Filter</Button>
        </Group>
      </Stack>
    </form>
  );
}
