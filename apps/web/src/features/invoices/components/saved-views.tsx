import { Suspense, lazy, memo, useState } from 'react';
import { Link } from 'react-router';
import { ActionIcon, Button, Group, Menu, Text, Tooltip } from '@mantine/core';
import { IconBookmark, IconBookmarkPlus, IconDots, IconUsers } from '@tabler/icons-react';
import type { SavedView } from '@paydesk/contracts/saved-views';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { toast } from '../../../components/toast';
import { actionErrorMessage } from '../../../lib/api';
import { useFirstPaintHold } from '../../../lib/first-paint';
import { useDeleteView, useSavedViews, useUpdateView } from '../api/saved-views';
import { listStateOf, showsView, toSearchParams, viewStateOf, type ListState } from '../model/list-state';
import type { ViewDialogMode } from './view-dialog';

// the name form (react-hook-form, zod): loaded when a view is about to be saved or renamed, not with the list
const loadViewDialog = () => import('./view-dialog');
const LazyViewDialog = lazy(() => loadViewDialog().then((m) => ({ default: m.ViewDialog })));
const preloadViewDialog = () => void loadViewDialog().catch(() => undefined);

/** The save / rename dialog, mounted from its first opening on (so that it closes with its transition). */
function ViewDialog({ mode, onClose }: { mode: ViewDialogMode | null; onClose: () => void }) {
  const [used, setUsed] = useState(false);
  if (mode && !used) setUsed(true);
  if (!used && !mode) return null;
  return (
    <Suspense fallback={null}>
      <LazyViewDialog mode={mode} onClose={onClose} />
    </Suspense>
  );
}

type Props = {
  state: ListState;
  /** Opens a view: its terminal goes to the top bar too (the list follows the top bar's terminal). */
  onOpen: (view: SavedView) => void;
};

/** The "Save view" button of the list's toolbar. */
export const SaveViewButton = memo(function SaveViewButton({ state }: Pick<Props, 'state'>) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconBookmarkPlus size={16} aria-hidden />}
        onPointerEnter={preloadViewDialog}
        onFocus={preloadViewDialog}
        onClick={() => setOpen(true)}
      >
        Save view
      </Button>
      <ViewDialog mode={open ? { kind: 'create', state } : null} onClose={() => setOpen(false)} />
    </>
  );
});

/**
 * Saved views above the table: the caller's own first, then those the team shares. Each is a link to
 * the list's URL with its filters (so it opens in a new tab too); the one the list shows is marked.
 */
export const SavedViewsBar = memo(function SavedViewsBar({ state, onOpen }: Props) {
  const { data: views, isError } = useSavedViews();
  // the bar takes a row above the table when there are views: the first paint waits for it (lib/first-paint.ts)
  useFirstPaintHold(isError || views !== undefined);
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
                <Menu position="bottom-end" withinPortal onOpen={preloadViewDialog}>
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
});
