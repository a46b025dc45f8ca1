import { Button, Checkbox, Group, Modal, NumberInput, Stack, TextInput } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  accountLimitBody,
  digitsOnly,
  formatMoney,
  toExactInt,
  type AccountLimit,
  type AccountLimitBody,
} from '@paydesk/contracts';
import { toast } from '../../../components/toast';
import { useSetAccountLimit } from '../api/accounts';

type Props = {
  limit: AccountLimit;
  currency: { code: string; dimension: number };
  opened: boolean;
  onClose: () => void;
};

export function LimitDialog({ limit, currency, opened, onClose }: Props) {
  const save = useSetAccountLimit(limit.peopleAccountId);
  const form = useForm<AccountLimitBody>({
    resolver: zodResolver(accountLimitBody),
    values: {
      peopleAccountId: limit.peopleAccountId,
      limit: limit.limit,
      priority: limit.priority,
      checkUniqueAmount: limit.checkUniqueAmount,
    },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors } = form.formState;
  const current = form.watch('limit');

  const onSubmit = form.handleSubmit((body) =>
    save.mutateAsync(body).then(
      () => {
        toast.success('Successfully changed');
        onClose();
      },
      (e: unknown) => toast.error(e instanceof Error ? e.message : 'Could not save the limit'),
    ),
  );

  return (
    <Modal opened={opened} onClose={onClose} title="Edit limit" centered>
      <form onSubmit={onSubmit} noValidate aria-label="Edit limit">
        <Stack>
          <Controller
            control={form.control}
            name="limit"
            render={({ field }) => (
              <TextInput
                label="Limit (minor units)"
                withAsterisk
                inputMode="numeric"
                autoComplete="off"
                description={
                  current === undefined
                    ? undefined
                    : `= ${formatMoney(current, currency.dimension, 'en', currency.code)}`
                }
                value={field.value === undefined ? '' : String(field.value)}
                onChange={(e) => {
                  // the limit input keeps only digits (SPEC §5); exact at any length (a bigint past 2^53)
                  const digits = digitsOnly(e.currentTarget.value);
                  field.onChange(digits === '' ? undefined : toExactInt(digits));
                }}
                onBlur={field.onBlur}
                ref={field.ref}
                error={errors.limit?.message}
              />
            )}
          />
          <Controller
            control={form.control}
            name="priority"
            render={({ field }) => (
              <NumberInput
                label="Priority"
                withAsterisk
                allowDecimal={false}
                value={field.value ?? ''}
                onChange={(v) => field.onChange(v === '' ? undefined : Number(v))}
                onBlur={field.onBlur}
                error={errors.priority?.message}
              />
            )}
          />
          <Controller
            control={form.control}
            name="checkUniqueAmount"
            render={({ field }) => (
              <Checkbox
                label="Unique amount (no two active invoices with the same amount)"
                checked={field.value}
                onChange={(e) => field.onChange(e.currentTarget.checked)}
              />
            )}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
