import { useState } from 'react';
import { Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { Role } from '@paydesk/contracts/team';
import { SCOPE_LABEL } from '../model/labels';
import { RoleDialog, type RoleDialogMode } from './role-dialog';

/** Roles: everyone who manages a team reads them; only platform staff create and edit custom roles. */
export function RolesTab({ roles, canEdit }: { roles: Role[]; canEdit: boolean }) {
  const [dialog, setDialog] = useState<RoleDialogMode | null>(null);
  const sorted = [...roles].sort(
    (a, b) => a.scope.localeCompare(b.scope) || Number(b.preset) - Number(a.preset) || a.name.localeCompare(b.name),
  );

  return (
    <Stack gap="md">
      {canEdit && (
        <Group justify="flex-end">
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setDialog({ kind: 'create' })}>
            New role
          </Button>
        </Group>
      )}
      <Table.ScrollContainer minWidth={760}>
        <Table verticalSpacing="sm" aria-label="Roles">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Role</Table.Th>
              <Table.Th>Scope</Table.Th>
              <Table.Th>Description</Table.Th>
              <Table.Th ta="right">Permissions</Table.Th>
              <Table.Th ta="right">Users</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sorted.map((r) => {
              const editable = canEdit && !r.preset;
              return (
                <Table.Tr key={r.id} aria-label={`Role ${r.name}`}>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Text size="sm" fw={500} style={{ whiteSpace: 'nowrap' }}>
                        {r.name}
                      </Text>
                      {r.preset && (
                        <Badge size="sm" variant="light" color="gray" c="dark.7" miw="max-content">
                          Preset
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Badge
                      size="sm"
                      variant="light"
                      color={r.scope === 'platform' ? 'indigo' : 'green'}
                      c="dark.7"
                      miw="max-content"
                    >
                      {SCOPE_LABEL[r.scope]}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c="dimmed">
                      {r.description || '—'}
                    </Text>
                  </Table.Td>
                  <Table.Td ta="right">{r.permissions.length}</Table.Td>
                  <Table.Td ta="right">{r.userCount}</Table.Td>
                  <Table.Td ta="right">
                    <Button
                      size="xs"
                      variant="subtle"
                      aria-label={`${editable ? 'Edit' : 'View'} ${r.name}`}
                      onClick={() => setDialog({ kind: editable ? 'edit' : 'view', role: r })}
                    >
                      {editable ? 'Edit' : 'View'}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <RoleDialog mode={dialog} onClose={() => setDialog(null)} />
    </Stack>
  );
}
