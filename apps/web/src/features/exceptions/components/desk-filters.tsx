import '@mantine/dates/styles.css';
import { useEffect, useRef, useState } from 'react';
import { Button, Select, SimpleGrid, TextInput } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useDebouncedCallback } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { IconFilterOff } from '@tabler/icons-react';
import { majorAmountIssue, majorStringToMinorDigits, minorToMajorInput } from '@paydesk/contracts/money';
import { MoneyInput } from '../../../components/money-input';
import { merchantsQuery } from '../../../lib/merchant';
import { useCurrencies, useProviders } from '../../../lib/references';
import { useCan } from '../../../lib/session';
import { useDeskAccounts } from '../api/desk-filters';
import { amountUnit, isoToLocalInput, localInputToIso, type AmountUnit, type DeskFilters } from '../model/desk';

const ALL = '__all__';
/** Typed filters (amounts, an account id) apply once the typing pauses, as the audit's actor does. */
const TYPING_DEBOUNCE_MS = 500;
/** An amount's read-back goes under its input, so the inputs of a row of filters line up. */
const HINT_BELOW: ('label' | 'input' | 'description' | 'error')[] = ['label', 'input', 'description', 'error'];

type Props = { value: DeskFilters; onChange: (next: Partial<DeskFilters>) => void };

/** Shown while any filter of the tab is set. */
export function ClearFiltersButton({ onClear }: { onClear: () => void }) {
  return (
    <Button variant="subtle" color="gray" leftSection={<IconFilterOff size={16} aria-hidden />} onClick={onClear}>
      Clear filters
    </Button>
  );
}

/**
 * Unmatched money's filters: provider, account, amount range and when it was reported. Amounts are typed in major
 * units of the currency in view (model/desk.ts amountUnit) and live in the URL in minor units, as the API takes them.
 */
export function UnmatchedFilters({ value, onChange }: Props) {
  const canReadAccounts = useCan('people.account');
  const accounts = useDeskAccounts(canReadAccounts);
  const providers = useProviders();
  const currencies = useCurrencies();
  const accountList = canReadAccounts ? (accounts.data ?? null) : null;
  const loading = providers.isPending || currencies.isPending || (canReadAccounts && accounts.isPending);
  const providerName = (id: number | null) =>
    id === null ? null : (providers.data?.find((p) => p.id === id)?.name ?? null);
  const unitOf = (f: Pick<DeskFilters, 'providerId' | 'accountId'>) =>
    amountUnit(
      { accountId: f.accountId, providerName: providerName(f.providerId) },
      accountList,
      currencies.data ?? [],
    );
  const unit = unitOf(value);

  /** Another provider or account: an amount range whose unit that changes is cleared, not read in another unit. */
  const rescope = (next: Pick<DeskFilters, 'providerId' | 'accountId'>) => {
    const unitChanges = (unitOf(next)?.dimension ?? null) !== (unit?.dimension ?? null);
    const hasAmounts = value.amountFrom !== null || value.amountTo !== null;
    onChange({ ...next, ...(unitChanges && hasAmounts ? { amountFrom: null, amountTo: null } : {}) });
  };

  const providerOptions = [
    { value: ALL, label: 'All providers' },
    ...(providers.data ?? []).map((p) => ({ value: String(p.id), label: p.name })),
  ];
  if (value.providerId !== null && !providers.data?.some((p) => p.id === value.providerId))
    providerOptions.push({ value: String(value.providerId), label: `Provider ${value.providerId}` });
  const inView = (accountList ?? []).filter(
    (a) => value.providerId === null || a.providerName === providerName(value.providerId),
  );
  const accountOptions = [
    { value: ALL, label: 'All accounts' },
    ...inView.map((a) => ({
      value: String(a.id),
      label: `#${a.id} ${a.providerName} · ${a.bankName ?? a.paymentMethodName} · ${a.currency}${a.isSandbox ? ' (sandbox)' : ''}`,
    })),
  ];
  if (value.accountId !== null && !inView.some((a) => a.id === value.accountId))
    accountOptions.push({ value: String(value.accountId), label: `#${value.accountId}` });

  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3, xl: 6 }} spacing="sm" verticalSpacing="sm">
      <Select
        label="Provider"
        data={providerOptions}
        value={value.providerId === null ? ALL : String(value.providerId)}
        onChange={(v) => {
          const providerId = !v || v === ALL ? null : Number(v);
          const account = accountList?.find((a) => a.id === value.accountId);
          const accountFits = providerId === null || !account || account.providerName === providerName(providerId);
          rescope({ providerId, accountId: accountFits ? value.accountId : null });
        }}
        allowDeselect={false}
        searchable={providerOptions.length > 8}
        nothingFoundMessage="Nothing found."
        comboboxProps={{ position: 'bottom-start' }}
      />
      {canReadAccounts ? (
        <Select
          label="Account"
          placeholder={accounts.isPending ? 'Loading accounts…' : undefined}
          data={accountOptions}
          value={value.accountId === null ? ALL : String(value.accountId)}
          onChange={(v) => rescope({ providerId: value.providerId, accountId: !v || v === ALL ? null : Number(v) })}
          error={accounts.isError ? 'Could not load the accounts' : undefined}
          allowDeselect={false}
          searchable
          nothingFoundMessage="No such account."
          comboboxProps={{ width: 340, position: 'bottom-start' }}
        />
      ) : (
        <AccountIdInput value={value.accountId} onChange={(accountId) => onChange({ accountId })} />
      )}
      <AmountRange
        from={value.amountFrom}
        to={value.amountTo}
        unit={unit}
        loading={loading}
        onChange={(range) => onChange(range)}
      />
      <DateTimePicker
        label="Reported from"
        placeholder="dd/mm/yyyy hh:mm"
        valueFormat="DD/MM/YYYY HH:mm"
        clearable
        value={isoToLocalInput(value.from)}
        maxDate={isoToLocalInput(value.to) ?? undefined}
        onChange={(v) => {
          const from = localInputToIso(v);
          // a start past the end replaces the range rather than making it empty
          onChange({ from, ...(from && value.to && from >= value.to ? { to: null } : {}) });
        }}
      />
      <DateTimePicker
        label="Reported before"
        placeholder="dd/mm/yyyy hh:mm"
        valueFormat="DD/MM/YYYY HH:mm"
        clearable
        value={isoToLocalInput(value.to)}
        minDate={isoToLocalInput(value.from) ?? undefined}
        onChange={(v) => {
          const to = localInputToIso(v);
          onChange({ to, ...(to && value.from && to <= value.from ? { from: null } : {}) });
        }}
      />
    </SimpleGrid>
  );
}

const display = (minor: number | null, dimension: number | null) =>
  minor === null ? '' : dimension === null ? String(minor) : minorToMajorInput(minor, dimension);

/** A typed amount as minor units (null: empty), or why it is not one. */
function parseAmount(
  text: string,
  label: string,
  dimension: number | null,
): { minor: number | null } | { error: string } {
  const s = text.replace(/\s/g, '');
  if (s === '') return { minor: null };
  if (dimension === null) {
    if (!/^\d+$/.test(s)) return { error: `${label} must be a whole number of minor units` };
  } else {
    const issue = majorAmountIssue(label, s, dimension);
    if (issue) return { error: issue };
  }
  const minor = Number(dimension === null ? s : majorStringToMinorDigits(s, dimension));
  return Number.isSafeInteger(minor) ? { minor } : { error: `${label} is too large` };
}

/**
 * The amount range: both ends typed, checked together (each an amount of the unit, the lower one not above the
 * higher) and applied together once the typing pauses. What the URL says later (back, clear) replaces the text.
 */
function AmountRange({
  from,
  to,
  unit,
  loading,
  onChange,
}: {
  from: number | null;
  to: number | null;
  unit: AmountUnit | null;
  loading: boolean;
  onChange: (range: Pick<DeskFilters, 'amountFrom' | 'amountTo'>) => void;
}) {
  const dimension = loading ? null : (unit?.dimension ?? null);
  const [text, setText] = useState(() => ({ from: display(from, dimension), to: display(to, dimension) }));
  const shown = useRef({ from, to, dimension });
  useEffect(() => {
    const s = shown.current;
    if (s.from === from && s.to === to && s.dimension === dimension) return;
    shown.current = { from, to, dimension };
    setText({ from: display(from, dimension), to: display(to, dimension) });
  }, [from, to, dimension]);

  const check = (t: { from: string; to: string }) => {
    const f = parseAmount(t.from, 'Amount from', dimension);
    const u = parseAmount(t.to, 'Amount to', dimension);
    const ordered = !('minor' in f && 'minor' in u) || f.minor === null || u.minor === null || f.minor <= u.minor;
    return {
      from: f,
      to: u,
      fromError: 'error' in f ? f.error : undefined,
      toError: 'error' in u ? u.error : ordered ? undefined : 'Amount to must not be below Amount from',
    };
  };
  const apply = useDebouncedCallback((t: { from: string; to: string }) => {
    const c = check(t);
    if (c.fromError || c.toError || !('minor' in c.from) || !('minor' in c.to)) return;
    shown.current = { from: c.from.minor, to: c.to.minor, dimension };
    if (c.from.minor !== from || c.to.minor !== to) onChange({ amountFrom: c.from.minor, amountTo: c.to.minor });
  }, TYPING_DEBOUNCE_MS);
  const edit = (end: 'from' | 'to', v: string) => {
    const next = { ...text, [end]: v };
    setText(next);
    apply(next);
  };
  const { fromError, toError } = check(text);

  if (loading) {
    return (
      <>
        <TextInput label="Amount from" placeholder="Loading…" disabled />
        <TextInput label="Amount to" placeholder="Loading…" disabled />
      </>
    );
  }
  if (!unit) {
    const description = 'Currencies in view differ in decimals: choose an account to type its currency';
    const minorInput = (end: 'from' | 'to', label: string, error: string | undefined) => (
      <TextInput
        label={`${label} (minor units)`}
        inputMode="numeric"
        autoComplete="off"
        description={description}
        inputWrapperOrder={HINT_BELOW}
        value={text[end]}
        onChange={(e) => edit(end, e.currentTarget.value.replace(/\D/g, ''))}
        error={error}
      />
    );
    return (
      <>
        {minorInput('from', 'Amount from', fromError)}
        {minorInput('to', 'Amount to', toError)}
      </>
    );
  }
  const currency = { code: unit.codes.join('/'), dimension: unit.dimension };
  return (
    <>
      <MoneyInput
        label="Amount from"
        currency={currency}
        value={text.from}
        onChange={(v) => edit('from', v)}
        error={fromError}
        inputWrapperOrder={HINT_BELOW}
      />
      <MoneyInput
        label="Amount to"
        currency={currency}
        value={text.to}
        onChange={(v) => edit('to', v)}
        error={toError}
        inputWrapperOrder={HINT_BELOW}
      />
    </>
  );
}

/** The account filter of a role that may not read the accounts: its number, as the list shows it. */
function AccountIdInput({ value, onChange }: { value: number | null; onChange: (accountId: number | null) => void }) {
  const [text, setText] = useState(value === null ? '' : String(value));
  const shown = useRef(value);
  useEffect(() => {
    if (shown.current === value) return;
    shown.current = value;
    setText(value === null ? '' : String(value));
  }, [value]);
  const id = text === '' ? null : Number(text);
  const error = id !== null && (id < 1 || id > 2_147_483_647) ? 'Not an account number' : undefined;
  const apply = useDebouncedCallback((t: string) => {
    const next = t === '' ? null : Number(t);
    if (next !== null && (next < 1 || next > 2_147_483_647)) return;
    shown.current = next;
    if (next !== value) onChange(next);
  }, TYPING_DEBOUNCE_MS);
  return (
    <TextInput
      label="Account"
      placeholder="Account number"
      inputMode="numeric"
      autoComplete="off"
      value={text}
      onChange={(e) => {
        const t = e.currentTarget.value.replace(/\D/g, '').slice(0, 10);
        setText(t);
        apply(t);
      }}
      error={error}
    />
  );
}

/** The stuck queues' filter: one merchant's payments (staff who may list merchants; the picker's first 50). */
export function MerchantFilter({ value, onChange }: Props) {
  const canList = useCan('merchant.rw.all');
  const merchants = useQuery({ ...merchantsQuery, enabled: canList });
  if (!canList) return null;
  const list = merchants.data?.data ?? [];
  const options = [{ value: ALL, label: 'All merchants' }, ...list.map((m) => ({ value: m.id, label: m.name }))];
  if (value.merchant !== null && !list.some((m) => m.id === value.merchant))
    options.push({ value: value.merchant, label: `Merchant ${value.merchant.slice(0, 8)}…` });
  return (
    <Select
      label="Merchant"
      placeholder={merchants.isPending ? 'Loading merchants…' : undefined}
      data={options}
      value={value.merchant ?? ALL}
      onChange={(v) => onChange({ merchant: !v || v === ALL ? null : v })}
      allowDeselect={false}
      searchable={options.length > 8}
      nothingFoundMessage="Nothing found."
      w={{ base: '100%', xs: 280 }}
      comboboxProps={{ position: 'bottom-start' }}
    />
  );
}
