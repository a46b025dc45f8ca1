import { Anchor, Breadcrumbs, Button, Card, Group, PasswordInput, Stack } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { changePasswordForm, type ChangePasswordForm } from '@paydesk/contracts';
import { PageTitle } from '../../../components/page-title';
import { toast } from '../../../components/toast';
import { isApiError } from '../../../lib/api';
import { ROUTES } from '../../../lib/routes';
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

  const onSubmit = form.handleSubmit((values) =>
    changePassword.mutateAsync({ currentPassword: values.oldPassword, newPassword: values.newPassword }).then(
      () => {
        toast.success('Password changed successfully!');
        form.reset(EMPTY);
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
      <Breadcrumbs mb="xs" aria-label="Breadcrumb">
        <Anchor component={Link} to={ROUTES.Settings} size="sm">
          Settings
        </Anchor>
        <span aria-current="page">Change password</span>
      </Breadcrumbs>
      <PageTitle title="Change password" />
      <Card withBorder maw={480} p="lg">
        <form onSubmit={onSubmit} noValidate aria-label="Change password">
          <Stack>
            <PasswordInput
              label="Old password"
              autoComplete="current-password"
              withAsterisk
              error={errors.oldPassword?.message}
              {...form.register('oldPassword')}
            />
            <PasswordInput
              label="New password"
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
