import { Button, Checkbox, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { SAVED_VIEW_NAME_MAX, savedViewCreateBody, type SavedView } from '@paydesk/contracts/saved-views';
import { toast } from '../../../components/toast';
import { actionErrorMessage, isApiError } from '../../../lib/api';
import { useCreateView, useUpdateView } from '../api/saved-views';
import { viewStateOf, type ListState } from '../model/list-state';

export type ViewDialogMode = { kind: 'create'; state: ListState } | { kind: 'rename'; view: SavedView };

const nameForm = savedViewCreateBody.pick({ name: true }).extend({ shared: z.boolean() });
type NameForm = z.infer<typeof nameForm>;

export function ViewDialog({ mode, onClose }: { mode: ViewDialogMode | null; onClose: () => void }) {
  return (
    <Modal
      opened={mode !== null}
      onClose={onClose}
      title={mode?.kind === 'rename' ? `Rename ${mode.view.name}` : 'Save view'}
      centered
    >
      {/* mounted per opening: each one starts from its own values */}
      {mode && <ViewForm mode={mode} onClose={onClose} />}
    </Modal>
  );
}

function ViewForm({ mode, onClose }: { mode: ViewDialogMode; onClose: () => void }) {
  const create = useCreateView();
  const update = useUpdateView();
  const form = useForm<NameForm>({
    resolver: zodResolver(nameForm),
    defaultValues:
      mode.kind === 'rename' ? { name: mode.view.name, shared: mode.view.shared } : { name: '', shared: false },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(({ name, shared }) =>
    (mode.kind === 'create'
      ? create.mutateAsync({ name, shared, state: viewStateOf(mode.state) })
      : update.mutateAsync({ id: mode.view.id, name })
    ).then(
      (saved) => {
        toast.success(mode.kind === 'create' ? `View ${saved.name} saved` : `View renamed to ${saved.name}`);
        onClose();
      },
      (e: unknown) => {
        if (isApiError(e) && e.fields?.name) form.setError('name', { type: 'server', message: e.fields.name });
        else toast.error(actionErrorMessage(e, 'Could not save the view'));
      },
    ),
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-label={mode.kind === 'create' ? 'Save view' : 'Rename view'}>
      <Stack>
        {mode.kind === 'create' && (
          <Text size="sm" c="dimmed">
            Keeps the current search, filters, terminal and page size under a name, above the table.
          </Text>
        )}
        <TextInput
          label="Name"
          withAsterisk
          data-autofocus
          maxLength={SAVED_VIEW_NAME_MAX}
          error={
            errors.name?.message === 'Already used' ? 'You already have a view with this name' : errors.name?.message
          }
          {...form.register('name')}
        />
        {mode.kind === 'create' && (
          <Checkbox
            label="Share with my team"
            description="Everyone working on this merchant sees it; only you can change it."
            {...form.register('shared')}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={isSubmitting}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
