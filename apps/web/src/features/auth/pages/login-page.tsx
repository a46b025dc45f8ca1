import { useEffect, useState } from 'react';
import { Alert, Box, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import { loginBody, type LoginBody, type Me } from '@paydesk/contracts/auth';
import { Logo } from '../../../components/logo';
import { toast } from '../../../components/toast';
import { ROUTES } from '../../../lib/routes';
import { useLogin, type SecondFactorChallenge } from '../api/login';
import { CodeStep } from '../components/code-step';

export default function LoginPage() {
  const navigate = useNavigate();
  const login = useLogin();
  // Validation on submit, then on change (SPEC §4).
  const form = useForm<LoginBody>({
    resolver: zodResolver(loginBody),
    defaultValues: { username: '', password: '' },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors } = form.formState;
  /** set after a right password when the user signs in with a second factor */
  const [challenge, setChallenge] = useState<SecondFactorChallenge | null>(null);
  /** why the user is back on the password step (the second step expired) */
  const [notice, setNotice] = useState<string | null>(null);
  const [backFromCode, setBackFromCode] = useState(false);

  useEffect(() => {
    document.title = `${challenge ? 'Two-factor sign-in' : 'Log In'} · Paydesk`;
  }, [challenge]);

  const signedIn = (me: Me | null) => {
    if (me) void navigate(ROUTES.Invoices, { replace: true });
    else toast.error('Signed in, but the browser did not keep the session. Check that cookies are allowed.');
  };

  const onSubmit = form.handleSubmit((values) =>
    login.mutateAsync(values).then(
      (result) => {
        setNotice(null);
        if (result.step === 'second-factor') setChallenge(result.challenge);
        else signedIn(result.me);
      },
      (error: unknown) => toast.error(error instanceof Error ? error.message : 'Could not log in'),
    ),
  );

  const backToPassword = (reason?: string) => {
    form.setValue('password', '');
    setNotice(reason ?? null);
    setBackFromCode(true);
    setChallenge(null);
  };

  return (
    <Box component="main" bg="gray.0" mih="100dvh">
      <Center mih="100dvh" p="md">
        <Paper withBorder shadow="sm" radius="lg" p="xl" w="100%" maw={420}>
          {challenge ? (
            <Stack gap="md">
              <Logo />
              <CodeStep
                challenge={challenge}
                username={form.getValues('username').trim()}
                onSignedIn={signedIn}
                onBack={backToPassword}
              />
            </Stack>
          ) : (
            <form onSubmit={onSubmit} noValidate aria-labelledby="login-title">
              <Stack gap="md">
                <Logo />
                <div>
                  <Title id="login-title" order={1} fz="h2">
                    Log In
                  </Title>
                  <Text c="dimmed" size="sm" mt={6}>
                    Log in to your personal account using your username and password
                  </Text>
                </div>
                {notice && (
                  <Alert color="yellow" variant="light" icon={<IconInfoCircle size={18} aria-hidden />} role="alert">
                    {notice}
                  </Alert>
                )}
                <TextInput
                  label="Username"
                  autoComplete="username"
                  autoFocus={!backFromCode}
                  withAsterisk
                  error={errors.username?.message}
                  {...form.register('username')}
                />
                <PasswordInput
                  label="Password"
                  autoComplete="current-password"
                  autoFocus={backFromCode}
                  withAsterisk
                  error={errors.password?.message}
                  {...form.register('password')}
                />
                <Button type="submit" fullWidth mt="xs" loading={login.isPending}>
                  Log In
                </Button>
              </Stack>
            </form>
          )}
        </Paper>
      </Center>
    </Box>
  );
}
