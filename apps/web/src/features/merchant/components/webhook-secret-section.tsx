import { useState } from 'react';
import { Alert, Button, Group, Modal, Text } from '@mantine/core';
import { IconClockHour4, IconRefresh } from '@tabler/icons-react';
import { WEBHOOK_SECRET_OVERLAP_HOURS, formatDateLong, type Merchant } from '@paydesk/contracts';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { OneTimeSecret } from '../../../components/one-time-secret';
import { toast } from '../../../components/toast';
import { actionErrorMessage } from '../../../lib/api';
import { useRotateWebhookSecret, type RotatedWebhookSecret } from '../api/merchant';
import { SectionCard } from './section-card';

const until = (iso: string) => `${formatDateLong(iso)} UTC`;

/**
 * merchant.key.edit: rotate the secret callbacks are signed with. The new secret is shown once;
 * the previous one keeps signing (a second signature) for a day so the merchant can switch over.
 */
export function WebhookSecretSection({ merchant }: { merchant: Merchant }) {
  const rotate = useRotateWebhookSecret();
  const [confirming, setConfirming] = useState(false);
  const [rotated, setRotated] = useState<RotatedWebhookSecret | null>(null);
  const overlap = merchant.previousWebhookSecretUntil;
  const overlapActive = overlap !== null && Date.parse(overlap) > Date.now();

  return (
    <SectionCard
      title="Webhook secret"
      description="Callbacks to your endpoints carry a Standard Webhooks signature made with this secret. It is never shown again after it is created."
    >
      {overlapActive && (
        <Alert color="blue" variant="light" icon={<IconClockHour4 size={18} aria-hidden />} mb="md">
          The previous secret keeps signing callbacks until {until(overlap)}.
        </Alert>
      )}
      <Group justify="flex-end">
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} aria-hidden />}
          onClick={() => setConfirming(true)}
        >
          Rotate secret
        </Button>
      </Group>

      <ConfirmDialog
        opened={confirming}
        title="Rotate webhook secret"
        message={`Create a new webhook secret? Callbacks are signed with both secrets for ${WEBHOOK_SECRET_OVERLAP_HOURS} hours, then only with the new one.`}
        confirmLabel="Rotate secret"
        loading={rotate.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() =>
          rotate.mutate(merchant.id, {
            onSuccess: (r) => setRotated(r),
            onError: (e) => toast.error(actionErrorMessage(e, 'Could not rotate the webhook secret')),
            onSettled: () => setConfirming(false),
          })
        }
      />

      <Modal
        opened={rotated !== null}
        onClose={() => setRotated(null)}
        title="New webhook secret"
        size="lg"
        centered
        closeOnClickOutside={false}
      >
        {rotated && (
          <OneTimeSecret label="Webhook secret" value={rotated.webhookSecret}>
            <Text size="sm">
              The previous secret keeps signing callbacks until {until(rotated.previousValidUntil)}.
            </Text>
          </OneTimeSecret>
        )}
        <Group justify="flex-end" mt="lg">
          <Button onClick={() => setRotated(null)}>Done</Button>
        </Group>
      </Modal>
    </SectionCard>
  );
}
