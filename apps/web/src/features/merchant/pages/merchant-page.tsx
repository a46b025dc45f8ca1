import { useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Button, Group, Stack, Tabs, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { merchantForm, type Merchant, type MerchantForm } from '@paydesk/contracts';
import { SectionLoader } from '../../../components/full-page-loader';
import { PageTitle } from '../../../components/page-title';
import { Refusal } from '../../../components/refusal';
import { toast } from '../../../components/toast';
import { actionErrorMessage, isApiError } from '../../../lib/api';
import { scopedMerchantStore } from '../../../lib/merchant-scope';
import { useStore } from '../../../lib/persisted-store';
import { useCan } from '../../../lib/session';
import { useCurrentMerchant, useUpdateMerchant } from '../api/merchant';
import { CallbackDeliveries } from '../components/callback-deliveries';
import { CallbackEndpointCard } from '../components/callback-endpoint-card';
import { NewMerchantDialog } from '../components/new-merchant-dialog';
import { PublicKeySection } from '../components/public-key-section';
import { SectionCard } from '../components/section-card';
import { WebhookSecretSection } from '../components/webhook-secret-section';
import {
  parseCallbacksState,
  toCallbacksSearchParams,
  type CallbacksState,
  type MerchantTab,
} from '../model/callback-filters';

export default function MerchantPage() {
  const canRead = useCan('merchant.read');
  const canCreate = useCan('merchant.rw.all');
  const canCallbacks = useCan('merchant.callback.read');
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
      {canCallbacks ? <MerchantTabs canRead={canRead} /> : <Profile canRead={canRead} />}
      {canCreate && <NewMerchantDialog opened={creating} onClose={() => setCreating(false)} />}
    </>
  );
}

const Profile = ({ canRead }: { canRead: boolean }) =>
  canRead ? <MerchantEditor /> : <Refusal missing={['merchant.read']} />;

/**
 * With merchant.callback.read: the profile (with the callback endpoint's health) and the merchant's callback
 * deliveries, one tab each; the tab and the list's filters are in the URL.
 */
function MerchantTabs({ canRead }: { canRead: boolean }) {
  const [sp, setSp] = useSearchParams();
  const state = parseCallbacksState(sp);
  const update = (next: Partial<CallbacksState>) => setSp(toCallbacksSearchParams({ ...state, ...next }));
  // platform staff: the merchant picked in the top bar; merchant staff: their own (the server's choice)
  const merchant = useStore(scopedMerchantStore);
  return (
    <Tabs
      value={state.tab}
      onChange={(tab) => tab && update({ tab: tab as MerchantTab, after: null })}
      keepMounted={false}
    >
      <Tabs.List mb="lg">
        <Tabs.Tab value="profile">Profile</Tabs.Tab>
        <Tabs.Tab value="callbacks">Callbacks</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="profile">
        {canRead ? (
          <MerchantEditor endpoint={<CallbackEndpointCard merchant={merchant} links />} />
        ) : (
          <Stack gap="lg" maw={760}>
            <Refusal missing={['merchant.read']} />
            <CallbackEndpointCard merchant={merchant} links />
          </Stack>
        )}
      </Tabs.Panel>
      <Tabs.Panel value="callbacks">
        <Stack gap="lg">
          <CallbackEndpointCard merchant={merchant} />
          <CallbackDeliveries key={merchant ?? 'own'} merchant={merchant} state={state} update={update} />
        </Stack>
      </Tabs.Panel>
    </Tabs>
  );
}

function MerchantEditor({ endpoint }: { endpoint?: ReactNode }) {
  const canEditKeys = useCan('merchant.key.edit');
  const { data, isPending, error } = useCurrentMerchant();
  if (isPending) return <SectionLoader label="Loading merchant" />;
  if (error) return <Alert color="red">{error.message}</Alert>;
  return (
    <Stack gap="lg" maw={760}>
      <MerchantNameForm key={`${data.id}:${data.name}`} merchant={data} />
      {endpoint}
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
