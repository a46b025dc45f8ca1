import {
  Button,
  Checkbox,
  Group,
  Modal,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  MERCHANT_PERMISSIONS,
  PLATFORM_PERMISSIONS,
  ROLE_SCOPES,
  isPlatformPermission,
  type Permission,
  type RoleScope,
} from '@paydesk/contracts/permissions';
import { roleCreateBody, type Role } from '@paydesk/contracts/team';
import { toast } from '../../../components/toast';
import { actionErrorMessage, isApiError } from '../../../lib/api';
import { usePermissions } from '../../../lib/session';
import { useSaveRole } from '../api/roles';
import { SCOPE_LABEL, permissionLabel } from '../model/labels';

/** What the dialog does: create a custom role, edit one, or only show a role (presets, merchant staff). */
export type RoleDialogMode = { kind: 'create' } | { kind: 'edit'; role: Role } | { kind: 'view'; role: Role };

export function RoleDialog({ mode, onClose }: { mode: RoleDialogMode | null; onClose: () => void }) {
  const title =
    mode?.kind === 'create'
      ? 'New role'
      : mode?.kind === 'edit'
        ? `Edit role ${mode.role.name}`
        : (mode?.role.name ?? '');
  return (
    <Modal opened={mode !== null} onClose={onClose} title={title} size="xl" centered>
      {mode && <RoleForm mode={mode} onClose={onClose} />}
    </Modal>
  );
}

function RoleForm({ mode, onClose }: { mode: RoleDialogMode; onClose: () => void }) {
  const held = usePermissions();
  const save = useSaveRole();
  const role = mode.kind === 'create' ? null : mode.role;
  const readOnly = mode.kind === 'view';
  // A role's scope never changes once created; its permissions must fit it (docs/architecture.md, "Who is who").
  const form = useForm({
    resolver: zodResolver(roleCreateBody),
    defaultValues: {
      name: role?.name ?? '',
      scope: role?.scope ?? ('merchant' as RoleScope),
      description: role?.description ?? '',
      permissions: role ? [...role.permissions] : ([] as Permission[]),
    },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors } = form.formState;
  const scope = useWatch({ control: form.control, name: 'scope' });

  const onSubmit = form.handleSubmit(({ name, scope: s, description, permissions }) =>
    save
      .mutateAsync(
        role
          ? { id: role.id, body: { name, description, permissions } }
          : { id: null, body: { name, scope: s, description, permissions } },
      )
      .then(
        (saved) => {
          toast.success(role ? `Role ${saved.name} saved` : `Role ${saved.name} created`);
          onClose();
        },
        (e: unknown) => {
          toast.error(actionErrorMessage(e, 'Could not save the role'));
          if (isApiError(e) && e.fields)
            for (const key of ['name', 'description', 'permissions'] as const)
              if (e.fields[key]) form.setError(key, { type: 'server', message: e.fields[key] });
        },
      ),
  );

  /** A permission can be ticked only if the role's scope may hold it and the caller holds it too. */
  const locked = (p: Permission) => readOnly || (scope === 'merchant' && isPlatformPermission(p)) || !held.includes(p);

  return (
    <form onSubmit={onSubmit} noValidate aria-label={readOnly ? `Role ${role?.name ?? ''}` : 'Role'}>
      <Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Name"
            withAsterisk={!readOnly}
            readOnly={readOnly}
            data-autofocus
            error={errors.name?.message}
            {...form.register('name')}
          />
          <div>
            <Text size="sm" fw={500} mb={4} id="role-scope-label">
              Scope
            </Text>
            {mode.kind === 'create' ? (
              <Controller
                control={form.control}
                name="scope"
                render={({ field }) => (
                  <SegmentedControl
                    aria-labelledby="role-scope-label"
                    fullWidth
                    data={ROLE_SCOPES.map((s) => ({ value: s, label: SCOPE_LABEL[s] }))}
                    value={field.value}
                    onChange={(v) => {
                      const next = v as RoleScope;
                      field.onChange(next);
                      // a merchant role cannot hold platform permissions: drop them at once
                      if (next === 'merchant')
                        form.setValue(
                          'permissions',
                          form.getValues('permissions').filter((p) => !isPlatformPermission(p)),
                        );
                    }}
                  />
                )}
              />
            ) : (
              <Text size="sm" py={6}>
                {SCOPE_LABEL[scope]} (cannot be changed)
              </Text>
            )}
          </div>
        </SimpleGrid>
        <Textarea
          label="Description"
          readOnly={readOnly}
          autosize
          minRows={2}
          maxRows={4}
          error={errors.description?.message}
          {...form.register('description')}
        />

        <Controller
          control={form.control}
          name="permissions"
          render={({ field }) => (
            <Stack gap="sm">
              {!readOnly && (
                <Text size="sm" c="dimmed">
                  You can grant only permissions you hold yourself
                  {scope === 'merchant' ? '; a merchant role holds no platform permission' : ''}.
                </Text>
              )}
              <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
                {(
                  [
                    ['Platform permissions', PLATFORM_PERMISSIONS],
                    ['Merchant permissions', MERCHANT_PERMISSIONS],
                  ] as const
                ).map(([label, list]) => (
                  <Checkbox.Group
                    key={label}
                    label={label}
                    value={field.value}
                    onChange={(v) => field.onChange(v as Permission[])}
                  >
                    <Stack gap={6} mt="xs">
                      {list.map((p) => (
                        <Checkbox key={p} value={p} label={permissionLabel(p)} disabled={locked(p)} size="sm" />
                      ))}
                    </Stack>
                  </Checkbox.Group>
                ))}
              </SimpleGrid>
              {errors.permissions?.message && (
                <Text size="sm" c="red.8" role="alert">
                  {errors.permissions.message}
                </Text>
              )}
            </Stack>
          )}
        />

        <Group justify="flex-end">
          {readOnly ? (
            <Button onClick={onClose}>Close</Button>
          ) : (
            <>
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" loading={save.isPending}>
                {role ? 'Save' : 'Create role'}
              </Button>
            </>
          )}
        </Group>
      </Stack>
    </form>
  );
}
