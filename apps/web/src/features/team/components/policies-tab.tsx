import { useState } from 'react';
import { ActionIcon, Alert, Button, Group, Modal, Select, Stack, Switch, Table, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { APPROVAL_ACTION_LABELS, APPROVAL_EXPIRY_HOURS, type ApprovalPolicy } from '@paydesk/contracts/approvals';
import { formatDateLong } from '@paydesk/contracts/dates';
import { MoneyInput } from '../../../components/money-input';
import { SectionLoader } from '../../../components/full-page-loader';
import { toast } from '../../../components/toast';
import { actionErrorMessage } from '../../../lib/api';
import { useCurrencies } from '../../../lib/references';
import { useApprovalPolicies, useSetApprovalPolicy } from '../api/approval-policies';
import {
  ACTIONS_WITH_AMOUNT,
  rowsToThresholds,
  thresholdsText,
  thresholdsToRows,
  type CurrencyRef,
  type ThresholdRow,
} from '../model/thresholds';

/** What a policy's amounts column says beyond its thresholds, for the actions where it needs saying. */
const AMOUNT_NOTES: Partial<Record<ApprovalPolicy['action'], string>> = {
  'people.account.edit': 'The threshold applies to the new limit; credential changes always need approval.',
};

/**
 * Two-person control's policies (users.manage): which actions wait for a second person's approval, from which
 * amount per currency. Platform admins see every action; a merchant's owner only replacing its own API key.
 */
export function PoliciesTab() {
  const policies = useApprovalPolicies();
  const { data: currencies = [] } = useCurrencies();
  const save = useSetApprovalPolicy();
  const [editing, setEditing] = useState<ApprovalPolicy | null>(null);

  if (policies.isPending) return <SectionLoader label="Loading approval policies" />;
  if (policies.isError)
    return (
      <Alert color="red" title="Could not load the approval policies">
        {policies.error.message}
      </Alert>
    );

  const toggle = (p: ApprovalPolicy, enabled: boolean) => {
    const label = APPROVAL_ACTION_LABELS[p.action];
    save.mutate(
      { action: p.action, enabled, thresholds: p.thresholds },
      {
        onSuccess: () =>
          toast.success(enabled ? `Approval required: ${label}` : `Approval no longer required: ${label}`),
        onError: (e) => toast.error(actionErrorMessage(e, 'Could not change the policy')),
      },
    );
  };

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed" maw={760}>
        When a policy is on, the action is not carried out when someone asks for it: it waits up to{' '}
        {APPROVAL_EXPIRY_HOURS} hours for another person who may do the same to approve it, on the Approvals page.
        Thresholds let smaller amounts through without approval.
      </Text>
      {/* three columns: the switch and the thresholds stay in view on a tablet without scrolling sideways */}
      <Table.ScrollContainer minWidth={600}>
        <Table verticalSpacing="sm" aria-label="Approval policies">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Action</Table.Th>
              <Table.Th>Needs approval</Table.Th>
              <Table.Th>Amounts</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {policies.data.map((p) => {
              const label = APPROVAL_ACTION_LABELS[p.action];
              const withAmount = ACTIONS_WITH_AMOUNT.has(p.action);
              return (
                <Table.Tr key={`${p.action}:${p.merchantId ?? ''}`}>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {label}
                    </Text>
                    <Text size="xs" c="dimmed" data-testid="policy-changed">
                      {p.updatedAt
                        ? `Changed by ${p.updatedBy ?? 'someone'}, ${formatDateLong(p.updatedAt)}`
                        : 'Never changed'}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Switch
                      aria-label={`Require approval: ${label}`}
                      checked={p.enabled}
                      disabled={save.isPending}
                      onChange={(e) => toggle(p, e.currentTarget.checked)}
                      onLabel="ON"
                      offLabel="OFF"
                      size="md"
                    />
                  </Table.Td>
                  <Table.Td>
                    <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
                      <div>
                        <Text size="sm" c={p.enabled ? undefined : 'dimmed'}>
                          {withAmount ? thresholdsText(p.thresholds, currencies) : 'Always'}
                        </Text>
                        {AMOUNT_NOTES[p.action] && (
                          <Text size="xs" c="dimmed">
                            {AMOUNT_NOTES[p.action]}
                          </Text>
                        )}
                      </div>
                      {withAmount && (
                        <Button
                          size="xs"
                          variant="subtle"
                          aria-label={`Thresholds: ${label}`}
                          onClick={() => setEditing(p)}
                          style={{ flex: 'none' }}
                        >
                          Thresholds
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing ? `Thresholds: ${APPROVAL_ACTION_LABELS[editing.action]}` : ''}
        centered
        size="lg"
      >
        {/* mounted per opening: the rows start from the policy as saved */}
        {editing && (
          <ThresholdsForm
            policy={editing}
            currencies={currencies}
            busy={save.isPending}
            onCancel={() => setEditing(null)}
            onSave={(thresholds) =>
              save.mutate(
                { action: editing.action, enabled: editing.enabled, thresholds },
                {
                  onSuccess: () => {
                    toast.success(`Thresholds saved: ${APPROVAL_ACTION_LABELS[editing.action]}`);
                    setEditing(null);
                  },
                  onError: (e) => toast.error(actionErrorMessage(e, 'Could not save the thresholds')),
                },
              )
            }
          />
        )}
      </Modal>
    </Stack>
  );
}

function ThresholdsForm({
  policy,
  currencies,
  busy,
  onCancel,
  onSave,
}: {
  policy: ApprovalPolicy;
  currencies: readonly CurrencyRef[];
  busy: boolean;
  onCancel: () => void;
  onSave: (thresholds: Record<string, number>) => void;
}) {
  const [rows, setRows] = useState<ThresholdRow[]>(() => thresholdsToRows(policy.thresholds, currencies));
  const [errors, setErrors] = useState<Record<number, string>>({});
  const unused = currencies.filter((c) => !rows.some((r) => r.code === c.code));
  const setRow = (i: number, next: Partial<ThresholdRow>) => {
    setRows((rs) => rs.map((r, j) => (j === i ? { ...r, ...next } : r)));
    setErrors(({ [i]: _dropped, ...rest }) => rest);
  };

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        const r = rowsToThresholds(rows, currencies);
        if (r.ok) onSave(r.thresholds);
        else setErrors(r.errors);
      }}
    >
      <Stack>
        <Text size="sm">
          An action of at least the threshold in its currency needs approval; smaller ones go through. A currency
          without a threshold: every amount needs approval
          {policy.enabled ? '.' : ' (once the policy is on).'}
        </Text>
        {rows.length === 0 && (
          <Text size="sm" c="dimmed">
            No thresholds: every amount needs approval.
          </Text>
        )}
        {rows.map((row, i) => {
          const currency = currencies.find((c) => c.code === row.code) ?? { code: row.code, dimension: 2 };
          return (
            <Group key={i} align="flex-start" wrap="nowrap" gap="xs">
              <Select
                label="Currency"
                data={[row.code, ...unused.map((c) => c.code)].sort()}
                value={row.code}
                onChange={(code) => code && setRow(i, { code })}
                allowDeselect={false}
                w={110}
                style={{ flex: 'none' }}
                comboboxProps={{ keepMounted: false }}
              />
              <MoneyInput
                label="Threshold"
                currency={currency}
                value={row.major}
                onChange={(major) => setRow(i, { major })}
                error={errors[i]}
                style={{ flex: 1 }}
              />
              <ActionIcon
                variant="subtle"
                color="gray"
                size="lg"
                mt={25}
                aria-label={`Remove the ${row.code} threshold`}
                onClick={() => {
                  setRows((rs) => rs.filter((_, j) => j !== i));
                  setErrors({});
                }}
              >
                <IconTrash size={18} aria-hidden />
              </ActionIcon>
            </Group>
          );
        })}
        <Group justify="space-between">
          <Button
            variant="default"
            size="xs"
            leftSection={<IconPlus size={14} aria-hidden />}
            disabled={unused.length === 0}
            onClick={() => setRows((rs) => [...rs, { code: unused[0]!.code, major: '' }])}
          >
            Add a currency
          </Button>
          <Group gap="xs">
            <Button variant="default" onClick={onCancel} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Save
            </Button>
          </Group>
        </Group>
      </Stack>
    </form>
  );
}
