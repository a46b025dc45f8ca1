import { Button, Checkbox, Group, Modal, NumberInput, Stack, TextInput } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
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

/**
 * What the inputs hold: the limit as the digits typed (exact at any length, and '' when cleared: an undefined
 * field would fall back to the saved limit); the contracts schema validates the body it becomes.
 */
const limitForm = z
  .object({
    peopleAccountId: z.number(),
    limit: z.string(),
    priority: z.union([z.number(), z.literal('')]),
    checkUniqueAmount: z.boolean(),
  })
  .transform((f) => ({
    ...f,
    limit: f.limit === '' ? undefined : toExactInt(f.limit),
    priority: f.priority === '' ? undefined : f.priority,
  }))
  .pipe(accountLimitBody);
type LimitForm = z.input<typeof limitForm>;

export function LimitDialog({ limit, currency, opened, onClose }: Props) {
  const save = useSetAccountLimit(limit.peopleAccountId);
  const form = useForm<LimitForm, unknown, AccountLimitBody>({
    resolver: zodResolver(limitForm),
    values: {
      peopleAccountId: limit.peopleAccountId,
      limit: String(limit.limit),
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
                  current === ''
                    ? undefined
                    : `= ${formatMoney(BigInt(current), currency.dimension, 'en', currency.code)}`
                }
                value={field.value}
                // the limit input keeps only digits (SPEC §5), exactly as typed
                onChange={(e) => field.onChange(digitsOnly(e.currentTarget.value))}
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
                value={field.value}
                onChange={(v) => field.onChange(v === '' ? '' : Number(v))}
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
