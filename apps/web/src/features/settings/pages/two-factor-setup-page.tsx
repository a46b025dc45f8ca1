import { useEffect, useState } from 'react';
import { Anchor, Box, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Navigate, useNavigate } from 'react-router';
import { Logo } from '../../../components/logo';
import { toast } from '../../../components/toast';
import { PAGES } from '../../../lib/pages';
import { meQueryKey, useCurrentUser } from '../../../lib/session';
import { useLogout } from '../../../lib/use-logout';
import { TwoFactorEnrolment } from '../components/two-factor-enrolment';

/**
 * The setup an organisation requires: the only screen until two-factor sign-in is on (the server refuses the rest
 * meanwhile), then the app goes on as usual.
 */
export default function TwoFactorSetupPage() {
  const me = useCurrentUser();
  // decided once: the user's flag turns off the moment the setup is confirmed, while the recovery codes still show
  const [forced] = useState(me.mustSetUpTwoFactor);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const logout = useLogout();

  useEffect(() => {
    document.title = 'Set up two-factor sign-in · Paydesk';
  }, []);

  if (!forced) return <Navigate to={PAGES.TwoFactor} replace />;

  const done = async () => {
    await queryClient.refetchQueries({ queryKey: meQueryKey, exact: true });
    toast.success('Two-factor sign-in is on');
    await navigate(PAGES.Invoices, { replace: true });
  };

  return (
    <Box component="main" bg="gray.0" mih="100dvh">
      <Container size={760} py="xl" px="md">
        <Group justify="space-between" mb="lg" wrap="nowrap">
          <Logo />
          <Anchor
            component="button"
            type="button"
            size="sm"
            onClick={() => logout.mutate()}
            disabled={logout.isPending}
          >
            <Group gap={4} component="span" wrap="nowrap">
              <IconLogout size={16} aria-hidden />
              Sign out
            </Group>
          </Anchor>
        </Group>
        <Paper withBorder shadow="sm" radius="lg" p={{ base: 'md', sm: 'xl' }}>
          <Stack gap="xl">
            <div>
              <Title order={1} fz="h2">
                Set up two-factor sign-in
              </Title>
              <Text size="sm" mt={6} maw={620}>
                Your organisation requires two-factor sign-in: after your password, you also enter a code from an
                authenticator app on your phone. Set it up now to continue; it takes a minute.
              </Text>
            </div>
            <TwoFactorEnrolment username={me.username} onDone={() => void done()} />
          </Stack>
        </Paper>
      </Container>
    </Box>
  );
}
