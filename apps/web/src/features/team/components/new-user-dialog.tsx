import { useState } from 'react';
import { Button, Group, Modal, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { IdSelect } from '../../../components/id-select';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Merchant } from '@paydesk/contracts/merchants';
import { userCreateBody, type Role } from '@paydesk/contracts/team';
import { toast } from '../../../components/toast';
import { actionErrorMessage, isApiError } from '../../../lib/api';
import { useCreateUser, type UserWithPassword } from '../api/team-users';
import { PLATFORM_STAFF } from '../model/labels';
import { OneTimePassword } from './one-time-password';

type Props = {
  opened: boolean;
  onClose: () => void;
  roles: Role[];
  /** platform staff choose the new user's merchant (or none); merchant staff add to their own team */
  merchants: Merchant[] | null;
  /** the merchant the dialog starts on: null for platform staff, a merchant id, or undefined for merchant staff */
  initialMerchantId: string | null | undefined;
};

export function NewUserDialog({ opened, onClose, ...rest }: Props) {
  const [created, setCreated] = useState<UserWithPassword | null>(null);
  const close = () => {
    setCreated(null);
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={created ? 'User created' : 'New user'}
      size="lg"
      centered
      closeOnClickOutside={!created}
    >
      {created ? (
        <Stack>
          <OneTimePassword result={created} />
          <Group justify="flex-end">
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      ) : (
        opened && <NewUserForm {...rest} onCancel={close} onCreated={setCreated} />
      )}
    </Modal>
  );
}

function NewUserForm({
  roles,
  merchants,
  initialMerchantId,
  onCancel,
  onCreated,
}: Omit<Props, 'opened' | 'onClose'> & { onCancel: () => void; onCreated: (r: UserWithPassword) => void }) {
  const create = useCreateUser();
  const form = useForm({
    resolver: zodResolver(userCreateBody),
    defaultValues: {
      username: '',
      firstName: '',
      lastName: '',
      roleId: undefined as unknown as number,
      ...(merchants ? { merchantId: initialMerchantId ?? null } : {}),
    },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors } = form.formState;
  const merchantId = useWatch({ control: form.control, name: 'merchantId' });
  // merchant staff only ever add merchant users; platform staff pick the scope with the merchant
  const scope = merchants && merchantId === null ? 'platform' : 'merchant';
  const roleOptions = roles
    .filter((r) => r.scope === scope && r.assignable)
    .map((r) => ({ value: String(r.id), label: r.name }));

  const onSubmit = form.handleSubmit((body) =>
    create.mutateAsync(body).then(
      (r) => {
        toast.success('User created');
        onCreated(r);
      },
      (e: unknown) => {
        toast.error(actionErrorMessage(e, 'Could not create the user'));
        if (isApiError(e) && e.fields)
          for (const key of ['username', 'firstName', 'lastName', 'roleId'] as const)
            if (e.fields[key]) form.setError(key, { type: 'server', message: e.fields[key] });
      },
    ),
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-label="New user">
      <Stack>
        <TextInput
          label="Username"
          description="3–40 letters, digits, dots, dashes or underscores"
          withAsterisk
          autoComplete="off"
          data-autofocus
          error={errors.username?.message}
          {...form.register('username')}
        />
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <TextInput
            label="First name"
            withAsterisk
            autoComplete="off"
            error={errors.firstName?.message}
            {...form.register('firstName')}
          />
          <TextInput
            label="Last name"
            withAsterisk
            autoComplete="off"
            error={errors.lastName?.message}
            {...form.register('lastName')}
          />
        </SimpleGrid>
        {merchants && (
          <Controller
            control={form.control}
            name="merchantId"
            render={({ field }) => (
              <Select
                label="Merchant"
                description="Platform staff work on every merchant; a merchant's staff only on theirs"
                withAsterisk
                data={[
                  { value: PLATFORM_STAFF, label: 'Platform staff' },
                  ...merchants.map((m) => ({ value: m.id, label: m.name })),
                ]}
                value={field.value === null ? PLATFORM_STAFF : (field.value ?? null)}
                onChange={(v) => {
                  const next = !v || v === PLATFORM_STAFF ? null : v;
                  field.onChange(next);
                  // the role list follows the scope: a role of the other scope no longer fits
                  const nextScope = next === null ? 'platform' : 'merchant';
                  const roleId = form.getValues('roleId');
                  if (roles.find((r) => r.id === roleId)?.scope !== nextScope)
                    form.setValue('roleId', undefined as unknown as number);
                }}
                allowDeselect={false}
                searchable={merchants.length > 8}
                comboboxProps={{ withinPortal: true }}
              />
            )}
          />
        )}
        <Controller
          control={form.control}
          name="roleId"
          render={({ field }) => (
            <IdSelect
              label="Role"
              withAsterisk
              placeholder="Choose a role"
              data={roleOptions}
              value={field.value}
              onChange={field.onChange}
              error={errors.roleId?.message}
              nothingFoundMessage="No role you may give"
              comboboxProps={{ withinPortal: true }}
            />
          )}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending}>
            Create user
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
