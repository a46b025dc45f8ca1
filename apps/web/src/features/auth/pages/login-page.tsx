import { Suspense, lazy, useEffect, useState } from 'react';
import { Alert, Box, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useForm, type Resolver } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { LoginBody, Me } from '@paydesk/contracts/auth';
import { Logo } from '../../../components/logo';
import { toast } from '../../../components/toast';
import { PAGES } from '../../../lib/pages';
import { useLogin, type SecondFactorChallenge } from '../api/login';

// The form's schema (zod, the contracts' auth schemas) and the second step are loaded once the user starts
// filling in the form, not with the screen, so that Login shows sooner; the first check waits for them if needed.
const loadSchema = () => Promise.all([import('@hookform/resolvers/zod'), import('@paydesk/contracts/auth')]);
const loadCodeStep = () => import('../components/code-step');
const CodeStep = lazy(() => loadCodeStep().then((m) => ({ default: m.CodeStep })));
const preloadSteps = () => {
  loadSchema().catch(() => undefined);
  loadCodeStep().catch(() => undefined);
};
const resolver: Resolver<LoginBody> = async (values, context, options) => {
  const [{ zodResolver }, { loginBody }] = await loadSchema();
  return zodResolver(loginBody)(values, context, options);
};

export default function LoginPage() {
  const navigate = useNavigate();
  const login = useLogin();
  // Validation on submit, then on change.
  const form = useForm<LoginBody>({
    resolver,
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
    if (me) void navigate(PAGES.Invoices, { replace: true });
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
              <Suspense fallback={null}>
                <CodeStep
                  challenge={challenge}
                  username={form.getValues('username').trim()}
                  onSignedIn={signedIn}
                  onBack={backToPassword}
                />
              </Suspense>
            </Stack>
          ) : (
            <form onSubmit={onSubmit} onChange={preloadSteps} noValidate aria-labelledby="login-title">
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
