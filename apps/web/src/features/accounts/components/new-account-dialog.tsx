import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { IdSelect } from '../../../components/id-select';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { accountCreateBody, type AccountCreateBody, type AccountListItem } from '@paydesk/contracts';
import { toast } from '../../../components/toast';
import { usePaymentMethods, useProviders } from '../../../lib/references';
import { useCreateAccount } from '../api/accounts';

type Props = { opened: boolean; onClose: () => void; onCreated: (a: AccountListItem) => void };
const EMPTY = { bankName: '', ownerName: '' };

/** Creates a real provider account (the older product's form did nothing on save). */
export function NewAccountDialog({ opened, onClose, onCreated }: Props) {
  const methods = usePaymentMethods();
  const providers = useProviders();
  const create = useCreateAccount();
  const form = useForm<AccountCreateBody>({
    resolver: zodResolver(accountCreateBody),
    defaultValues: EMPTY,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors } = form.formState;
  const close = () => {
    form.reset(EMPTY);
    onClose();
  };

  const onSubmit = form.handleSubmit((body) =>
    create.mutateAsync(body).then(
      (a) => {
        toast.success('Account created');
        form.reset(EMPTY);
        onCreated(a);
      },
      (e: unknown) => toast.error(e instanceof Error ? e.message : 'Could not create the account'),
    ),
  );

  const idSelect = (
    name: 'paymentMethodId' | 'paymentProviderId',
    label: string,
    data: { value: string; label: string }[],
  ) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <IdSelect
          label={label}
          withAsterisk
          data={data}
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          error={errors[name]?.message}
          searchable
          allowDeselect={false}
        />
      )}
    />
  );

  return (
    <Modal opened={opened} onClose={close} title="New Account" centered>
      <form onSubmit={onSubmit} noValidate aria-label="New account">
        <Stack>
          {idSelect(
            'paymentMethodId',
            'Payment method',
            (methods.data ?? []).map((m) => ({ value: String(m.id), label: `${m.name} (${m.code})` })),
          )}
          {idSelect(
            'paymentProviderId',
            'Payment provider',
            (providers.data ?? []).map((p) => ({ value: String(p.id), label: p.name })),
          )}
          <TextInput label="Bank name" error={errors.bankName?.message} {...form.register('bankName')} />
          <TextInput label="Owner name" error={errors.ownerName?.message} {...form.register('ownerName')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
