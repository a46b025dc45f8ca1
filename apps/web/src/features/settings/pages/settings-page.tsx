import { Card, NavLink, Stack, Text } from '@mantine/core';
import { IconChevronRight, IconKey, IconShieldLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageTitle } from '../../../components/page-title';
import { PAGES } from '../../../lib/pages';
import { useCurrentUser } from '../../../lib/session';

export default function SettingsPage() {
  const { twoFactor } = useCurrentUser();
  return (
    <>
      <PageTitle title="Settings" />
      <Card withBorder maw={560} p={0}>
        <Stack gap={0}>
          <NavLink
            component={Link}
            to={PAGES.ChangePassword}
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
          <NavLink
            component={Link}
            to={PAGES.TwoFactor}
            label="Two-factor sign-in"
            description={
              <Text size="xs" c="dimmed">
                {twoFactor.enabled
                  ? 'On: sign-in asks for a code from your authenticator app'
                  : 'Off: add a code from an authenticator app to your sign-in'}
              </Text>
            }
            leftSection={<IconShieldLock size={20} stroke={1.6} aria-hidden />}
            rightSection={<IconChevronRight size={16} aria-hidden />}
            py="md"
            style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}
          />
        </Stack>
      </Card>
    </>
  );
}
