import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { IconHourglass } from '@tabler/icons-react';
import { Link } from 'react-router';
import { durationText } from '@paydesk/contracts/notifications';
import { PAGES } from '../../../lib/pages';
import { usePendingApprovals } from '../api/pending-approvals';

/**
 * A change of this invoice asked for and held back by a two-person policy: nothing has changed yet, and another
 * person decides it on the Approvals page. Shows nothing while none waits (or for people who do not see approvals).
 */
export function PendingApprovalBanner({ invoiceId }: { invoiceId: string }) {
  const { data } = usePendingApprovals(invoiceId);
  if (!data?.length) return null;
  const now = Date.now();
  return (
    <Alert color="yellow" icon={<IconHourglass size={18} aria-hidden />} data-testid="pending-approval">
      <Stack gap={4}>
        {data.map((r) => (
          <Text size="sm" key={r.id}>
            <Text span fw={600} size="sm">
              Waiting for approval:
            </Text>{' '}
            {r.summary} — asked by {r.maker}, expires in {durationText(new Date(r.expiresAt).getTime() - now)}
          </Text>
        ))}
        <Anchor component={Link} to={PAGES.Approvals} size="sm">
          Open Approvals
        </Anchor>
      </Stack>
    </Alert>
  );
}
