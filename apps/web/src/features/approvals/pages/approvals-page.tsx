import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert, Anchor, Badge, Button, Center, Group, Paper, Select, Stack, Table, Tabs, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import {
  APPROVAL_ACTIONS,
  APPROVAL_ACTION_LABELS,
  type ApprovalAction,
  type ApprovalItem,
  type ApprovalStatus,
} from '@paydesk/contracts/approvals';
import { PageTitle } from '../../../components/page-title';
import { Refusal } from '../../../components/refusal';
import { SectionLoader } from '../../../components/full-page-loader';
import { toast } from '../../../components/toast';
import { actionErrorMessage } from '../../../lib/api';
import { mayDecideApprovals, useApprovalCount } from '../../../lib/approvals';
import { useCurrentUser, usePermissions } from '../../../lib/session';
import { useApprovalList, useApprove, useReject } from '../api/approvals';
import { DecisionDialog, type Decision } from '../components/decision-dialog';
import { useAmountText, useNow, useOpenInMerchant } from '../components/hooks';
import {
  approvalsListQuery,
  expiryText,
  formatAge,
  parseApprovalsState,
  targetPath,
  toApprovalsSearchParams,
  withApprovalsFilter,
  type ApprovalsState,
} from '../model/approvals-state';

const TABS: { status: ApprovalStatus; label: string }[] = [
  { status: 'PENDING', label: 'Pending' },
  { status: 'APPROVED', label: 'Approved' },
  { status: 'REJECTED', label: 'Rejected' },
  { status: 'EXPIRED', label: 'Expired' },
];

const TARGET_WORDS: Record<string, string> = { invoice: 'Open the invoice', account: 'Open the account' };

/**
 * Two-person control's queue: what others asked for and waits for a second person (approved or rejected here), and
 * what was decided or expired. Each person sees the requests of the actions they may carry out, and their own.
 */
export default function ApprovalsPage() {
  const perms = usePermissions();
  if (!mayDecideApprovals(perms)) {
    return (
      <>
        <PageTitle title="Approvals" />
        <Refusal message="Your role does not allow you to carry out any action that needs a second person's approval." />
      </>
    );
  }
  return <ApprovalsQueue />;
}

function ApprovalsQueue() {
  const [sp, setSp] = useSearchParams();
  const state = useMemo(() => parseApprovalsState(sp), [sp]);
  // the URL updates asynchronously: a second change before it lands builds on the first, not on the URL it replaces
  const latest = useRef<ApprovalsState | null>(null);
  useEffect(() => {
    latest.current = null;
  }, [sp]);
  const update = (make: (s: ApprovalsState) => ApprovalsState) => {
    const next = make(latest.current ?? state);
    latest.current = next;
    setSp(toApprovalsSearchParams(next));
  };
  const pending = useApprovalCount();

  return (
    <>
      <PageTitle title="Approvals" />
      <Paper withBorder radius="md" p="md">
        <Tabs
          value={state.status}
          onChange={(v) => v && update((s) => withApprovalsFilter(s, { status: v as ApprovalStatus }))}
          keepMounted={false}
        >
          <Tabs.List mb="md">
            {TABS.map((t) => (
              <Tabs.Tab
                key={t.status}
                value={t.status}
                rightSection={
                  t.status === 'PENDING' && pending ? (
                    <Badge size="sm" variant="filled" color="red" aria-label={`${pending} for you to decide`}>
                      {pending}
                    </Badge>
                  ) : null
                }
              >
                {t.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          <Group mb="md" align="flex-end">
            <Select
              label="Action"
              placeholder="Every action"
              data={APPROVAL_ACTIONS.map((a) => ({ value: a, label: APPROVAL_ACTION_LABELS[a] }))}
              value={state.action}
              onChange={(v) => update((s) => withApprovalsFilter(s, { action: (v as ApprovalAction | null) ?? null }))}
              clearable
              w={{ base: '100%', xs: 380 }}
              comboboxProps={{ keepMounted: false }}
            />
          </Group>
          <ApprovalList state={state} update={update} />
        </Tabs>
      </Paper>
    </>
  );
}

function ApprovalList({
  state,
  update,
}: {
  state: ApprovalsState;
  update: (make: (s: ApprovalsState) => ApprovalsState) => void;
}) {
  const list = useApprovalList(approvalsListQuery(state));
  const approve = useApprove();
  const reject = useReject();
  const amountText = useAmountText();
  const openInMerchant = useOpenInMerchant();
  const now = useNow(30_000);
  const me = useCurrentUser();
  const [deciding, setDeciding] = useState<{ item: ApprovalItem; decision: Decision } | null>(null);
  const waiting = state.status === 'PENDING';

  if (list.isPending) return <SectionLoader label="Loading approval requests" />;
  if (list.isError)
    return (
      <Alert color="red" title="Could not load the approval requests">
        {list.error.message}
      </Alert>
    );
  const rows = list.data.data;
  const decide = (reason: string | undefined) => {
    if (!deciding) return;
    const { item, decision } = deciding;
    const done = { onSettled: () => setDeciding(null) };
    if (decision === 'approve')
      approve.mutate(
        { id: item.id, reason },
        {
          ...done,
          onSuccess: () => toast.success(`Approved: ${item.summary}`),
          onError: (e) => toast.error(actionErrorMessage(e, 'Could not approve the request')),
        },
      );
    else
      reject.mutate(
        { id: item.id, reason: reason ?? '' },
        {
          ...done,
          onSuccess: () => toast.success(`Rejected: ${item.summary}`),
          onError: (e) => toast.error(actionErrorMessage(e, 'Could not reject the request')),
        },
      );
  };

  return (
    <>
      {rows.length === 0 ? (
        <Center py="xl">
          <Text c="dimmed">{waiting ? 'Nothing waits for approval.' : 'No requests here.'}</Text>
        </Center>
      ) : (
        <div style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }} aria-busy={list.isPlaceholderData}>
          {/* four columns, so that the decision stays in view on a tablet without scrolling sideways */}
          <Table.ScrollContainer minWidth={660}>
            <Table verticalSpacing="sm" striped aria-label="Approval requests">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Request</Table.Th>
                  <Table.Th style={{ textAlign: 'right' }}>Amount</Table.Th>
                  <Table.Th>Asked by</Table.Th>
                  <Table.Th>{waiting ? 'Decision' : 'Decided'}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => {
                  const to = targetPath(r);
                  return (
                    <Table.Tr key={r.id} data-testid="approval-row" style={{ verticalAlign: 'top' }}>
                      <Table.Td>
                        <Stack gap={2}>
                          <Text size="xs" c="dimmed">
                            {APPROVAL_ACTION_LABELS[r.action]}
                            {r.merchantName ? ` · ${r.merchantName}` : ''}
                          </Text>
                          <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                            {r.summary}
                          </Text>
                          {to && (
                            <Anchor component={Link} to={to} size="sm" onClick={() => openInMerchant(r)}>
                              {TARGET_WORDS[r.targetType]}
                            </Anchor>
                          )}
                          {r.refusal && (
                            <Group gap={4} wrap="nowrap" align="flex-start">
                              <IconAlertTriangle
                                size={16}
                                color="var(--mantine-color-red-9)"
                                aria-hidden
                                style={{ flex: 'none', marginTop: 2 }}
                              />
                              <Text size="sm" c="red.9" data-testid="approval-refusal">
                                Last approval refused: {r.refusal}
                              </Text>
                            </Group>
                          )}
                        </Stack>
                      </Table.Td>
                      <Table.Td style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                        {r.amount !== null && r.currency ? amountText(r.amount, r.currency) : '—'}
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">
                          <Text span size="sm" fw={500}>
                            {r.maker}
                          </Text>
                          <Text span size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                            {' '}
                            · {formatAge(r.createdAt, now)} ago
                          </Text>
                        </Text>
                        <Text size="sm" c="dimmed">
                          {r.reason}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        {waiting ? (
                          <Stack gap={6}>
                            {r.canDecide ? (
                              <Group gap={6} wrap="nowrap">
                                <Button
                                  size="xs"
                                  onClick={() => setDeciding({ item: r, decision: 'approve' })}
                                  aria-label={`Approve: ${r.summary}`}
                                >
                                  Approve
                                </Button>
                                <Button
                                  size="xs"
                                  variant="default"
                                  onClick={() => setDeciding({ item: r, decision: 'reject' })}
                                  aria-label={`Reject: ${r.summary}`}
                                >
                                  Reject
                                </Button>
                              </Group>
                            ) : (
                              <Text size="sm" c="dimmed">
                                {r.maker === me.username
                                  ? 'Your request: another person must approve it'
                                  : 'Waiting for another person who may approve it'}
                              </Text>
                            )}
                            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid="approval-expiry">
                              {expiryText(r.expiresAt, now)}
                            </Text>
                          </Stack>
                        ) : (
                          <DecidedCell item={r} now={now} />
                        )}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </div>
      )}
      <Group justify="flex-end" mt="md" gap="xs">
        {state.after && (
          <Button variant="default" size="xs" onClick={() => update((s) => ({ ...s, after: null }))}>
            First page
          </Button>
        )}
        {list.data.next && (
          <Button variant="default" size="xs" onClick={() => update((s) => ({ ...s, after: list.data.next }))}>
            Next page
          </Button>
        )}
      </Group>
      <DecisionDialog
        deciding={deciding}
        amountText={amountText}
        busy={approve.isPending || reject.isPending}
        onClose={() => setDeciding(null)}
        onConfirm={decide}
      />
    </>
  );
}

/** Who decided, when and why; an expired request was decided by nobody. */
function DecidedCell({ item, now }: { item: ApprovalItem; now: number }) {
  if (item.status === 'EXPIRED')
    return (
      <Text size="sm" c="dimmed">
        Nobody decided within {formatAge(item.createdAt, Date.parse(item.expiresAt))}
      </Text>
    );
  return (
    <>
      <Text size="sm">
        <Text span fw={500} size="sm">
          {item.status === 'APPROVED' ? 'Approved' : 'Rejected'}
        </Text>{' '}
        by {item.decidedBy ?? 'someone'}
        {item.decidedAt ? `, ${formatAge(item.decidedAt, now)} ago` : ''}
      </Text>
      {item.decisionReason && (
        <Text size="sm" c="dimmed">
          {item.decisionReason}
        </Text>
      )}
    </>
  );
}
