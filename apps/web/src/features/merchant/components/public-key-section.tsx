import { useState } from 'react';
import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { merchantPublicKeyBody, type Merchant, type MerchantPublicKeyBody } from '@paydesk/contracts';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { toast } from '../../../components/toast';
import { actionErrorMessage, isApiError } from '../../../lib/api';
import { useReplacePublicKey } from '../api/merchant';
import { PublicKeyView } from './public-key-view';
import { SectionCard } from './section-card';

/** The API public key: everyone who sees the merchant reads it; merchant.key.edit replaces it. */
export function PublicKeySection({ merchant, canEdit }: { merchant: Merchant; canEdit: boolean }) {
  return (
    <SectionCard
      title="Public key"
      description="Requests to the merchant API are signed with your private key and checked with this Ed25519 public key."
    >
      <PublicKeyView pem={merchant.clientPublicKey} />
      {canEdit && <ReplaceKeyForm merchantId={merchant.id} />}
    </SectionCard>
  );
}

function ReplaceKeyForm({ merchantId }: { merchantId: string }) {
  const replace = useReplacePublicKey();
  const [pending, setPending] = useState<MerchantPublicKeyBody | null>(null);
  const form = useForm<MerchantPublicKeyBody>({
    resolver: zodResolver(merchantPublicKeyBody),
    defaultValues: { clientPublicKey: '' },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });

  const save = () => {
    if (!pending) return;
    replace.mutate(
      { id: merchantId, body: pending },
      {
        onSuccess: () => {
          toast.success('Public key replaced');
          form.reset({ clientPublicKey: '' });
        },
        onError: (e) => {
          toast.error(actionErrorMessage(e, 'Could not replace the public key'));
          const field = isApiError(e) ? e.fields?.clientPublicKey : undefined;
          if (field) form.setError('clientPublicKey', { type: 'server', message: field });
        },
        onSettled: () => setPending(null),
      },
    );
  };

  return (
    <form onSubmit={form.handleSubmit(setPending)} noValidate aria-label="Replace public key">
      <Stack gap="sm" mt="md">
        <Textarea
          label="New public key (PEM)"
          description="Paste the whole key, from -----BEGIN PUBLIC KEY----- to -----END PUBLIC KEY-----."
          autosize
          minRows={3}
          maxRows={8}
          spellCheck={false}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          error={form.formState.errors.clientPublicKey?.message}
          {...form.register('clientPublicKey')}
        />
        <Group justify="flex-end">
          <Button type="submit" variant="default" loading={replace.isPending}>
            Save key
          </Button>
        </Group>
      </Stack>
      <ConfirmDialog
        opened={pending !== null}
        title="Replace public key"
        message={
          <Text component="span">Replace the API public key? Requests signed with the old key will be refused.</Text>
        }
        confirmLabel="Replace key"
        danger
        loading={replace.isPending}
        onCancel={() => setPending(null)}
        onConfirm={save}
      />
    </form>
  );
}
