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
 * The terminal's money and integration settings: the fee (terminal.attr.read), kept as basis points and
 * validated by the same parser as the server, and the callback URL (merchant.callback.edit) callbacks go to.
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
    <form onSubmit={onSubmit} noValidate aria-label={`Fee and callback of ${terminal.name}`}>
      <Stack mt="lg">
        <Title order={2} fz="h4">
          Fee and callbacks
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
        {(canFee || canCallback) && (
          <Group justify="flex-end">
            <Button type="submit" variant="light" loading={save.isPending}>
              Save fee and callback
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
