import { Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  formatFeePercent,
  parseFeePercent,
  terminalSettingsForm,
  type TerminalDetails,
  type TerminalPatchBody,
  type TerminalSettingsForm,
} from '@paydesk/contracts';
import { toast } from '../../../components/toast';
import { isApiError } from '../../../lib/api';
import { useCan } from '../../../lib/session';
import { useSaveTerminal } from '../api/terminal';

const toForm = (t: TerminalDetails): TerminalSettingsForm => ({
  feePercent: formatFeePercent(t.feeBps ?? 0),
  callbackUrl: t.callbackUrl ?? '',
});

/**
 * The terminal's money and integration settings: the fee (terminal.attr.read, platform staff only), kept as basis
 * points and validated by the same parser as the server, and the callback URL (merchant.callback.edit) callbacks go
 * to. Each user sees what they hold: a merchant owner a "Callbacks" section with the URL and its Save, never the
 * fee; a user who may change neither sees the URL read-only and no Save.
 */
export function TerminalSettingsSection({ terminal }: { terminal: TerminalDetails }) {
  const canFee = useCan('terminal.attr.read');
  const canCallback = useCan('merchant.callback.edit');
  const save = useSaveTerminal();
  const form = useForm<TerminalSettingsForm>({
    resolver: zodResolver(terminalSettingsForm),
    defaultValues: toForm(terminal),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors } = form.formState;
  if (!canFee && !canCallback && !terminal.callbackUrl) return null;
  const title = canFee ? 'Fee and callbacks' : 'Callbacks';
  // a button says what it saves; a user who may change nothing here gets none
  const saveLabel = canFee && canCallback ? 'Save fee and callback' : canFee ? 'Save fee' : canCallback ? 'Save' : null;

  const onSubmit = form.handleSubmit((v) => {
    const body: TerminalPatchBody = {
      ...(canFee ? { feeBps: parseFeePercent(v.feePercent)! } : {}),
      ...(canCallback ? { callbackUrl: v.callbackUrl === '' ? null : v.callbackUrl } : {}),
    };
    return save.mutateAsync({ id: terminal.id, method: 'PATCH', body }).then(
      (saved) => {
        toast.success('Successfully changed');
        form.reset(toForm(saved));
      },
      (e: unknown) => {
        toast.error(e instanceof Error && e.message ? e.message : 'Could not save the terminal');
        if (isApiError(e) && e.fields?.callbackUrl) form.setError('callbackUrl', { message: e.fields.callbackUrl });
        if (isApiError(e) && e.fields?.feeBps) form.setError('feePercent', { message: e.fields.feeBps });
      },
    );
  });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label={canFee ? `Fee and callback of ${terminal.name}` : `Callbacks of ${terminal.name}`}
    >
      <Stack mt="lg">
        <Title order={2} fz="h4">
          {title}
        </Title>
        {canFee && (
          <TextInput
            label="Fee, %"
            description="Charged on every invoice of this terminal: 0 to 100, at most two decimals"
            inputMode="decimal"
            maw={240}
            error={errors.feePercent?.message}
            {...form.register('feePercent')}
          />
        )}
        <TextInput
          label="Callback URL"
          description="Status callbacks of this terminal's invoices go here, unless an invoice names its own"
          placeholder="https://shop.example.com/paydesk/callbacks"
          readOnly={!canCallback}
          error={errors.callbackUrl?.message}
          {...form.register('callbackUrl')}
        />
        {saveLabel && (
          <Group justify="flex-end">
            <Button type="submit" loading={save.isPending}>
              {saveLabel}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
