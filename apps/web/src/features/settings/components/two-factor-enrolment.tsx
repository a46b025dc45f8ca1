import { useEffect, useRef, useState } from 'react';
import { Alert, Box, Button, Code, Flex, Stack, Text, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { QRCodeSVG } from 'qrcode.react';
import { totpCode } from '@paydesk/contracts/auth';
import { CopyIconButton } from '../../../components/copy-icon-button';
import { SectionLoader } from '../../../components/full-page-loader';
import { actionErrorMessage } from '../../../lib/api';
import { useEnableTwoFactor, useStartTwoFactorSetup } from '../api/two-factor';
import { groupSecret } from '../model/two-factor';
import { CodeForm } from './code-form';
import { RecoveryCodes } from './recovery-codes';

type Props = {
  username: string;
  /** after the recovery codes are saved: two-factor sign-in is on */
  onDone: () => void;
  /** leave the setup before it is confirmed (nothing changes; the unconfirmed secret is never used) */
  onCancel?: () => void;
};

/**
 * Turning two-factor sign-in on: a new secret as a QR code and as a typed key, the app's first code to confirm
 * it, then the ten recovery codes, shown once. Used from Settings and by the setup an organisation requires.
 */
export function TwoFactorEnrolment({ username, onDone, onCancel }: Props) {
  const setup = useStartTwoFactorSetup();
  const enable = useEnableTwoFactor();
  const [codes, setCodes] = useState<string[] | null>(null);
  const { mutate: start } = setup;
  // one secret per visit: StrictMode's second effect run must not replace the secret already on screen
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    start();
  }, [start]);

  if (codes) {
    return (
      <Stack gap="md">
        <Title order={2} fz="h4">
          Two-factor sign-in is on
        </Title>
        <RecoveryCodes codes={codes} username={username} onDone={onDone} />
      </Stack>
    );
  }
  if (setup.isError) {
    return (
      <Alert color="red" title="Could not start the setup" icon={<IconAlertCircle size={18} aria-hidden />}>
        {actionErrorMessage(setup.error, 'The server did not answer. Try again.')}
        <Button mt="md" size="xs" display="block" onClick={() => start()}>
          Try again
        </Button>
      </Alert>
    );
  }
  if (!setup.data) return <SectionLoader label="Preparing the setup" />;

  const { secret, otpauthUri } = setup.data;
  return (
    <Stack gap="xl">
      <Stack gap="sm" component="section" aria-labelledby="two-factor-step-scan">
        <div>
          <Title order={2} fz="h4" id="two-factor-step-scan">
            1. Scan this QR code with your authenticator app
          </Title>
          <Text size="sm" c="dimmed" mt={4}>
            For example Google Authenticator, Microsoft Authenticator, 1Password or Authy: add an account and scan.
          </Text>
        </div>
        <Flex gap="lg" wrap="wrap" align="center">
          <Box
            p="xs"
            bg="white"
            style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 'var(--mantine-radius-md)' }}
            lh={0}
          >
            <QRCodeSVG
              value={otpauthUri}
              size={176}
              marginSize={1}
              role="img"
              aria-label="QR code to scan with your authenticator app"
            />
          </Box>
          <Stack gap={6} style={{ flex: '1 1 15rem', minWidth: 0 }}>
            <Text size="sm" fw={500}>
              Can’t scan it? Type this setup key into the app instead:
            </Text>
            <Flex gap="xs" align="center">
              <Code fz="md" px="sm" py={6} c="dark.8" style={{ wordSpacing: '0.15em', lineHeight: 1.6 }}>
                <SetupKey secret={secret} />
              </Code>
              <CopyIconButton value={secret} what="setup key" size="lg" />
            </Flex>
            <Text size="xs" c="dimmed">
              Time-based key, 6 digits every 30 seconds. Spaces do not matter.
            </Text>
          </Stack>
        </Flex>
      </Stack>

      <Stack gap="sm" component="section" aria-labelledby="two-factor-step-code">
        <Title order={2} fz="h4" id="two-factor-step-code">
          2. Enter the 6-digit code the app shows
        </Title>
        <CodeForm
          schema={totpCode}
          label="Code from the app"
          numeric
          submitLabel="Turn on"
          pending={enable.isPending}
          onSubmit={(code) => enable.mutateAsync(code).then(setCodes)}
          onCancel={onCancel}
          fallbackError="Could not turn two-factor sign-in on. Try again."
          actions="page"
        />
      </Stack>
    </Stack>
  );
}

/** The key in two halves that each stay on one line: on a narrow screen it wraps as 4 + 4 groups, never 7 + 1. */
function SetupKey({ secret }: { secret: string }) {
  const groups = groupSecret(secret).split(' ');
  const half = Math.ceil(groups.length / 2);
  return (
    <>
      <span style={{ whiteSpace: 'nowrap' }}>{groups.slice(0, half).join(' ')}</span>{' '}
      <span style={{ whiteSpace: 'nowrap' }}>{groups.slice(half).join(' ')}</span>
    </>
  );
}
