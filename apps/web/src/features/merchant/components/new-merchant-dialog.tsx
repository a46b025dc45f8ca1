import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { merchantCreateBody, type Merchant, type MerchantCreateBody } from '@paydesk/contracts';
import { toast } from '../../../components/toast';
import { useCreateMerchant, useSwitchMerchant } from '../api/merchant';

type Props = { opened: boolean; onClose: () => void };

/** Creates a real merchant record, then offers to work on it. */
export function NewMerchantDialog({ opened, onClose }: Props) {
  const create = useCreateMerchant();
  const switchTo = useSwitchMerchant();
  const [created, setCreated] = useState<Merchant | null>(null);
  const form = useForm<MerchantCreateBody>({
    resolver: zodResolver(merchantCreateBody),
    defaultValues: { name: '' },
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const close = () => {
    form.reset({ name: '' });
    setCreated(null);
    onClose();
  };

  const onSubmit = form.handleSubmit((body) =>
    create.mutateAsync(body).then(
      (m) => {
        toast.success('Merchant created');
        setCreated(m);
      },
      (e: unknown) => toast.error(e instanceof Error ? e.message : 'Could not create the merchant'),
    ),
  );

  return (
    <Modal opened={opened} onClose={close} title="New Merchant" centered>
      {created ? (
        <Stack>
          <Text>
            Merchant <b>{created.name}</b> was created. Work on it now? You can also pick it later in the merchant list
            at the top.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Stay here
            </Button>
            <Button
              onClick={() => {
                switchTo(created.id);
                close();
              }}
            >
              Switch to {created.name}
            </Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={onSubmit} noValidate aria-label="New merchant">
          <Stack>
            <TextInput
              label="Name"
              withAsterisk
              data-autofocus
              error={form.formState.errors.name?.message}
              {...form.register('name')}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending}>
                Create
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
