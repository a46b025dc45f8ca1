import { Select } from '@mantine/core';
import { Controller, useForm, useWatch, type Control } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  balanceReportForm,
  poolBalanceReportForm,
  providerReportForm,
  reportDatesForm,
  type ReportDatesForm,
} from '@paydesk/contracts/reports';
import { utcIsoDay } from '@paydesk/contracts/dates';
import type { z } from 'zod';
import { useCurrencies, useProviders, useTerminalPools } from '../../../lib/references';
import { useDownloadReport } from '../api/download-report';
import { ReportCard, ReportDates } from './report-card';

/** The last seven UTC days up to today. */
const defaultDates = (): ReportDatesForm => ({
  periodStart: utcIsoDay(-6),
  periodEnd: utcIsoDay(),
});

type Values = Record<string, string>;

/** A report card's form: string fields validated on submit by the card's schema from contracts, then on change. */
function useReportForm(schema: z.ZodType<Values, Values>, extra: Values) {
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { ...defaultDates(), ...extra },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const from = useWatch({ control: form.control, name: 'periodStart' }) ?? '';
  const to = useWatch({ control: form.control, name: 'periodEnd' }) ?? '';
  return { form, from, to };
}

/** A required picker of one report parameter (currency, provider, terminal pool). */
function PickerField(props: {
  control: Control<Values>;
  name: string;
  label: string;
  what: string;
  loading: boolean;
  data: { value: string; label: string }[];
}) {
  return (
    <Controller
      control={props.control}
      name={props.name}
      render={({ field, fieldState }) => (
        <Select
          label={props.label}
          withAsterisk
          placeholder={props.loading ? 'Loading…' : `Choose ${props.what}`}
          data={props.data}
          value={field.value || null}
          onChange={(v) => field.onChange(v ?? '')}
          searchable
          nothingFoundMessage="Nothing found."
          error={fieldState.error?.message}
        />
      )}
    />
  );
}

export function InvoiceReportCard({ terminalId }: { terminalId: string }) {
  const { form, from, to } = useReportForm(reportDatesForm, {});
  const download = useDownloadReport();
  return (
    <ReportCard
      title="Transactions"
      description={
        terminalId
          ? 'Every invoice created in the period on the terminal chosen above.'
          : 'Every invoice created in the period.'
      }
      loading={download.isPending}
      onSubmit={form.handleSubmit((v) => download.mutate({ kind: 'invoice', params: { ...v, terminalId } }))}
    >
      <ReportDates control={form.control} errors={form.formState.errors} from={from} to={to} />
    </ReportCard>
  );
}

export function BalanceReportCard() {
  const { form, from, to } = useReportForm(balanceReportForm, { currencyId: '' });
  const currencies = useCurrencies();
  const download = useDownloadReport();
  return (
    <ReportCard
      title="Balance"
      description="Per day: opening balance, deposits credited, withdrawals paid, fees, settlements and closing balance."
      loading={download.isPending}
      onSubmit={form.handleSubmit((v) => download.mutate({ kind: 'balance', params: v }))}
    >
      <ReportDates control={form.control} errors={form.formState.errors} from={from} to={to} />
      <PickerField
        control={form.control}
        name="currencyId"
        label="Currency"
        what="a currency"
        loading={currencies.isPending}
        data={(currencies.data ?? []).map((c) => ({ value: String(c.id), label: `${c.code} — ${c.name}` }))}
      />
    </ReportCard>
  );
}

export function ProviderReportCard() {
  const { form, from, to } = useReportForm(providerReportForm, { currencyId: '', providerId: '' });
  const currencies = useCurrencies();
  const providers = useProviders();
  const download = useDownloadReport();
  return (
    <ReportCard
      title="Provider"
      description="Per account of the provider: incoming deposits and payouts completed in the period, count and sum."
      loading={download.isPending}
      onSubmit={form.handleSubmit((v) => download.mutate({ kind: 'provider', params: v }))}
    >
      <ReportDates control={form.control} errors={form.formState.errors} from={from} to={to} />
      <PickerField
        control={form.control}
        name="currencyId"
        label="Currency"
        what="a currency"
        loading={currencies.isPending}
        data={(currencies.data ?? []).map((c) => ({ value: String(c.id), label: c.code }))}
      />
      <PickerField
        control={form.control}
        name="providerId"
        label="Provider"
        what="a provider"
        loading={providers.isPending}
        data={(providers.data ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
      />
    </ReportCard>
  );
}

export function PoolBalanceReportCard() {
  const { form, from, to } = useReportForm(poolBalanceReportForm, { terminalPoolId: '' });
  const pools = useTerminalPools();
  const download = useDownloadReport();
  return (
    <ReportCard
      title="Terminal Pool Balance"
      description="Per terminal of the pool: completed deposits, completed withdrawals and net in the period."
      loading={download.isPending}
      onSubmit={form.handleSubmit((v) => download.mutate({ kind: 'pool/balance', params: v }))}
    >
      <ReportDates control={form.control} errors={form.formState.errors} from={from} to={to} />
      <PickerField
        control={form.control}
        name="terminalPoolId"
        label="Terminal pool"
        what="a terminal pool"
        loading={pools.isPending}
        data={(pools.data ?? []).map((p) => ({ value: String(p.id), label: p.name }))}
      />
    </ReportCard>
  );
}
