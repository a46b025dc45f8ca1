import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import type { ApprovalItem } from '@paydesk/contracts/approvals';

export type Decision = 'approve' | 'reject';

type Props = {
  /** the request being decided and how; null: closed */
  deciding: { item: ApprovalItem; decision: Decision } | null;
  /** what an amount reads as ("1,250,000.00 UZS") */
  amountText: (minor: number, currency: string) => string;
  busy: boolean;
  onClose: () => void;
  onConfirm: (reason: string | undefined) => void;
};

const MIN_REASON = 3;

/**
 * The second person's decision, confirmed: approving carries the action out now (with an optional note), rejecting
 * says why (required). Both are audited and the person who asked is told.
 */
export function DecisionDialog({ deciding, amountText, busy, onClose, onConfirm }: Props) {
  // the last request shown stays while the dialog closes (its title and text do not change as it fades out); each
  // opening starts a new form, with an empty note
  const [shown, setShown] = useState(deciding);
  const [openings, setOpenings] = useState(0);
  if (deciding !== null && deciding !== shown) {
    setShown(deciding);
    setOpenings((n) => n + 1);
  }
  const approve = shown?.decision === 'approve';
  return (
    <Modal
      opened={deciding !== null}
      onClose={onClose}
      title={approve ? 'Approve this request' : 'Reject this request'}
      centered
    >
      {shown && (
        <DecisionForm
          key={openings}
          item={shown.item}
          approve={approve}
          amountText={amountText}
          busy={busy}
          onClose={onClose}
          onConfirm={onConfirm}
        />
      )}
    </Modal>
  );
}

function DecisionForm({
  item,
  approve,
  amountText,
  busy,
  onClose,
  onConfirm,
}: Omit<Props, 'deciding'> & { item: ApprovalItem; approve: boolean }) {
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const text = reason.trim();
  // a reason is required to reject; a note to an approval is optional, but if given it says something
  const invalid = approve ? text.length > 0 && text.length < MIN_REASON : text.length < MIN_REASON;
  const error =
    touched && invalid
      ? approve
        ? `A note has at least ${MIN_REASON} characters, or none`
        : `Give a reason (at least ${MIN_REASON} characters)`
      : null;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        setTouched(true);
        if (!invalid) onConfirm(text === '' ? undefined : text);
      }}
    >
      <Stack>
        <div>
          <Text size="sm" fw={500}>
            {item.summary}
          </Text>
          <Text size="sm" c="dimmed">
            {item.amount !== null && item.currency ? `${amountText(item.amount, item.currency)} · ` : ''}asked by{' '}
            {item.maker}: “{item.reason}”
          </Text>
        </div>
        {approve ? (
          <Text size="sm">
            It is carried out now, and every rule of it is checked again first: if what it changes has moved since it
            was asked for, the approval is refused and the request says why.
          </Text>
        ) : (
          <Text size="sm">Nothing changes; {item.maker} is told why.</Text>
        )}
        <Textarea
          label={approve ? 'Note (optional)' : 'Reason'}
          description="Recorded in the audit trail"
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          onBlur={() => setTouched(true)}
          error={error}
          autosize
          minRows={2}
          maxLength={500}
          required={!approve}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" color={approve ? undefined : 'red'} loading={busy}>
            {approve ? 'Approve' : 'Reject'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
