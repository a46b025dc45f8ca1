import { ActionIcon, Avatar, Burger, Group, Text, Tooltip } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { Link, useMatch } from 'react-router';
import { AutoRetryToggle } from '../../features/settings/components/auto-retry-toggle';
import { ROUTES } from '../../lib/routes';
import { useCan, useCurrentUser } from '../../lib/session';
import { MerchantPicker } from './merchant-picker';
import { TerminalSelect } from './terminal-select';
import { UtcClock } from './utc-clock';

type Props = { navOpened: boolean; onToggleNav: () => void };

/** Top bar of SPEC §2: merchant picker, terminal selector (invoices, reports), auto retry, clock, user. */
export function TopBar({ navOpened, onToggleNav }: Props) {
  const me = useCurrentUser();
  // with a one-time password the server answers nothing but Change password: no merchant-bound controls
  const working = !me.mustChangePassword;
  const canPickMerchant = useCan('merchant.rw.all') && working;
  const canReadSettings = useCan('settings.read') && working;
  const onInvoices = useMatch(ROUTES.Invoices);
  const onReports = useMatch(ROUTES.Reports);
  const fullName = `${me.personal.firstName} ${me.personal.lastName}`.trim() || me.username;
  const initials = `${me.personal.firstName.charAt(0)}${me.personal.lastName.charAt(0)}`.toUpperCase();

  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="md">
      <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
        <Burger opened={navOpened} onClick={onToggleNav} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
        {canPickMerchant && <MerchantPicker />}
        {working && (onInvoices || onReports) && <TerminalSelect />}
      </Group>

      <Group gap="lg" wrap="nowrap">
        {canReadSettings && <AutoRetryToggle />}
        {working && (
          <Tooltip label="Notifications">
            <ActionIcon
              component={Link}
              to={ROUTES.Notifications}
              variant="subtle"
              color="gray"
              size="lg"
              aria-label="Notifications"
            >
              <IconBell size={20} stroke={1.6} aria-hidden />
            </ActionIcon>
          </Tooltip>
        )}
        <UtcClock />
        <Group gap="xs" wrap="nowrap" visibleFrom="xs">
          <Avatar size={32} radius="xl" color="blue" aria-hidden>
            {initials}
          </Avatar>
          <Text fw={500} size="sm" data-testid="current-user-name">
            {fullName}
          </Text>
        </Group>
      </Group>
    </Group>
  );
}
