import { useState } from 'react';
import { Link } from 'react-router';
import { ActionIcon, Button, Checkbox, Group, Menu, Modal, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { IconBookmark, IconBookmarkPlus, IconDots, IconUsers } from '@tabler/icons-react';
import { SAVED_VIEW_NAME_MAX, savedViewCreateBody, type SavedView } from '@paydesk/contracts/saved-views';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { toast } from '../../../components/toast';
import { actionErrorMessage, isApiError } from '../../../lib/api';
import { useCreateView, useDeleteView, useSavedViews, useUpdateView } from '../api/saved-views';
import { listStateOf, showsView, toSearchParams, viewStateOf, type ListState } from '../model/list-state';

type Props = {
  state: ListState;
  /** Opens a view: its terminal goes to the top bar too (the list follows the top bar's terminal). */
  onOpen: (view: SavedView) => void;
};

/** The "Save view" button of the list's toolbar. */
export function SaveViewButton({ state }: Pick<Props, 'state'>) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="default" leftSection={<IconBookmarkPlus size={16} aria-hidden />} onClick={() => setOpen(true)}>
        Save view
      </Button>
      <ViewDialog mode={open ? { kind: 'create', state } : null} onClose={() => setOpen(false)} />
    </>
  );
}

/**
 * Saved views above the table: the caller's own first, then those the team shares. Each is a link to
 * the list's URL with its filters (so it opens in a new tab too); the one the list shows is marked.
 */
export function SavedViewsBar({ state, onOpen }: Props) {
  const { data: views } = useSavedViews();
  const [dialog, setDialog] = useState<ViewDialogMode | null>(null);
  const [deleting, setDeleting] = useState<SavedView | null>(null);
  const update = useUpdateView();
  const remove = useDeleteView();
  if (!views?.length) return null;

  const saveHere = (v: SavedView) =>
    update.mutateAsync({ id: v.id, state: viewStateOf(state) }).then(
      () => toast.success(`View ${v.name} now keeps the current filters`),
      (e: unknown) => toast.error(actionErrorMessage(e, 'Could not save the view')),
    );
  const toggleShare = (v: SavedView) =>
    update.mutateAsync({ id: v.id, shared: !v.shared }).then(
      () => toast.success(v.shared ? `View ${v.name} is private now` : `View ${v.name} is shared with your team`),
      (e: unknown) => toast.error(actionErrorMessage(e, 'Could not change the view')),
    );

  return (
    <nav aria-label="Saved views">
      <Group gap="xs" mb="md" wrap="wrap">
        {views.map((v) => {
          const active = showsView(state, v.state);
          const manage = v.mine || v.canDelete;
          return (
            <Group key={v.id} gap={0} wrap="nowrap" data-testid="saved-view">
              <Tooltip
                label={v.mine ? (v.shared ? 'Shared with your team' : 'Only you see it') : `Shared by ${v.owner.name}`}
                openDelay={400}
              >
                <Button
                  component={Link}
                  to={`?${toSearchParams(listStateOf(v.state)).toString()}`}
                  onClick={() => onOpen(v)}
                  aria-current={active ? 'true' : undefined}
                  size="xs"
                  radius="xl"
                  variant={active ? 'filled' : 'light'}
                  leftSection={
                    v.shared ? <IconUsers size={14} aria-label="shared" /> : <IconBookmark size={14} aria-hidden />
                  }
                  style={{
                    maxWidth: 240,
                    ...(manage ? { borderTopRightRadius: 0, borderBottomRightRadius: 0 } : {}),
                  }}
                >
                  <Text span inherit truncate="end">
                    {v.name}
                  </Text>
                </Button>
              </Tooltip>
              {manage && (
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <ActionIcon
                      size={30}
                      radius="xl"
                      variant={active ? 'filled' : 'light'}
                      aria-label={`Actions of view ${v.name}`}
                      style={{ borderTopLeftRadius: 0, borderBottomLeftRadius: 0 }}
                    >
                      <IconDots size={14} aria-hidden />
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    {v.mine && (
                      <>
                        <Menu.Item disabled={active} onClick={() => void saveHere(v)}>
                          Keep the current filters
                        </Menu.Item>
                        <Menu.Item onClick={() => setDialog({ kind: 'rename', view: v })}>Rename</Menu.Item>
                        <Menu.Item onClick={() => void toggleShare(v)}>
                          {v.shared ? 'Stop sharing' : 'Share with my team'}
                        </Menu.Item>
                      </>
                    )}
                    {v.canDelete && (
                      <Menu.Item color="red" onClick={() => setDeleting(v)}>
                        Delete
                      </Menu.Item>
                    )}
                  </Menu.Dropdown>
                </Menu>
              )}
            </Group>
          );
        })}
      </Group>
      <ViewDialog mode={dialog} onClose={() => setDialog(null)} />
      <ConfirmDialog
        opened={deleting !== null}
        title="Delete view"
        message={
          deleting && !deleting.mine
            ? `Delete ${deleting.name}, shared by ${deleting.owner.name}? Nobody on your team will see it any more.`
            : `Delete ${deleting?.name ?? ''}?${deleting?.shared ? ' Your team will not see it any more.' : ''}`
        }
        confirmLabel="Delete"
        danger
        loading={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutateAsync(deleting.id).then(
            () => {
              toast.success(`View ${deleting.name} deleted`);
              setDeleting(null);
            },
            (e: unknown) => toast.error(actionErrorMessage(e, 'Could not delete the view')),
          )
        }
      />
    </nav>
  );
}

type ViewDialogMode = { kind: 'create'; state: ListState } | { kind: 'rename'; view: SavedView };

const nameForm = savedViewCreateBody.pick({ name: true }).extend({ shared: z.boolean() });
type NameForm = z.infer<typeof nameForm>;

function ViewDialog({ mode, onClose }: { mode: ViewDialogMode | null; onClose: () => void }) {
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
