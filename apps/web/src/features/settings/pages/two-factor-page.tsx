import { useState } from 'react';
import { Alert, Anchor, Badge, Breadcrumbs, Button, Card, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconLock, IconRefresh, IconShieldCheck, IconShieldOff } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import type { TwoFactorStatus } from '@paydesk/contracts/auth';
import { formatDateLong } from '@paydesk/contracts/dates';
import { SectionLoader } from '../../../components/full-page-loader';
import { PageTitle } from '../../../components/page-title';
import { toast } from '../../../components/toast';
import { PAGES } from '../../../lib/pages';
import { meQueryKey, useCurrentUser } from '../../../lib/session';
import { twoFactorStatusQuery } from '../api/two-factor';
import { RECOVERY_CODES_LOW } from '../model/two-factor';
import { RenewRecoveryCodesDialog, TurnOffDialog } from '../components/two-factor-dialogs';
import { TwoFactorEnrolment } from '../components/two-factor-enrolment';

/** Settings → Two-factor sign-in: its status, turning it on (QR code, recovery codes) or off, new recovery codes. */
export default function TwoFactorPage() {
  const me = useCurrentUser();
  const status = useQuery(twoFactorStatusQuery);
  const queryClient = useQueryClient();
  const [enrolling, setEnrolling] = useState(false);
  const [dialog, setDialog] = useState<'off' | 'renew' | null>(null);

  const enrolled = async () => {
    setEnrolling(false);
    toast.success('Two-factor sign-in is on');
    await queryClient.invalidateQueries({ queryKey: meQueryKey, exact: true });
  };

  return (
    <>
      <Breadcrumbs mb="xs" aria-label="Breadcrumb">
        <Anchor component={Link} to={PAGES.Settings} size="sm">
          Settings
        </Anchor>
        <span aria-current="page">Two-factor sign-in</span>
      </Breadcrumbs>
      <PageTitle title="Two-factor sign-in" />
      <Text size="sm" c="dimmed" maw={640} mb="md">
        After your password, sign-in also asks for a code from an authenticator app on your phone, so a stolen password
        alone does not open your account.
      </Text>

      {enrolling ? (
        <Card withBorder maw={720} p="lg">
          <TwoFactorEnrolment username={me.username} onDone={enrolled} onCancel={() => setEnrolling(false)} />
        </Card>
      ) : status.isPending ? (
        <SectionLoader label="Loading two-factor sign-in" />
      ) : status.isError ? (
        <Alert color="red" title="Could not load two-factor sign-in" maw={640}>
          {status.error.message}
        </Alert>
      ) : (
        <StatusCard
          status={status.data}
          onTurnOn={() => setEnrolling(true)}
          onTurnOff={() => setDialog('off')}
          onRenew={() => setDialog('renew')}
        />
      )}

      <TurnOffDialog opened={dialog === 'off'} onClose={() => setDialog(null)} />
      <RenewRecoveryCodesDialog opened={dialog === 'renew'} onClose={() => setDialog(null)} username={me.username} />
    </>
  );
}

type StatusCardProps = {
  status: TwoFactorStatus;
  onTurnOn: () => void;
  onTurnOff: () => void;
  onRenew: () => void;
};

function StatusCard({ status, onTurnOn, onTurnOff, onRenew }: StatusCardProps) {
  const { enabled, enabledAt, required, recoveryCodesLeft } = status;
  return (
    <Card withBorder maw={640} p="lg" component="section" aria-label="Two-factor sign-in status">
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Group gap="sm" wrap="nowrap">
            <ThemeIcon size={40} radius="md" variant="light" color={enabled ? 'teal' : 'gray'} aria-hidden>
              {enabled ? <IconShieldCheck size={22} /> : <IconShieldOff size={22} />}
            </ThemeIcon>
            <div>
              <Text fw={600}>{enabled ? 'Two-factor sign-in is on' : 'Two-factor sign-in is off'}</Text>
              <Text size="sm" c="dimmed">
                {enabled && enabledAt
                  ? `Since ${formatDateLong(enabledAt)} UTC`
                  : 'Sign-in asks for your password only'}
              </Text>
            </div>
          </Group>
          <Badge variant="light" color={enabled ? 'teal' : 'gray'} c="dark.7" miw="max-content">
            {enabled ? 'On' : 'Off'}
          </Badge>
        </Group>

        {required && (
          <Group gap={6} wrap="nowrap">
            <IconLock size={16} aria-hidden />
            <Text size="sm">Required by your organisation</Text>
          </Group>
        )}

        {enabled && (
          <Text size="sm">
            Recovery codes left: <b>{recoveryCodesLeft}</b> of 10
          </Text>
        )}
        {enabled && recoveryCodesLeft <= RECOVERY_CODES_LOW && (
          <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={18} aria-hidden />}>
            {recoveryCodesLeft === 0
              ? 'You have no recovery codes left. Make new ones so that losing your phone does not lock you out.'
              : 'You are running out of recovery codes. Make new ones before the last is used.'}
          </Alert>
        )}

        <Group gap="sm">
          {enabled ? (
            <>
              <Button variant="default" leftSection={<IconRefresh size={16} aria-hidden />} onClick={onRenew}>
                New recovery codes
              </Button>
              {!required && (
                <Button variant="outline" color="red" onClick={onTurnOff}>
                  Turn off
                </Button>
              )}
            </>
          ) : (
            <Button leftSection={<IconShieldCheck size={16} aria-hidden />} onClick={onTurnOn}>
              Turn on
            </Button>
          )}
        </Group>
        {enabled && required && (
          <Text size="xs" c="dimmed">
            Your organisation requires two-factor sign-in, so it cannot be turned off.
          </Text>
        )}
      </Stack>
    </Card>
  );
}
