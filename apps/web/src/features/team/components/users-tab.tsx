import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Center,
  Group,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch, IconUserPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { formatDateLong } from '@paydesk/contracts/dates';
import type { Role, TeamUser, UserListQuery } from '@paydesk/contracts/team';
import { SectionLoader } from '../../../components/full-page-loader';
import { currentMerchantQuery, merchantsQuery, useCurrentMerchantId } from '../../../lib/merchant';
import { useCan, useCurrentUser } from '../../../lib/session';
import { useTeamUsers } from '../api/team-users';
import { PLATFORM_STAFF } from '../model/labels';
import { policyMerchantId } from '../model/two-factor';
import { NewUserDialog } from './new-user-dialog';
import { TwoFactorPolicy } from './two-factor-policy';
import { UserActions } from './user-actions';

const ALL_USERS = 'all';
/** The actions stay in reach when a narrow screen scrolls the table sideways. */
const STICKY_END = {
  position: 'sticky',
  right: 0,
  background: 'var(--mantine-color-body)',
  boxShadow: 'inset 1px 0 0 var(--mantine-color-gray-2)',
} as const;
const SEARCH_DEBOUNCE_MS = 300;

/** The team: platform staff see everyone and filter by merchant; a merchant's staff see their own team. */
export function UsersTab({ roles }: { roles: Role[] }) {
  const me = useCurrentUser();
  const isPlatform = me.scope === 'platform';
  const canListMerchants = useCan('merchant.rw.all') && isPlatform;
  const merchants = useQuery({ ...merchantsQuery, enabled: canListMerchants });
  // a merchant user's own merchant (its name and policy); the policy alone is also on the user (me.twoFactor)
  const canReadMerchant = useCan('merchant.read');
  const ownMerchant = useQuery({ ...currentMerchantQuery(null), enabled: !isPlatform && canReadMerchant });
  const pickedMerchant = useCurrentMerchantId();
  const [filter, setFilter] = useState<string>(ALL_USERS);
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [creating, setCreating] = useState(false);

  const query: UserListQuery = {
    ...(isPlatform && filter !== ALL_USERS ? { merchant: filter } : {}),
    ...(debouncedSearch ? { search: debouncedSearch } : {}),
  };
  const users = useTeamUsers(query);
  const merchantList = merchants.data?.data ?? [];
  const initialMerchantId = !isPlatform
    ? undefined
    : filter === PLATFORM_STAFF
      ? null
      : filter !== ALL_USERS
        ? filter
        : (merchantList.find((m) => m.id === pickedMerchant)?.id ?? null);
  const policyMerchant = policyMerchantId(
    me,
    isPlatform && filter !== ALL_USERS && filter !== PLATFORM_STAFF ? filter : null,
  );
  const policyOf = isPlatform ? merchantList.find((m) => m.id === policyMerchant) : ownMerchant.data;
  // platform staff see it once the picked merchant is known; a merchant's staff at once (their own policy is on me)
  const showPolicy = policyMerchant !== null && (!isPlatform || policyOf !== undefined);

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm" wrap="wrap" style={{ flex: '1 1 320px' }}>
          <TextInput
            aria-label="Search users"
            placeholder="Name or username"
            leftSection={<IconSearch size={16} aria-hidden />}
            value={search}
            maxLength={100}
            onChange={(e) => setSearch(e.currentTarget.value)}
            style={{ flex: '1 1 180px', maxWidth: 320 }}
          />
          {isPlatform && (
            <Select
              aria-label="Show"
              data={[
                { value: ALL_USERS, label: 'All users' },
                { value: PLATFORM_STAFF, label: 'Platform staff' },
                ...merchantList.map((m) => ({ value: m.id, label: m.name })),
              ]}
              value={filter}
              onChange={(v) => setFilter(v ?? ALL_USERS)}
              allowDeselect={false}
              searchable={merchantList.length > 8}
              style={{ flex: '1 1 160px', maxWidth: 240 }}
            />
          )}
        </Group>
        <Button leftSection={<IconUserPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
          New user
        </Button>
      </Group>

      {showPolicy && (
        <TwoFactorPolicy
          merchantId={policyMerchant}
          merchantName={policyOf?.name ?? null}
          required={policyOf?.requireTwoFactor ?? me.twoFactor.required}
          ownTeam={!isPlatform}
        />
      )}

      {users.isPending ? (
        <SectionLoader label="Loading users" />
      ) : users.isError ? (
        <Alert color="red" title="Could not load the team">
          {users.error.message}
        </Alert>
      ) : users.data.length === 0 ? (
        <Center py="xl">
          <Text c="dimmed">Nothing found</Text>
        </Center>
      ) : (
        <div style={{ opacity: users.isPlaceholderData ? 0.6 : 1 }} aria-busy={users.isPlaceholderData}>
          <UserTable users={users.data} roles={roles} showMerchant={isPlatform} myId={me.id} />
        </div>
      )}

      <NewUserDialog
        opened={creating}
        onClose={() => setCreating(false)}
        roles={roles}
        merchants={isPlatform ? merchantList : null}
        initialMerchantId={initialMerchantId}
      />
    </Stack>
  );
}

function UserTable({
  users,
  roles,
  showMerchant,
  myId,
}: {
  users: TeamUser[];
  roles: Role[];
  showMerchant: boolean;
  myId: string;
}) {
  return (
    <Table.ScrollContainer minWidth={showMerchant ? 820 : 680}>
      <Table verticalSpacing="sm" highlightOnHover aria-label="Users">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            {showMerchant && <Table.Th>Merchant</Table.Th>}
            <Table.Th>Role</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>
              <abbr title="Two-factor sign-in" style={{ textDecoration: 'none' }}>
                2FA
              </abbr>
            </Table.Th>
            <Table.Th>Last sign-in (UTC)</Table.Th>
            <Table.Th w={48} style={STICKY_END}>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users.map((u) => (
            <Table.Tr key={u.id} aria-label={`User ${u.username}`}>
              <Table.Td>
                <Text size="sm" fw={500}>
                  {u.firstName} {u.lastName}
                  {u.id === myId && (
                    <Text span size="xs" c="dimmed">
                      {' '}
                      (you)
                    </Text>
                  )}
                </Text>
                <Text size="xs" c="dimmed" ff="monospace">
                  {u.username}
                </Text>
              </Table.Td>
              {showMerchant && (
                <Table.Td>
                  {u.merchantName ?? (
                    <Badge variant="light" color="indigo" c="dark.7" size="sm" miw="max-content">
                      Platform
                    </Badge>
                  )}
                </Table.Td>
              )}
              <Table.Td>
                <Text size="sm">{u.role.name}</Text>
              </Table.Td>
              <Table.Td>
                <Group gap={4} wrap="wrap">
                  <Badge variant="dot" color={u.disabled ? 'gray' : 'green'} c="dark.7" size="sm" miw="max-content">
                    {u.disabled ? 'Disabled' : 'Enabled'}
                  </Badge>
                  {u.mustChangePassword && !u.disabled && (
                    <Badge variant="outline" color="yellow.9" c="dark.7" size="sm" miw="max-content">
                      One-time password
                    </Badge>
                  )}
                </Group>
              </Table.Td>
              <Table.Td>
                <Badge
                  variant={u.twoFactorEnabled ? 'light' : 'outline'}
                  color={u.twoFactorEnabled ? 'teal' : 'gray'}
                  c="dark.7"
                  size="sm"
                  miw="max-content"
                >
                  {u.twoFactorEnabled ? 'On' : 'Off'}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Text size="sm" c={u.lastSignInAt ? undefined : 'dimmed'} style={{ whiteSpace: 'nowrap' }}>
                  {u.lastSignInAt ? formatDateLong(u.lastSignInAt) : 'Never'}
                </Text>
              </Table.Td>
              <Table.Td style={STICKY_END}>
                <UserActions user={u} roles={roles} isSelf={u.id === myId} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
