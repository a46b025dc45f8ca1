import { useEffect } from 'react';
import { Box, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import { loginBody, type LoginBody } from '@paydesk/contracts';
import { Logo } from '../../../components/logo';
import { toast } from '../../../components/toast';
import { ROUTES } from '../../../lib/routes';
import { useLogin } from '../api/login';

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

  useEffect(() => {
    document.title = 'Log In · Paydesk';
  }, []);

  const onSubmit = form.handleSubmit((values) =>
    login.mutateAsync(values).then(
      (me) => {
        if (me) void navigate(ROUTES.Invoices, { replace: true });
        else toast.error('Signed in, but the browser did not keep the session. Check that cookies are allowed.');
      },
      (error: unknown) => toast.error(error instanceof Error ? error.message : 'Could not log in'),
    ),
  );

  return (
    <Box component="main" bg="gray.0" mih="100dvh">
      <Center mih="100dvh" p="md">
        <Paper withBorder shadow="sm" radius="lg" p="xl" w="100%" maw={420}>
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
              <TextInput
                label="Username"
                autoComplete="username"
                autoFocus
                withAsterisk
                error={errors.username?.message}
                {...form.register('username')}
              />
              <PasswordInput
                label="Password"
                autoComplete="current-password"
                withAsterisk
                error={errors.password?.message}
                {...form.register('password')}
              />
              <Button type="submit" fullWidth mt="xs" loading={login.isPending}>
                Log In
              </Button>
            </Stack>
          </form>
        </Paper>
      </Center>
    </Box>
  );
}
