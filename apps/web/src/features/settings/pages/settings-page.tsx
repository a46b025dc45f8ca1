import { Card, NavLink, Stack, Text } from '@mantine/core';
import { IconChevronRight, IconKey } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageTitle } from '../../../components/page-title';
import { ROUTES } from '../../../lib/routes';

export default function SettingsPage() {
  return (
    <>
      <PageTitle title="Settings" />
      <Card withBorder maw={560} p={0}>
        <Stack gap={0}>
          <NavLink
            component={Link}
            to={ROUTES.ChangePassword}
            label="Change password"
            description={
              <Text size="xs" c="dimmed">
                Set a new password for your account
              </Text>
            }
            leftSection={<IconKey size={20} stroke={1.6} aria-hidden />}
            rightSection={<IconChevronRight size={16} aria-hidden />}
            py="md"
          />
        </Stack>
      </Card>
    </>
  );
}
