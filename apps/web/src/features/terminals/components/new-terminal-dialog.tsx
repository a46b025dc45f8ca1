import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { IdSelect } from '../../../components/id-select';
import { Controller, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  FLOW_TYPE_HEADER,
  terminalCreateBody,
  type TerminalCreateBody,
  type TerminalDetails,
} from '@paydesk/contracts';
import { toast } from '../../../components/toast';
import { isApiError } from '../../../lib/api';
import { useCurrencies, useReference } from '../../../lib/references';
import { useCreateTerminal } from '../api/terminal';

type Props = { opened: boolean; onClose: () => void; onCreated: (t: TerminalDetails) => void };

export function NewTerminalDialog({ opened, onClose, onCreated }: Props) {
  const flows = useReference(FLOW_TYPE_HEADER);
  const currencies = useCurrencies();
  const create = useCreateTerminal();
  const form = useForm<TerminalCreateBody>({
    resolver: zodResolver(terminalCreateBody),
    defaultValues: { name: '' },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors } = form.formState;

  const close = () => {
    form.reset({ name: '' });
    onClose();
  };

  const onSubmit = form.handleSubmit((body) =>
    create.mutateAsync(body).then(
      (t) => {
        toast.success('Terminal created');
        form.reset({ name: '' });
        onCreated(t);
      },
      (e: unknown) => {
        toast.error(e instanceof Error ? e.message : 'Could not create the terminal');
        if (isApiError(e) && e.fields) {
          for (const [k, message] of Object.entries(e.fields)) {
            if (k === 'name' || k === 'flowTypeId' || k === 'currencyId') form.setError(k, { type: 'server', message });
          }
        }
      },
    ),
  );

  const idSelect = (name: 'flowTypeId' | 'currencyId', label: string, data: { value: string; label: string }[]) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <IdSelect
          label={label}
          withAsterisk
          data={data}
          // undefined until chosen: the schema then says what is missing
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          error={errors[name]?.message}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
      )}
    />
  );

  return (
    <Modal opened={opened} onClose={close} title="New Terminal" centered>
      <form onSubmit={onSubmit} noValidate aria-label="New terminal">
        <Stack>
          <TextInput label="Name" withAsterisk data-autofocus error={errors.name?.message} {...form.register('name')} />
          {idSelect(
            'flowTypeId',
            'Flow type',
            (flows.data ?? []).map((f) => ({ value: String(f.id), label: f.code })),
          )}
          {idSelect(
            'currencyId',
            'Currency',
            (currencies.data ?? []).map((c) => ({ value: String(c.id), label: `${c.code} · ${c.name}` })),
          )}
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
