import { Alert, Anchor, Breadcrumbs, Button, Card, Group, PasswordInput, Stack } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from 'react-router';
import { changePasswordForm, PASSWORD_RULE_TEXT, type ChangePasswordForm } from '@paydesk/contracts';
import { PageTitle } from '../../../components/page-title';
import { toast } from '../../../components/toast';
import { isApiError } from '../../../lib/api';
import { PAGES } from '../../../lib/pages';
import { meQueryKey, useCurrentUser } from '../../../lib/session';
import { useChangePassword } from '../api/change-password';

const EMPTY: ChangePasswordForm = { oldPassword: '', newPassword: '', confirmNewPassword: '' };

export default function ChangePasswordPage() {
  const form = useForm<ChangePasswordForm>({
    resolver: zodResolver(changePasswordForm),
    defaultValues: EMPTY,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors } = form.formState;
  const changePassword = useChangePassword();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // signed in with a password an administrator set: this is the only screen until it is replaced
  const forced = useCurrentUser().mustChangePassword;

  const onSubmit = form.handleSubmit((values) =>
    changePassword.mutateAsync({ currentPassword: values.oldPassword, newPassword: values.newPassword }).then(
      async () => {
        toast.success('Password changed successfully!');
        form.reset(EMPTY);
        if (forced) {
          await queryClient.refetchQueries({ queryKey: meQueryKey });
          await navigate(PAGES.Invoices, { replace: true });
        }
      },
      (error: unknown) => {
        const message = error instanceof Error ? error.message : 'Could not change the password';
        toast.error(message);
        if (isApiError(error) && error.fields?.newPassword) {
          form.setError('newPassword', { type: 'server', message: error.fields.newPassword }, { shouldFocus: true });
        } else {
          form.setError('oldPassword', { type: 'server', message }, { shouldFocus: true });
        }
      },
    ),
  );

  return (
    <>
      {!forced && (
        <Breadcrumbs mb="xs" aria-label="Breadcrumb">
          <Anchor component={Link} to={PAGES.Settings} size="sm">
            Settings
          </Anchor>
          <span aria-current="page">Change password</span>
        </Breadcrumbs>
      )}
      <PageTitle title="Change password" />
      {forced && (
        <Alert color="blue" icon={<IconKey size={18} aria-hidden />} maw={480} mb="md" role="status">
          Your password was set by an administrator. Choose a new password to continue.
        </Alert>
      )}
      <Card withBorder maw={480} p="lg">
        <form onSubmit={onSubmit} noValidate aria-label="Change password">
          <Stack>
            <PasswordInput
              label="Old password"
              description={forced ? 'The one-time password you signed in with' : undefined}
              autoComplete="current-password"
              withAsterisk
              error={errors.oldPassword?.message}
              {...form.register('oldPassword')}
            />
            <PasswordInput
              label="New password"
              // the rule is said before Submit, not only as an error after it
              description={PASSWORD_RULE_TEXT}
              autoComplete="new-password"
              withAsterisk
              error={errors.newPassword?.message}
              {...form.register('newPassword')}
            />
            <PasswordInput
              label="Confirm new password"
              autoComplete="new-password"
              withAsterisk
              error={errors.confirmNewPassword?.message}
              {...form.register('confirmNewPassword')}
            />
            <Group justify="flex-end">
              <Button type="submit" loading={changePassword.isPending}>
                Submit
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
    </>
  );
}
