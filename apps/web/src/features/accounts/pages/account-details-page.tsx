import { useState } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Breadcrumbs,
  Button,
  Card,
  Group,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { formatMoney, type AccountCredential } from '@paydesk/contracts';
import { SectionLoader } from '../../../components/full-page-loader';
import { PageTitle } from '../../../components/page-title';
import { Refusal } from '../../../components/refusal';
import { RevealableNumber } from '../../../components/revealable-number';
import { toast } from '../../../components/toast';
import { PAGES } from '../../../lib/pages';
import { useCan } from '../../../lib/session';
import {
  revealCredential,
  useAccount,
  useAccountLimit,
  useCredentialMutations,
  useSetAccountEnabled,
} from '../api/accounts';
import { CredentialDialog } from '../components/credential-dialog';
import { LimitDialog } from '../components/limit-dialog';

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={500}>{children}</Text>
    </div>
  );
}

export default function AccountDetailsPage() {
  const id = Number(useParams().id);
  const canRead = useCan('people.account');
  const canEdit = useCan('people.account.edit');
  // the full number of a credential: people.account (this page) and invoice.credentials.read
  const canReveal = useCan('invoice.credentials.read') && canRead;
  const account = useAccount(canRead ? id : NaN);
  const limit = useAccountLimit(canRead ? id : NaN);
  const setEnabled = useSetAccountEnabled();
  const { remove } = useCredentialMutations(id);
  const [credentialDialog, setCredentialDialog] = useState<{ editing: AccountCredential | null } | null>(null);
  const [editingLimit, setEditingLimit] = useState(false);

  const header = (
    <>
      <Breadcrumbs mb="xs" aria-label="Breadcrumb">
        <Anchor component={Link} to={PAGES.Accounts} size="sm">
          Accounts
        </Anchor>
        <span aria-current="page">Account {Number.isInteger(id) ? id : ''}</span>
      </Breadcrumbs>
      <PageTitle title="Account" />
    </>
  );
  if (!canRead) {
    return (
      <>
        {header}
        <Refusal missing={['people.account']} />
      </>
    );
  }
  if (!Number.isInteger(id) || id <= 0)
    return (
      <>
        {header}
        <Alert color="red">Account not found</Alert>
      </>
    );
  if (account.isPending)
    return (
      <>
        {header}
        <SectionLoader label="Loading account" />
      </>
    );
  if (account.error)
    return (
      <>
        {header}
        <Alert color="red">{account.error.message}</Alert>
      </>
    );
  const a = account.data;

  const onRemove = (c: AccountCredential) =>
    remove.mutate(c.id, {
      onSuccess: () => toast.success('Successfully removed'),
      onError: (e) => toast.error(e.message || 'Could not remove the credential'),
    });

  return (
    <>
      {header}
      <Stack gap="lg" maw={960}>
        <Card withBorder p="lg">
          <Group justify="space-between" mb="md">
            <Title order={2} fz="h4">
              Account {a.id}
            </Title>
            <Switch
              label="Enabled"
              checked={a.enabled}
              disabled={!canEdit}
              onChange={(e) =>
                setEnabled.mutate(
                  { id: a.id, enabled: e.currentTarget.checked },
                  { onError: (err) => toast.error(err.message) },
                )
              }
              onLabel="ON"
              offLabel="OFF"
              size="md"
            />
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Field label="Account ID">{a.id}</Field>
            <Field label="Provider">{a.providerName}</Field>
            <Field label="Payment method">{a.paymentMethodName}</Field>
            <Field label="Bank">{a.bankName ?? '-'}</Field>
            <Field label="Owner">{a.ownerName ?? '-'}</Field>
            <Field label="Currency">{a.currency.code}</Field>
          </SimpleGrid>
        </Card>

        <Card withBorder p="lg">
          <Group justify="space-between" mb="sm">
            <Title order={2} fz="h4">
              Credentials
            </Title>
            {canEdit && (
              <Button
                size="xs"
                leftSection={<IconPlus size={14} aria-hidden />}
                onClick={() => setCredentialDialog({ editing: null })}
              >
                Add
              </Button>
            )}
          </Group>
          {a.credentials.length === 0 ? (
            <Text c="dimmed">No credentials</Text>
          ) : (
            <Table aria-label="Credentials">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Type</Table.Th>
                  <Table.Th>Value</Table.Th>
                  <Table.Th w={180}>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {a.credentials.map((c) => (
                  <Table.Tr key={c.id}>
                    <Table.Td>
                      <Badge variant="light">{c.credentialType}</Badge>
                    </Table.Td>
                    <Table.Td>
                      <RevealableNumber
                        key={`${c.id}:${c.value}`}
                        masked={c.value}
                        canReveal={canReveal}
                        reveal={() => revealCredential(c.id)}
                        what={`${c.credentialType} ${c.value}`}
                      />
                    </Table.Td>
                    <Table.Td>
                      {canEdit && (
                        <Group gap="xs">
                          <Button
                            size="xs"
                            variant="light"
                            onClick={() => setCredentialDialog({ editing: c })}
                            aria-label={`Edit ${c.credentialType} ${c.value}`}
                          >
                            Edit
                          </Button>
                          <Button
                            size="xs"
                            variant="subtle"
                            color="red"
                            loading={remove.isPending && remove.variables === c.id}
                            onClick={() => onRemove(c)}
                            aria-label={`Remove ${c.credentialType} ${c.value}`}
                          >
                            Remove
                          </Button>
                        </Group>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Card>

        <Card withBorder p="lg">
          <Title order={2} fz="h4" mb="sm">
            Limits
          </Title>
          {limit.isPending && <SectionLoader label="Loading limit" />}
          {limit.error && <Alert color="red">{limit.error.message}</Alert>}
          {limit.data && (
            <Table aria-label="Limits">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Limit</Table.Th>
                  <Table.Th>Balance</Table.Th>
                  <Table.Th>Priority</Table.Th>
                  <Table.Th>Unique</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                <Table.Tr>
                  <Table.Td>{formatMoney(limit.data.limit, a.currency.dimension, 'en', a.currency.code)}</Table.Td>
                  <Table.Td>{formatMoney(limit.data.balance, a.currency.dimension, 'en', a.currency.code)}</Table.Td>
                  <Table.Td>{limit.data.priority}</Table.Td>
                  <Table.Td>{limit.data.checkUniqueAmount ? 'Yes' : 'No'}</Table.Td>
                  <Table.Td>
                    {canEdit && (
                      <Button size="xs" variant="light" onClick={() => setEditingLimit(true)} aria-label="Edit limit">
                        Edit
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
          )}
        </Card>
      </Stack>

      {credentialDialog && (
        <CredentialDialog
          accountId={a.id}
          editing={credentialDialog.editing}
          opened
          onClose={() => setCredentialDialog(null)}
        />
      )}
      {limit.data && editingLimit && (
        <LimitDialog limit={limit.data} currency={a.currency} opened onClose={() => setEditingLimit(false)} />
      )}
    </>
  );
}
