import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  CREDENTIAL_TYPES,
  credentialForm,
  normalizeCredentialValue,
  PARAM_TYPE_NAMES,
  PARAM_TYPES,
  type AccountCredential,
  type CredentialForm,
} from '@paydesk/contracts';
import { toast } from '../../../components/toast';
import { isApiError } from '../../../lib/api';
import { useCredentialMutations } from '../api/accounts';

type Props = {
  accountId: number;
  /** null: add a credential; otherwise edit this one's value. */
  editing: AccountCredential | null;
  opened: boolean;
  onClose: () => void;
};

const isMasked = (v: string) => v.includes('*');

export function CredentialDialog({ accountId, editing, opened, onClose }: Props) {
  const { add, edit } = useCredentialMutations(accountId);
  const initial = (): Partial<CredentialForm> =>
    editing
      ? {
          credentialType: editing.credentialType as CredentialForm['credentialType'],
          paramType: editing.paramType as CredentialForm['paramType'],
          value: isMasked(editing.value) ? '' : editing.value,
        }
      : { paramType: 'S', value: '' };
  const form = useForm<CredentialForm>({
    resolver: zodResolver(credentialForm),
    values: initial() as CredentialForm,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors } = form.formState;
  const pending = add.isPending || edit.isPending;

  const onSubmit = form.handleSubmit((v) => {
    const value = normalizeCredentialValue(v.credentialType, v.value);
    const request = editing
      ? edit.mutateAsync({ credentialId: editing.id, value })
      : add.mutateAsync({
          peopleAccountId: accountId,
          credentialType: v.credentialType,
          paramType: v.paramType,
          value,
        });
    return request.then(
      () => {
        toast.success(editing ? 'Successfully changed' : 'Successfully created');
        onClose();
      },
      (e: unknown) => {
        const message = e instanceof Error ? e.message : 'Could not save the credential';
        toast.error(message);
        if (isApiError(e) && e.fields?.value) form.setError('value', { type: 'server', message: e.fields.value });
      },
    );
  });

  const select = (name: 'credentialType' | 'paramType', label: string, data: { value: string; label: string }[]) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <Select
          label={label}
          withAsterisk
          data={data}
          value={field.value ?? null}
          onChange={(v) => field.onChange(v ?? undefined)}
          onBlur={field.onBlur}
          error={errors[name]?.message}
          readOnly={Boolean(editing)}
          allowDeselect={false}
        />
      )}
    />
  );

  return (
    <Modal opened={opened} onClose={onClose} title={editing ? 'Edit credential' : 'Add credential'} centered>
      <form onSubmit={onSubmit} noValidate aria-label={editing ? 'Edit credential' : 'Add credential'}>
        <Stack>
          {select(
            'credentialType',
            'Credential type',
            CREDENTIAL_TYPES.map((t) => ({ value: t, label: t })),
          )}
          {select(
            'paramType',
            'Parameter type',
            PARAM_TYPES.map((t) => ({ value: t, label: `${t} · ${PARAM_TYPE_NAMES[t]}` })),
          )}
          <TextInput
            label="Value"
            withAsterisk
            autoComplete="off"
            placeholder={editing && isMasked(editing.value) ? editing.value : undefined}
            error={errors.value?.message}
            {...form.register('value')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={pending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
