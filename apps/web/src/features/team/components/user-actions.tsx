import { useState } from 'react';
import { ActionIcon, Button, Group, Menu, Modal, Select, Stack, Text } from '@mantine/core';
import { IconDots, IconKey, IconShieldCheck, IconShieldOff, IconUserCheck, IconUserOff } from '@tabler/icons-react';
import type { Role, TeamUser } from '@paydesk/contracts/team';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { toast } from '../../../components/toast';
import { actionErrorMessage } from '../../../lib/api';
import { useCurrentUser } from '../../../lib/session';
import {
  useChangeUserRole,
  useResetPassword,
  useResetTwoFactor,
  useSetUserDisabled,
  type UserWithPassword,
} from '../api/team-users';
import { canResetTwoFactor } from '../model/two-factor';
import { OneTimePassword } from './one-time-password';

type Dialog = 'role' | 'status' | 'reset' | 'two-factor' | null;

const fullName = (u: TeamUser) => `${u.firstName} ${u.lastName}`.trim() || u.username;

/**
 * Change role, disable or enable, reset password, reset two-factor sign-in: each after a dialog, each refused by
 * the server if not allowed.
 */
export function UserActions({ user, roles, isSelf }: { user: TeamUser; roles: Role[]; isSelf: boolean }) {
  const [dialog, setDialog] = useState<Dialog>(null);
  const [password, setPassword] = useState<UserWithPassword | null>(null);
  const setDisabled = useSetUserDisabled();
  const reset = useResetPassword();
  const resetTwoFactor = useResetTwoFactor();
  const mayResetTwoFactor = canResetTwoFactor(useCurrentUser(), user);
  const name = fullName(user);
  const close = () => setDialog(null);

  return (
    <>
      <Menu position="bottom-end" withinPortal shadow="md">
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${user.username}`}>
            <IconDots size={18} aria-hidden />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {/* your own role and access are changed by someone else, never by yourself */}
          {!isSelf && (
            <Menu.Item leftSection={<IconShieldCheck size={16} aria-hidden />} onClick={() => setDialog('role')}>
              Change role
            </Menu.Item>
          )}
          <Menu.Item leftSection={<IconKey size={16} aria-hidden />} onClick={() => setDialog('reset')}>
            Reset password
          </Menu.Item>
          {mayResetTwoFactor && (
            <Menu.Item leftSection={<IconShieldOff size={16} aria-hidden />} onClick={() => setDialog('two-factor')}>
              Reset two-factor sign-in
            </Menu.Item>
          )}
          {!isSelf &&
            (user.disabled ? (
              <Menu.Item leftSection={<IconUserCheck size={16} aria-hidden />} onClick={() => setDialog('status')}>
                Enable
              </Menu.Item>
            ) : (
              <Menu.Item
                // the theme's AA red text: Menu.Item's own color prop paints shade 6 (3.3:1 on white)
                c="red"
                leftSection={<IconUserOff size={16} aria-hidden />}
                onClick={() => setDialog('status')}
              >
                Disable
              </Menu.Item>
            ))}
        </Menu.Dropdown>
      </Menu>

      <ChangeRoleDialog opened={dialog === 'role'} user={user} roles={roles} onClose={close} />

      <ConfirmDialog
        opened={dialog === 'status'}
        title={user.disabled ? 'Enable user' : 'Disable user'}
        message={
          user.disabled
            ? `Enable ${name}? They can sign in again.`
            : `Disable ${name}? They are signed out at once and cannot sign in until enabled again.`
        }
        confirmLabel={user.disabled ? 'Enable' : 'Disable'}
        danger={!user.disabled}
        loading={setDisabled.isPending}
        onCancel={close}
        onConfirm={() =>
          setDisabled.mutate(
            { id: user.id, disabled: !user.disabled },
            {
              onSuccess: (u) => toast.success(u.disabled ? `${name} is disabled` : `${name} is enabled`),
              onError: (e) => toast.error(actionErrorMessage(e, 'Could not change the user')),
              onSettled: close,
            },
          )
        }
      />

      <ConfirmDialog
        opened={dialog === 'reset'}
        title="Reset password"
        message={`Reset the password of ${name}? Their sessions end and they sign in with a one-time password, which they must change.`}
        confirmLabel="Reset password"
        danger
        loading={reset.isPending}
        onCancel={close}
        onConfirm={() =>
          reset.mutate(user.id, {
            onSuccess: setPassword,
            onError: (e) => toast.error(actionErrorMessage(e, 'Could not reset the password')),
            onSettled: close,
          })
        }
      />

      <ConfirmDialog
        opened={dialog === 'two-factor'}
        title="Reset two-factor sign-in"
        message={`Reset two-factor sign-in of ${name}? Their authenticator app and recovery codes stop working and their sessions end at once. They sign in with their password only and set up two-factor sign-in again (right away if it is required for them).`}
        confirmLabel="Reset two-factor sign-in"
        danger
        loading={resetTwoFactor.isPending}
        onCancel={close}
        onConfirm={() =>
          resetTwoFactor.mutate(user.id, {
            onSuccess: () => toast.success(`Two-factor sign-in of ${name} is reset`),
            onError: (e) => toast.error(actionErrorMessage(e, 'Could not reset two-factor sign-in')),
            onSettled: close,
          })
        }
      />

      <Modal
        opened={password !== null}
        onClose={() => setPassword(null)}
        title="Password reset"
        size="lg"
        centered
        closeOnClickOutside={false}
      >
        {password && <OneTimePassword result={password} />}
        <Group justify="flex-end" mt="lg">
          <Button onClick={() => setPassword(null)}>Done</Button>
        </Group>
      </Modal>
    </>
  );
}

function ChangeRoleDialog({
  opened,
  user,
  roles,
  onClose,
}: {
  opened: boolean;
  user: TeamUser;
  roles: Role[];
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Change role" centered>
      {opened && <ChangeRoleForm user={user} roles={roles} onClose={onClose} />}
    </Modal>
  );
}

function ChangeRoleForm({ user, roles, onClose }: { user: TeamUser; roles: Role[]; onClose: () => void }) {
  const change = useChangeUserRole();
  const [roleId, setRoleId] = useState<string | null>(String(user.role.id));
  // only roles of the user's own scope that the caller holds every permission of
  const options = roles
    .filter((r) => r.scope === user.scope && (r.assignable || r.id === user.role.id))
    .map((r) => ({ value: String(r.id), label: r.name, disabled: !r.assignable }));

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (!roleId) return;
        change.mutate(
          { id: user.id, roleId: Number(roleId) },
          {
            onSuccess: (u) => {
              toast.success(`${fullName(u)} is now ${u.role.name}`);
              onClose();
            },
            onError: (err) => toast.error(actionErrorMessage(err, 'Could not change the role')),
          },
        );
      }}
    >
      <Stack>
        <Text size="sm">
          {fullName(user)} ({user.username}) has the role <b>{user.role.name}</b>. The new role applies from their next
          request.
        </Text>
        <Select
          label="Role"
          data={options}
          value={roleId}
          onChange={setRoleId}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={change.isPending} disabled={!roleId || roleId === String(user.role.id)}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
