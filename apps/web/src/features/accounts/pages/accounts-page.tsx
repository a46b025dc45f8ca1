import { useState } from 'react';
import { Alert, Badge, Button, Switch, Table, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import type { AccountListItem } from '@paydesk/contracts';
import { formatDateShort } from '@paydesk/contracts/dates';
import { SectionLoader } from '../../../components/full-page-loader';
import { PageTitle } from '../../../components/page-title';
import { Refusal } from '../../../components/refusal';
import { toast } from '../../../components/toast';
import {
  NO_FIGURES,
  lastMoneyText,
  paidOfGiven,
  successRateText,
  useAccountHealth,
  type HealthFigures,
} from '../../../lib/account-health';
import { PAGES } from '../../../lib/pages';
import { useCan } from '../../../lib/session';
import { useAccounts, useSetAccountEnabled } from '../api/accounts';
import { NewAccountDialog } from '../components/new-account-dialog';

export default function AccountsPage() {
  const canRead = useCan('people.account');
  if (!canRead) {
    return (
      <>
        <PageTitle title="Accounts" />
        <Refusal missing={['people.account']} />
      </>
    );
  }
  return <AccountsList />;
}

function AccountsList() {
  const canEdit = useCan('people.account.edit');
  const navigate = useNavigate();
  const { data, isPending, error } = useAccounts();
  const health = useAccountHealth(true);
  const healthOf = new Map(health.data?.map((h) => [h.accountId, h]));
  const now = Date.now();
  const setEnabled = useSetAccountEnabled();
  const [creating, setCreating] = useState(false);
  const open = (a: AccountListItem) => navigate(PAGES.AccountDetails(String(a.id)), { state: a });

  const toggle = (a: AccountListItem, enabled: boolean) =>
    setEnabled.mutate(
      { id: a.id, enabled },
      { onError: (e) => toast.error(e.message || 'Could not change the account') },
    );

  return (
    <>
      <PageTitle title="Accounts">
        {canEdit && (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
            New Account
          </Button>
        )}
      </PageTitle>
      {isPending && <SectionLoader label="Loading accounts" />}
      {error && <Alert color="red">{error.message}</Alert>}
      {data && data.length === 0 && <Text c="dimmed">Nothing found</Text>}
      {data && data.length > 0 && (
        <Table.ScrollContainer minWidth={700}>
          <Table highlightOnHover verticalSpacing="sm" aria-label="Provider accounts">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>ID</Table.Th>
                <Table.Th>Provider</Table.Th>
                <Table.Th>Bank</Table.Th>
                <Table.Th>Payment method</Table.Th>
                <Table.Th>Requisites, 24&nbsp;h</Table.Th>
                <Table.Th>Money last arrived (UTC)</Table.Th>
                <Table.Th>Enabled</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.map((a) => (
                <Table.Tr
                  key={a.id}
                  style={{ cursor: 'pointer' }}
                  onClick={() => open(a)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter' && e.target === e.currentTarget) open(a);
                  }}
                  tabIndex={0}
                  aria-label={`Account ${a.id}`}
                >
                  <Table.Td>{a.id}</Table.Td>
                  <Table.Td>
                    {a.providerName}
                    {healthOf.get(a.id)?.pausedAt && (
                      // out of routing: the desk's Paused accounts tab says why and resumes it
                      <Badge display="block" mt={4} size="sm" variant="light" color="orange">
                        Paused
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{a.bankName ?? '-'}</Table.Td>
                  <Table.Td>{a.paymentMethodName}</Table.Td>
                  <HealthCells
                    health={healthOf.get(a.id)}
                    loaded={health.isSuccess}
                    failed={health.isError}
                    now={now}
                  />
                  <Table.Td onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()}>
                    <Switch
                      checked={a.enabled}
                      disabled={!canEdit}
                      onChange={(e) => toggle(a, e.currentTarget.checked)}
                      onLabel="ON"
                      offLabel="OFF"
                      size="md"
                      aria-label={`Account ${a.id} enabled`}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {canEdit && (
        <NewAccountDialog
          opened={creating}
          onClose={() => setCreating(false)}
          onCreated={(a) => {
            setCreating(false);
            open(a);
          }}
        />
      )}
    </>
  );
}

/**
 * An account's health over the last day: the deposits given its requisites and how many were paid, with their share,
 * and when money last arrived ("…" while it loads, "unknown" when it could not be read). An account the read has no
 * figures for is newer than it: none given, no money yet.
 */
function HealthCells({
  health,
  loaded,
  failed,
  now,
}: {
  health: HealthFigures | undefined;
  loaded: boolean;
  failed: boolean;
  now: number;
}) {
  const h = health ?? (loaded ? NO_FIGURES : undefined);
  if (!h) {
    const text = failed ? 'unknown' : '…';
    return (
      <>
        <Table.Td c="dimmed">{text}</Table.Td>
        <Table.Td c="dimmed">{text}</Table.Td>
      </>
    );
  }
  return (
    <>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {h.given === 0 ? (
          <Text size="sm" c="dimmed">
            {successRateText(h)}
          </Text>
        ) : (
          <>
            {paidOfGiven(h)}
            <Text size="xs" c="dimmed">
              {successRateText(h)} success
            </Text>
          </>
        )}
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {h.lastMoneyAt === null ? (
          <Text size="sm" c="dimmed">
            {lastMoneyText(h, now)}
          </Text>
        ) : (
          <>
            {lastMoneyText(h, now)}
            <Text size="xs" c="dimmed">
              {formatDateShort(h.lastMoneyAt)}
            </Text>
          </>
        )}
      </Table.Td>
    </>
  );
}
