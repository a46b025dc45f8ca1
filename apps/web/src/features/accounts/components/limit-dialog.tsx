import { useMemo } from 'react';
import { Button, Checkbox, Group, Modal, NumberInput, Stack } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import {
  accountLimitBody,
  majorAmountIssue,
  majorStringToMinorDigits,
  minorToMajorInput,
  toExactInt,
  type AccountLimit,
  type AccountLimitBody,
} from '@paydesk/contracts';
import { MoneyInput } from '../../../components/money-input';
import { toast } from '../../../components/toast';
import { useSetAccountLimit } from '../api/accounts';

type Props = {
  limit: AccountLimit;
  currency: { code: string; dimension: number };
  opened: boolean;
  onClose: () => void;
};

/**
 * What the inputs hold: the limit in major units of the account's currency, as typed ('' when cleared: an undefined
 * field would fall back to the saved limit); it becomes exact minor units (any size) for the contracts body.
 */
const limitFormFor = (dimension: number) =>
  z
    .object({
      peopleAccountId: z.number(),
      limit: z.string().superRefine((v, ctx) => {
        const issue = majorAmountIssue('Limit', v, dimension);
        if (issue) ctx.addIssue({ code: 'custom', message: issue });
      }),
      priority: z.union([z.number(), z.literal('')]),
      checkUniqueAmount: z.boolean(),
    })
    .transform((f) => ({
      ...f,
      limit: toExactInt(majorStringToMinorDigits(f.limit, dimension)!),
      priority: f.priority === '' ? undefined : f.priority,
    }))
    .pipe(accountLimitBody);
type LimitForm = z.input<ReturnType<typeof limitFormFor>>;

export function LimitDialog({ limit, currency, opened, onClose }: Props) {
  const save = useSetAccountLimit(limit.peopleAccountId);
  const schema = useMemo(() => limitFormFor(currency.dimension), [currency.dimension]);
  const form = useForm<LimitForm, unknown, AccountLimitBody>({
    resolver: zodResolver(schema),
    values: {
      peopleAccountId: limit.peopleAccountId,
      limit: minorToMajorInput(limit.limit, currency.dimension),
      priority: limit.priority,
      checkUniqueAmount: limit.checkUniqueAmount,
    },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors } = form.formState;

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
              <MoneyInput
                label="Limit"
                currency={currency}
                withAsterisk
                value={field.value}
                onChange={field.onChange}
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
