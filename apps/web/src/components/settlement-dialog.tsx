import { useMemo } from 'react';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { makeSettlementSchema } from '@paydesk/contracts/settlements';
import { call, isApiError } from '../lib/api';
import { FINANCE_KEY } from '../lib/finance';
import { toast } from './toast';

/** The settlement dialog is 768px wide. */
const SETTLEMENT_DIALOG_WIDTH = 768;

type Props = {
  opened: boolean;
  onClose: () => void;
  terminalId: string;
  /** The terminal currency: its code labels the base amount and its dimension limits its decimals. */
  currency?: { code: string; dimension: number };
};

/**
 * Records a manual settlement (settlement.create): baseAmount in the terminal's currency and settlementAmount in
 * USDT, typed as text and coerced to numbers by the same schema the server validates with.
 */
export function SettlementDialog({ opened, onClose, terminalId, currency }: Props) {
  const schema = useMemo(() => makeSettlementSchema(currency?.dimension), [currency?.dimension]);
  type Input = z.input<typeof schema>;
  type Output = z.output<typeof schema>;
  const queryClient = useQueryClient();
  const form = useForm<Input, unknown, Output>({
    resolver: zodResolver(schema),
    defaultValues: { baseAmount: '', settlementAmount: '', terminalId },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });

  const create = useMutation({
    mutationFn: (body: Output) => call('POST /api/v1/settlement', { body }).then((r) => r.data),
    onSuccess: async () => {
      toast.success('Successfully created');
      // every balance/finance tile
      await queryClient.invalidateQueries({ queryKey: FINANCE_KEY });
      form.reset({ baseAmount: '', settlementAmount: '', terminalId });
      onClose();
    },
    onError: (e) => {
      if (isApiError(e) && e.fields) {
        for (const [field, message] of Object.entries(e.fields)) {
          if (field === 'baseAmount' || field === 'settlementAmount') form.setError(field, { message });
        }
      }
      toast.error(e instanceof Error ? e.message : 'Settlement failed');
    },
  });

  const close = () => {
    if (create.isPending) return;
    form.reset({ baseAmount: '', settlementAmount: '', terminalId });
    onClose();
  };
  const err = form.formState.errors;

  return (
    <Modal opened={opened} onClose={close} size={SETTLEMENT_DIALOG_WIDTH} title="Settlement" centered>
      <form noValidate onSubmit={form.handleSubmit((v) => create.mutate({ ...v, terminalId }))}>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            Record a payout of the merchant balance. The base amount is debited from the balance
            {currency ? ` in ${currency.code}` : ''}; the settlement amount is what was paid in USDT.
          </Text>
          <TextInput
            label={`Base amount${currency ? ` (${currency.code})` : ''}`}
            inputMode="decimal"
            autoComplete="off"
            withAsterisk
            error={err.baseAmount?.message}
            {...form.register('baseAmount')}
          />
          <TextInput
            label="Settlement amount (USDT)"
            inputMode="decimal"
            autoComplete="off"
            withAsterisk
            error={err.settlementAmount?.message}
            {...form.register('settlementAmount')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending} disabled={create.isPending}>
              Submit
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
