import { useState } from 'react';
import { Modal, Stack, Text } from '@mantine/core';
import { secondFactorCode } from '@paydesk/contracts/auth';
import { toast } from '../../../components/toast';
import { useDisableTwoFactor, useRenewRecoveryCodes } from '../api/two-factor';
import { CodeForm } from './code-form';
import { RecoveryCodes } from './recovery-codes';

const CODE_LABEL = 'Authentication code';
const CODE_DESCRIPTION = 'The 6-digit code from your app, or one of your recovery codes';

type DialogProps = { opened: boolean; onClose: () => void };

/** Turning the second factor off takes a current code: a stolen session alone cannot do it. */
export function TurnOffDialog({ opened, onClose }: DialogProps) {
  const disable = useDisableTwoFactor();
  return (
    <Modal opened={opened} onClose={onClose} title="Turn off two-factor sign-in" centered>
      {opened && (
        <Stack gap="md">
          <Text size="sm">
            Signing in will ask for your password only. Your recovery codes stop working; the app’s entry for Paydesk
            can be deleted.
          </Text>
          <CodeForm
            schema={secondFactorCode}
            label={CODE_LABEL}
            description={CODE_DESCRIPTION}
            submitLabel="Turn off"
            danger
            pending={disable.isPending}
            onSubmit={(code) =>
              disable.mutateAsync(code).then(() => {
                toast.success('Two-factor sign-in is off');
                onClose();
              })
            }
            onCancel={onClose}
            fallbackError="Could not turn two-factor sign-in off. Try again."
          />
        </Stack>
      )}
    </Modal>
  );
}

/** Ten new recovery codes for a current code; shown once in the same dialog, which stays until they are saved. */
export function RenewRecoveryCodesDialog({ opened, onClose, username }: DialogProps & { username: string }) {
  const renew = useRenewRecoveryCodes();
  const [codes, setCodes] = useState<string[] | null>(null);
  const close = () => {
    setCodes(null);
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={codes ? () => {} : close}
      withCloseButton={!codes}
      closeOnEscape={!codes}
      closeOnClickOutside={false}
      title={codes ? 'Your new recovery codes' : 'New recovery codes'}
      size={codes ? 'lg' : 'md'}
      centered
    >
      {opened &&
        (codes ? (
          <RecoveryCodes codes={codes} username={username} onDone={close} />
        ) : (
          <Stack gap="md">
            <Text size="sm">You get ten new codes; the ones you have now stop working at once.</Text>
            <CodeForm
              schema={secondFactorCode}
              label={CODE_LABEL}
              description={CODE_DESCRIPTION}
              submitLabel="Make new codes"
              pending={renew.isPending}
              onSubmit={(code) => renew.mutateAsync(code).then(setCodes)}
              onCancel={close}
              fallbackError="Could not make new recovery codes. Try again."
            />
          </Stack>
        ))}
    </Modal>
  );
}
