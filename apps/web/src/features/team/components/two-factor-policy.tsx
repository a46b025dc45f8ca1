import { useState } from 'react';
import { Paper, Switch } from '@mantine/core';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { toast } from '../../../components/toast';
import { actionErrorMessage } from '../../../lib/api';
import { useSetTwoFactorPolicy } from '../api/two-factor-policy';

type Props = {
  merchantId: string;
  /** the merchant's name, or null when the caller cannot read its profile */
  merchantName: string | null;
  required: boolean;
  /** the caller belongs to this merchant's team (and is held to the policy too) */
  ownTeam: boolean;
};

/** users.manage: require two-factor sign-in of everyone in a merchant's team; turning it on is confirmed first. */
export function TwoFactorPolicy({ merchantId, merchantName, required, ownTeam }: Props) {
  const save = useSetTwoFactorPolicy();
  const [confirming, setConfirming] = useState(false);
  const team = merchantName ?? 'your merchant';

  const set = (requireTwoFactor: boolean) =>
    save.mutate(
      { merchantId, requireTwoFactor },
      {
        onSuccess: () =>
          toast.success(
            requireTwoFactor
              ? `Two-factor sign-in is required in ${team}`
              : `Two-factor sign-in is no longer required in ${team}`,
          ),
        onError: (e) => toast.error(actionErrorMessage(e, 'Could not change the two-factor policy')),
        onSettled: () => setConfirming(false),
      },
    );

  return (
    <Paper withBorder radius="md" p="sm" bg="gray.0">
      <Switch
        label={`Require two-factor sign-in for everyone in ${team}`}
        description={
          required
            ? 'Everyone signs in with a code from an authenticator app and cannot turn it off.'
            : 'Off: each user decides in Settings whether to use two-factor sign-in.'
        }
        checked={required}
        disabled={save.isPending}
        onChange={(e) => (e.currentTarget.checked ? setConfirming(true) : set(false))}
      />
      <ConfirmDialog
        opened={confirming}
        title="Require two-factor sign-in"
        message={`Everyone in ${team} without two-factor sign-in must set it up before they can go on working${
          ownTeam ? ', you included' : ''
        }. Nobody in the team can turn it off while it is required; a platform administrator resets it for someone who lost their phone and recovery codes.`}
        confirmLabel="Require it"
        loading={save.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => set(true)}
      />
    </Paper>
  );
}
