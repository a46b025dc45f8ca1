import { useState } from 'react';
import { Badge, Button, Code, Collapse, Group, Stack, Text } from '@mantine/core';
import { formatDateLong } from '@paydesk/contracts/dates';
import type { CallbackReceipt } from '@paydesk/contracts/engine';
import { BADGE_COLOR } from './status-badge';

/** The body as sent, indented when it is JSON (the raw bytes are what was signed; this is only for reading). */
function readable(body: string) {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function Receipt({ receipt, index }: { receipt: CallbackReceipt; index: number }) {
  const [open, setOpen] = useState(false);
  const id = `receipt-${index}-${receipt.receivedAt}`;
  return (
    <Stack gap={4} pl="md" data-testid="callback-receipt">
      <Group gap="xs" wrap="wrap">
        <Badge
          color={receipt.verified ? BADGE_COLOR.success : BADGE_COLOR.error}
          variant="light"
          size="sm"
          style={{ textTransform: 'none' }}
        >
          {receipt.verified ? 'Verified' : 'Not verified'}
        </Badge>
        <Text size="xs" c="dimmed">
          Received by the demo inbox {formatDateLong(receipt.receivedAt)}
        </Text>
        <Button
          variant="subtle"
          size="compact-xs"
          onClick={() => setOpen((o) => !o)}
          aria-expanded={open}
          aria-controls={id}
        >
          {open ? 'Hide headers and body' : 'Show headers and body'}
        </Button>
      </Group>
      <Text size="xs">{receipt.result}</Text>
      <Collapse expanded={open} id={id}>
        <Stack gap={4}>
          <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} aria-label="Headers">
            {Object.entries(receipt.headers)
              .map(([k, v]) => `${k}: ${v}`)
              .join('\n')}
          </Code>
          <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} aria-label="Body">
            {readable(receipt.body)}
          </Code>
        </Stack>
      </Collapse>
    </Stack>
  );
}

/**
 * What the demo's own callback receiver got for one callback (outside production the demo terminals
 * deliver to it): whether the signature verified, and the headers and body as they arrived.
 */
export function CallbackReceipts({ received }: { received: readonly CallbackReceipt[] }) {
  if (!received.length) return null;
  return (
    <>
      {received.map((r, i) => (
        <Receipt key={`${r.receivedAt}-${i}`} receipt={r} index={i} />
      ))}
    </>
  );
}
