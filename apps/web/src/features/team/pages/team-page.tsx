import { Alert, Paper, Tabs } from '@mantine/core';
import { IconChecklist, IconShieldCheck, IconUsers } from '@tabler/icons-react';
import { SectionLoader } from '../../../components/full-page-loader';
import { PageTitle } from '../../../components/page-title';
import { useCurrentUser } from '../../../lib/session';
import { useRoles } from '../api/roles';
import { PoliciesTab } from '../components/policies-tab';
import { RolesTab } from '../components/roles-tab';
import { UsersTab } from '../components/users-tab';

/**
 * Team (users.manage): users, roles, and which actions need a second person's approval. The server decides what each
 * caller may see and give.
 */
export default function TeamPage() {
  const me = useCurrentUser();
  const roles = useRoles();

  return (
    <>
      <PageTitle title="Team" />
      <Paper withBorder radius="md" p="md">
        {roles.isPending ? (
          <SectionLoader label="Loading roles" />
        ) : roles.isError ? (
          <Alert color="red" title="Could not load the roles">
            {roles.error.message}
          </Alert>
        ) : (
          <Tabs defaultValue="users" keepMounted={false}>
            <Tabs.List mb="md">
              <Tabs.Tab value="users" leftSection={<IconUsers size={16} aria-hidden />}>
                Users
              </Tabs.Tab>
              <Tabs.Tab value="roles" leftSection={<IconShieldCheck size={16} aria-hidden />}>
                Roles
              </Tabs.Tab>
              <Tabs.Tab value="policies" leftSection={<IconChecklist size={16} aria-hidden />}>
                Policies
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="users">
              <UsersTab roles={roles.data} />
            </Tabs.Panel>
            <Tabs.Panel value="roles">
              <RolesTab roles={roles.data} canEdit={me.scope === 'platform'} />
            </Tabs.Panel>
            <Tabs.Panel value="policies">
              <PoliciesTab />
            </Tabs.Panel>
          </Tabs>
        )}
      </Paper>
    </>
  );
}
