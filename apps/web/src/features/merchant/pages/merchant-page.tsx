import { useState } from 'react';
import { Alert, Button, Card, Group, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { merchantForm, type Merchant, type MerchantForm, type MerchantUpdateBody } from '@paydesk/contracts';
import { SectionLoader } from '../../../components/full-page-loader';
import { PageTitle } from '../../../components/page-title';
import { toast } from '../../../components/toast';
import { isApiError } from '../../../lib/api';
import { useCan } from '../../../lib/session';
import { useCurrentMerchant, useUpdateMerchant } from '../api/merchant';
import { NewMerchantDialog } from '../components/new-merchant-dialog';
import { PublicKeyView } from '../components/public-key-view';

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
      {canRead ? <MerchantEditor /> : <Alert color="gray">You do not have access to the merchant profile.</Alert>}
      {canCreate && <NewMerchantDialog opened={creating} onClose={() => setCreating(false)} />}
    </>
  );
}

function MerchantEditor() {
  const { data, isPending, error } = useCurrentMerchant();
  if (isPending) return <SectionLoader label="Loading merchant" />;
  if (error) return <Alert color="red">{error.message}</Alert>;
  return <MerchantEditForm key={`${data.id}:${data.name}:${data.clientPublicKey ?? ''}`} merchant={data} />;
}

function MerchantEditForm({ merchant }: { merchant: Merchant }) {
  const update = useUpdateMerchant();
  const form = useForm<MerchantForm>({
    resolver: zodResolver(merchantForm),
    defaultValues: { name: merchant.name, clientPublicKey: merchant.clientPublicKey ?? '' },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors, dirtyFields } = form.formState;

  const onSubmit = form.handleSubmit((v) => {
    const body: MerchantUpdateBody = { name: v.name };
    // an untouched or emptied key field leaves the stored key as it is
    if (dirtyFields.clientPublicKey && v.clientPublicKey) body.clientPublicKey = v.clientPublicKey;
    return update.mutateAsync({ id: merchant.id, body }).then(
      () => toast.success('Successfully changed'),
      (e: unknown) => {
        const message = e instanceof Error ? e.message : 'Could not save the merchant';
        toast.error(message);
        if (isApiError(e) && e.fields?.clientPublicKey)
          form.setError('clientPublicKey', { type: 'server', message: e.fields.clientPublicKey });
        if (isApiError(e) && e.fields?.name) form.setError('name', { type: 'server', message: e.fields.name });
      },
    );
  });

  return (
    <Card withBorder p="lg" maw={760}>
      <form onSubmit={onSubmit} noValidate aria-label="Edit merchant">
        <Stack>
          <TextInput label="ID" value={merchant.id} readOnly />
          <TextInput label="Name" withAsterisk error={errors.name?.message} {...form.register('name')} />
          <div>
            <Text size="sm" fw={500} mb={4}>
              Public key
            </Text>
            <PublicKeyView pem={merchant.clientPublicKey} />
          </div>
          <Textarea
            label="New public key (PEM)"
            description="Ed25519 public key in PEM (SPKI) format; the merchant API checks request signatures with it from the next request on."
            autosize
            minRows={3}
            maxRows={8}
            spellCheck={false}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            error={errors.clientPublicKey?.message}
            {...form.register('clientPublicKey')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={update.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
