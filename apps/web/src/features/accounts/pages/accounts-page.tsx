import { useState } from 'react';
import { Alert, Button, Switch, Table, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import type { AccountListItem } from '@paydesk/contracts';
import { SectionLoader } from '../../../components/full-page-loader';
import { PageTitle } from '../../../components/page-title';
import { Refusal } from '../../../components/refusal';
import { toast } from '../../../components/toast';
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
        <Table.ScrollContainer minWidth={640}>
          <Table highlightOnHover verticalSpacing="sm" aria-label="Provider accounts">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>ID</Table.Th>
                <Table.Th>Provider</Table.Th>
                <Table.Th>Bank</Table.Th>
                <Table.Th>Payment method</Table.Th>
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
                  <Table.Td>{a.providerName}</Table.Td>
                  <Table.Td>{a.bankName ?? '-'}</Table.Td>
                  <Table.Td>{a.paymentMethodName}</Table.Td>
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
