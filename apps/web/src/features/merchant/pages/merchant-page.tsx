import { useState } from 'react';
import { Alert, Button, Group, Stack, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { merchantForm, type Merchant, type MerchantForm } from '@paydesk/contracts';
import { SectionLoader } from '../../../components/full-page-loader';
import { PageTitle } from '../../../components/page-title';
import { Refusal } from '../../../components/refusal';
import { toast } from '../../../components/toast';
import { actionErrorMessage, isApiError } from '../../../lib/api';
import { useCan } from '../../../lib/session';
import { useCurrentMerchant, useUpdateMerchant } from '../api/merchant';
import { NewMerchantDialog } from '../components/new-merchant-dialog';
import { PublicKeySection } from '../components/public-key-section';
import { SectionCard } from '../components/section-card';
import { WebhookSecretSection } from '../components/webhook-secret-section';

export default function MerchantPage() {
  const canRead = useCan('merchant.read');
  const canCreate = useCan('merchant.rw.all');
  const [creating, setCreating] = useState(false);

  return (
    <>
      <PageTitle title="Merchant">
        {canCreate && (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
            New Merchant
          </Button>
        )}
      </PageTitle>
      {canRead ? <MerchantEditor /> : <Refusal missing={['merchant.read']} />}
      {canCreate && <NewMerchantDialog opened={creating} onClose={() => setCreating(false)} />}
    </>
  );
}

function MerchantEditor() {
  const canEditKeys = useCan('merchant.key.edit');
  const { data, isPending, error } = useCurrentMerchant();
  if (isPending) return <SectionLoader label="Loading merchant" />;
  if (error) return <Alert color="red">{error.message}</Alert>;
  return (
    <Stack gap="lg" maw={760}>
      <MerchantNameForm key={`${data.id}:${data.name}`} merchant={data} />
      <PublicKeySection merchant={data} canEdit={canEditKeys} />
      {canEditKeys && <WebhookSecretSection merchant={data} />}
    </Stack>
  );
}

function MerchantNameForm({ merchant }: { merchant: Merchant }) {
  const update = useUpdateMerchant();
  const form = useForm<MerchantForm>({
    resolver: zodResolver(merchantForm),
    defaultValues: { name: merchant.name },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((v) =>
    update.mutateAsync({ id: merchant.id, body: { name: v.name } }).then(
      () => toast.success('Successfully changed'),
      (e: unknown) => {
        toast.error(actionErrorMessage(e, 'Could not save the merchant'));
        if (isApiError(e) && e.fields?.name) form.setError('name', { type: 'server', message: e.fields.name });
      },
    ),
  );

  return (
    <SectionCard title="Profile">
      <form onSubmit={onSubmit} noValidate aria-label="Edit merchant">
        <Stack>
          <TextInput label="ID" value={merchant.id} readOnly />
          <TextInput label="Name" withAsterisk error={errors.name?.message} {...form.register('name')} />
          <Group justify="flex-end">
            <Button type="submit" loading={update.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </SectionCard>
  );
}
