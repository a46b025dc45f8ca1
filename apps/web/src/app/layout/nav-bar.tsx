import { Fragment, useState, type ComponentType } from 'react';
import {
  AppShell,
  Badge,
  Box,
  CloseButton,
  Group,
  NavLink,
  ScrollArea,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import {
  IconActivity,
  IconAlertTriangle,
  IconBuildingStore,
  IconChecklist,
  IconExternalLink,
  IconHistory,
  IconLayoutDashboard,
  IconLifebuoy,
  IconLogout,
  IconReportAnalytics,
  IconSettings,
  IconTerminal2,
  IconUserShield,
  IconUsers,
  type IconProps,
} from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { canSeeMonitoring, hasPermission } from '@paydesk/contracts/permissions';
import { PAGES, SUPPORT_URL } from '../../lib/pages';
import { useCurrentUser } from '../../lib/session';
import { Logo } from '../../components/logo';
import { useLogout } from '../../lib/use-logout';
import { useDeskNavQueues, type DeskNavQueue } from '../../lib/desk-count';
import { mayDecideApprovals, useApprovalCount } from '../../lib/approvals';

type NavEntry = {
  label: string;
  to: string;
  icon: ComponentType<IconProps>;
  visible: (perms: readonly string[]) => boolean;
  /** a hook giving the count shown beside the label (what waits for a person) */
  useCount?: () => number | undefined;
  /** a hook giving the entry's queues, listed under it as links of their own, each with its count */
  useQueues?: () => DeskNavQueue[];
};

/** The navigation entries with the permissions that show them. */
const ENTRIES: NavEntry[] = [
  { label: 'Dashboard', to: PAGES.Invoices, icon: IconLayoutDashboard, visible: () => true },
  {
    label: 'Reports',
    to: PAGES.Reports,
    icon: IconReportAnalytics,
    visible: (p) => hasPermission(p, 'merchant.read.report'),
  },
  {
    label: 'Merchant',
    to: PAGES.Merchant,
    icon: IconBuildingStore,
    visible: (p) => hasPermission(p, 'merchant.read'),
  },
  { label: 'Terminals', to: PAGES.Terminals, icon: IconTerminal2, visible: () => true },
  { label: 'Accounts', to: PAGES.Accounts, icon: IconUsers, visible: (p) => hasPermission(p, 'people.account') },
  { label: 'Monitoring', to: PAGES.Monitoring, icon: IconActivity, visible: canSeeMonitoring },
  { label: 'Team', to: PAGES.Team, icon: IconUserShield, visible: (p) => hasPermission(p, 'users.manage') },
  { label: 'Audit', to: PAGES.Audit, icon: IconHistory, visible: (p) => hasPermission(p, 'audit.read') },
  {
    label: 'Exceptions',
    to: PAGES.Exceptions,
    icon: IconAlertTriangle,
    visible: (p) => hasPermission(p, 'exceptions.read'),
    useQueues: useDeskNavQueues,
  },
  {
    label: 'Approvals',
    to: PAGES.Approvals,
    icon: IconChecklist,
    visible: mayDecideApprovals,
    useCount: useApprovalCount,
  },
];

const isActive = (pathname: string, to: string) => pathname === to || pathname.startsWith(`${to}/`);

type Props = {
  /** below the breakpoint the navigation is off screen until the burger opens it: out of the tab order meanwhile */
  hidden: boolean;
  onClose: () => void;
};

export function NavBar({ hidden, onClose }: Props) {
  const { permissions: perms, mustChangePassword } = useCurrentUser();
  const { pathname, search } = useLocation();
  // with a one-time password only Change password works: offer nothing else to go to
  const entries = mustChangePassword ? [] : ENTRIES.filter((e) => e.visible(perms));
  const logout = useLogout();
  // Off screen (below the breakpoint, until the burger opens it), the entries are built on the first opening rather
  // than with the screen the user came for.
  const [built, setBuilt] = useState(!hidden);
  if (!hidden && !built) setBuilt(true);

  return (
    <AppShell.Navbar p="md" aria-label="Main navigation" inert={hidden}>
      {built && (
        <NavSections
          entries={entries}
          pathname={pathname}
          search={search}
          mustChangePassword={mustChangePassword}
          onClose={onClose}
          logout={logout}
        />
      )}
    </AppShell.Navbar>
  );
}

type SectionsProps = {
  entries: NavEntry[];
  pathname: string;
  search: string;
  mustChangePassword: boolean;
  onClose: () => void;
  logout: ReturnType<typeof useLogout>;
};

function NavSections({ entries, pathname, search, mustChangePassword, onClose, logout }: SectionsProps) {
  return (
    <>
      <AppShell.Section mb="lg">
        <Group justify="space-between" wrap="nowrap">
          <UnstyledButton component={Link} to={PAGES.Invoices} aria-label="Paydesk: go to transactions">
            <Logo />
          </UnstyledButton>
          <CloseButton hiddenFrom="lg" size="lg" aria-label="Close navigation" onClick={onClose} />
        </Group>
      </AppShell.Section>

      <AppShell.Section grow component={ScrollArea}>
        {entries.map(({ label, to, icon: Icon, useCount, useQueues }) => (
          <Fragment key={to}>
            <NavLink
              component={Link}
              to={to}
              label={label}
              rightSection={useCount ? <NavCount useCount={useCount} id={countId(to)} /> : undefined}
              aria-describedby={useCount ? countId(to) : undefined}
              active={isActive(pathname, to)}
              // with its queues listed under it, the queue open is the current page; the entry only stands out
              variant={useQueues ? 'subtle' : undefined}
              aria-current={isActive(pathname, to) && !useQueues ? 'page' : undefined}
              leftSection={<Icon size={20} stroke={1.6} aria-hidden />}
              fw={500}
              style={{ borderRadius: 'var(--mantine-radius-md)' }}
            />
            {useQueues && (
              <NavQueues label={label} to={to} useQueues={useQueues} here={isActive(pathname, to) ? search : null} />
            )}
          </Fragment>
        ))}
      </AppShell.Section>

      <AppShell.Section pt="md" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
        {!mustChangePassword && (
          <NavLink
            component={Link}
            to={PAGES.Settings}
            label="Settings"
            active={isActive(pathname, PAGES.Settings)}
            aria-current={isActive(pathname, PAGES.Settings) ? 'page' : undefined}
            leftSection={<IconSettings size={20} stroke={1.6} aria-hidden />}
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
          />
        )}
        <NavLink
          component="a"
          href={SUPPORT_URL}
          target="_blank"
          rel="noopener noreferrer"
          label={
            <Group gap={6} component="span">
              <span>Support</span>
              <IconExternalLink size={14} aria-hidden />
              <VisuallyHidden component="span">(opens in a new tab)</VisuallyHidden>
            </Group>
          }
          leftSection={<IconLifebuoy size={20} stroke={1.6} aria-hidden />}
          style={{ borderRadius: 'var(--mantine-radius-md)' }}
        />
        <NavLink
          component="button"
          type="button"
          label="Log Out"
          disabled={logout.isPending}
          onClick={() => logout.mutate()}
          leftSection={<IconLogout size={20} stroke={1.6} aria-hidden />}
          style={{ borderRadius: 'var(--mantine-radius-md)' }}
        />
      </AppShell.Section>
    </>
  );
}

const countId = (to: string) => `nav-count${to.replaceAll('/', '-')}`;

/**
 * What waits for a person, beside the entry's label (nothing when nothing waits). Out of the link's name, which stays
 * the entry's label; the link is described by it ("14 waiting") instead.
 */
function NavCount({ useCount, id }: { useCount: () => number | undefined; id: string }) {
  return <QueueCount n={useCount()} id={id} />;
}

function QueueCount({ n, id }: { n: number | undefined; id: string }) {
  if (!n) return null;
  return (
    <>
      <Badge size="sm" color="red" variant="filled" aria-hidden>
        {n > 999 ? '999+' : n}
      </Badge>
      <span id={id} hidden>
        {n} waiting
      </span>
    </>
  );
}

/**
 * An entry's queues as links of their own under it, indented, each described by what waits in it ("3 waiting") with
 * the count beside its label. `here`: the URL's query when the entry's page is open (its `tab` marks the queue shown).
 */
function NavQueues({
  label,
  to,
  useQueues,
  here,
}: {
  label: string;
  to: string;
  useQueues: () => DeskNavQueue[];
  here: string | null;
}) {
  const queues = useQueues();
  // the page opens on its first tab when the URL names none it has
  const tabs = queues.flatMap((q) => q.tabs);
  const param = here === null ? null : new URLSearchParams(here).get('tab');
  const tab = here === null ? null : param && tabs.includes(param) ? param : (tabs[0] ?? null);
  return (
    <Box
      role="group"
      aria-label={`${label} queues`}
      ml={19}
      pl={6}
      mb={4}
      style={{ borderLeft: '1px solid var(--mantine-color-gray-3)' }}
    >
      {queues.map((q) => {
        const id = countId(`${to}/${q.tabs[0]}`);
        const current = tab !== null && q.tabs.includes(tab);
        return (
          <NavLink
            key={q.label}
            component={Link}
            to={q.to}
            label={q.label}
            rightSection={<QueueCount n={q.count} id={id} />}
            aria-describedby={q.count ? id : undefined}
            active={current}
            aria-current={current ? 'page' : undefined}
            py={6}
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
          />
        );
      })}
    </Box>
  );
}
