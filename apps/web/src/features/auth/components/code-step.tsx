import { useRef, useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { IconAlertCircle, IconArrowLeft } from '@tabler/icons-react';
import type { Me } from '@paydesk/contracts/auth';
import { CodeInput } from '../../../components/code-input';
import { useLoginSecondFactor, type SecondFactorChallenge } from '../api/login';
import { codeProblem, secondFactorFailure, type CodeMode } from '../model/second-factor';

type Props = {
  challenge: SecondFactorChallenge;
  username: string;
  /** signed in: the user, or null when the browser did not keep the session cookie */
  onSignedIn: (me: Me | null) => void;
  /** back to the password step, with the reason when the sign-in cannot go on (the challenge expired) */
  onBack: (reason?: string) => void;
};

const TEXT: Record<CodeMode, { label: string; description: string }> = {
  app: {
    label: 'Authentication code',
    description: 'Enter the 6-digit code from your authenticator app',
  },
  recovery: {
    label: 'Recovery code',
    description: 'Enter one of the recovery codes you saved when you set up two-factor sign-in. Each works once.',
  },
};

/** The second sign-in step: a code from the authenticator app, or one of the recovery codes. */
export function CodeStep({ challenge, username, onSignedIn, onBack }: Props) {
  const [mode, setMode] = useState<CodeMode>('app');
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const verify = useLoginSecondFactor();
  const text = TEXT[mode];

  const retry = (message: string) => {
    setFieldError(message);
    input.current?.focus();
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (verify.isPending) return;
    const problem = codeProblem(mode, code);
    if (problem) return retry(problem);
    setAlert(null);
    verify.mutate(
      { challenge: challenge.challenge, code },
      {
        onSuccess: onSignedIn,
        onError: (error) => {
          const failure = secondFactorFailure(error);
          if (failure.kind === 'restart') return onBack(failure.message);
          if (failure.kind === 'alert') return setAlert(failure.message);
          setCode('');
          retry(failure.message);
        },
      },
    );
  };

  const switchMode = (recovery: boolean) => {
    setMode(recovery ? 'recovery' : 'app');
    setCode('');
    setFieldError(null);
    input.current?.focus();
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="login-title">
      <Stack gap="md">
        <div>
          <Title id="login-title" order={1} fz="h2">
            Two-factor sign-in
          </Title>
          <Text c="dimmed" size="sm" mt={6}>
            {text.description}
          </Text>
          <Text size="sm" mt={4}>
            Signing in as <b>{username}</b>
          </Text>
        </div>
        {alert && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} role="alert">
            {alert}
          </Alert>
        )}
        <CodeInput
          ref={input}
          numeric={mode === 'app'}
          label={text.label}
          value={code}
          onChange={(value) => {
            setCode(value);
            if (fieldError) setFieldError(null);
          }}
          error={fieldError}
          autoFocus
          placeholder={mode === 'recovery' ? 'xxxxx-xxxxx' : undefined}
        />
        <Switch
          label="Use a recovery code"
          checked={mode === 'recovery'}
          onChange={(e) => switchMode(e.currentTarget.checked)}
        />
        <Button type="submit" fullWidth loading={verify.isPending}>
          Verify
        </Button>
        <Group justify="center">
          <Anchor component="button" type="button" size="sm" onClick={() => onBack()}>
            <Group gap={4} component="span">
              <IconArrowLeft size={14} aria-hidden />
              Back
            </Group>
          </Anchor>
        </Group>
      </Stack>
    </form>
  );
}
