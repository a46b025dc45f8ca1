import { ActionIcon, Avatar, Burger, Group, Indicator, Text, Tooltip } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { Link, useMatch } from 'react-router';
import { AutoRetryToggle } from '../../features/settings/components/auto-retry-toggle';
import { useNotificationCount } from '../../lib/notification-count';
import { PAGES } from '../../lib/pages';
import { useCan, useCurrentUser } from '../../lib/session';
import { MerchantPicker } from './merchant-picker';
import { TerminalSelect } from './terminal-select';
import { UtcClock } from './utc-clock';
import classes from './top-bar.module.css';

/** Which selects choosing the data in view the top bar holds: they take a row of their own on narrow screens. */
export function useScopeControls() {
  const me = useCurrentUser();
  // with a one-time password the server answers nothing but Change password: no merchant-bound controls
  const working = !me.mustChangePassword;
  const merchant = useCan('merchant.rw.all') && working;
  const onInvoices = useMatch(PAGES.Invoices);
  const onReports = useMatch(PAGES.Reports);
  const terminal = working && Boolean(onInvoices || onReports);
  return { merchant, terminal, any: merchant || terminal };
}

type Props = { navOpened: boolean; onToggleNav: () => void };

/** The top bar: merchant picker, terminal selector (invoices, reports), auto retry, clock, user. */
export function TopBar({ navOpened, onToggleNav }: Props) {
  const me = useCurrentUser();
  const working = !me.mustChangePassword;
  const scope = useScopeControls();
  const canReadSettings = useCan('settings.read') && working;
  const fullName = `${me.personal.firstName} ${me.personal.lastName}`.trim() || me.username;
  const initials = `${me.personal.firstName.charAt(0)}${me.personal.lastName.charAt(0)}`.toUpperCase();

  return (
    <div className={classes.bar} data-rows={scope.any ? 2 : 1}>
      <Burger
        className={classes.burger}
        opened={navOpened}
        onClick={onToggleNav}
        hiddenFrom="lg"
        size="sm"
        aria-label="Toggle navigation"
        aria-expanded={navOpened}
      />
      {scope.any && (
        <div className={classes.scope}>
          {scope.merchant && <MerchantPicker />}
          {scope.terminal && <TerminalSelect />}
        </div>
      )}
      <div className={classes.tools}>
        {canReadSettings && <AutoRetryToggle />}
        {working && <NotificationBell />}
        <UtcClock />
        <Group gap="xs" wrap="nowrap">
          <Avatar size={32} radius="xl" color="blue" aria-hidden>
            {initials}
          </Avatar>
          <Text fw={500} size="sm" data-testid="current-user-name" style={{ whiteSpace: 'nowrap' }}>
            {fullName}
          </Text>
        </Group>
      </div>
    </div>
  );
}

/** The bell: opens Notifications, with how many alerts are In process for this user (none shown when none). */
function NotificationBell() {
  const count = useNotificationCount();
  const label = count ? `Notifications: ${count} in process` : 'Notifications';
  return (
    <Tooltip label={label}>
      <Indicator
        label={count && count > 99 ? '99+' : count}
        disabled={!count}
        color="red"
        size={16}
        offset={6}
        inline
        data-testid="notification-count"
      >
        <ActionIcon
          component={Link}
          to={PAGES.Notifications}
          variant="subtle"
          color="gray"
          size="lg"
          aria-label={label}
        >
          <IconBell size={20} stroke={1.6} aria-hidden />
        </ActionIcon>
      </Indicator>
    </Tooltip>
  );
}
