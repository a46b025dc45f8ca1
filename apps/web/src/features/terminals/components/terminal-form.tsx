import { useState } from 'react';
import { ActionIcon, Badge, Button, Card, Group, Select, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  attributeFormValue,
  attributeLabel,
  defaultAttributeValue,
  isAmountAttribute,
  TERMINAL_ATTRIBUTE_TYPE_HEADER,
  terminalForm,
  terminalFormToPutBody,
  type TerminalDetails,
  type TerminalForm,
} from '@paydesk/contracts';
import { MoneyInput } from '../../../components/money-input';
import { toast } from '../../../components/toast';
import { isApiError } from '../../../lib/api';
import { useReference } from '../../../lib/references';
import { useCan } from '../../../lib/session';
import { useRemoveAttribute, useSaveTerminal, useSwitchToProduction, type SaveTerminal } from '../api/terminal';
import { AttributeValueInput } from './attribute-value-input';
import { ConfirmProductionDialog } from './confirm-production-dialog';
import { TerminalSettingsSection } from './terminal-settings-form';

/** Amount attributes are stored in minor units; their rows hold major units of the terminal's currency. */
const amountDimensionOf = (t: TerminalDetails, code: string) =>
  isAmountAttribute(code) ? t.currency.dimension : undefined;

const toForm = (t: TerminalDetails): TerminalForm => ({
  name: t.name,
  attributes: (t.attributes ?? []).map((a) => {
    const amountDimension = amountDimensionOf(t, a.attrType.code);
    return {
      id: a.id,
      attrTypeId: a.attrType.id,
      paramType: a.paramType.code,
      label: attributeLabel(a.attrType.code, a.attrType.value),
      ...(amountDimension !== undefined ? { amountDimension } : {}),
      value: attributeFormValue(a.value, amountDimension),
    };
  }),
});

const errorMessage = (e: unknown, fallback: string) => (e instanceof Error && e.message ? e.message : fallback);

/** One terminal's edit form (Terminals page): name, typed attributes, save, and the switch to production. */
export function TerminalEditForm({ terminal }: { terminal: TerminalDetails }) {
  const canRename = useCan('terminal.create');
  const canAttr = useCan('terminal.attr.read');
  const canProd = useCan('terminal.prod.change');
  const attrTypes = useReference(TERMINAL_ATTRIBUTE_TYPE_HEADER);
  const save = useSaveTerminal();
  const removeAttr = useRemoveAttribute(terminal.id);
  const toProduction = useSwitchToProduction();
  const [confirmOpen, setConfirmOpen] = useState(false);

  const form = useForm<TerminalForm>({
    resolver: zodResolver(terminalForm),
    defaultValues: toForm(terminal),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'attributes', keyName: 'key' });
  const { errors } = form.formState;
  const rows = form.watch('attributes');
  const usedTypes = new Set(rows.map((r) => r.attrTypeId));
  const addable = (attrTypes.data ?? []).filter((t) => t.paramType && !usedTypes.has(t.id));

  const onSubmit = form.handleSubmit((values) => {
    const put = terminalFormToPutBody(values);
    // server field paths index the sent list; empty rows were dropped from it
    const sentIndex = values.attributes.flatMap((a, i) => (a.value === '' ? [] : [i]));
    const request: SaveTerminal =
      canRename && canAttr
        ? { id: terminal.id, method: 'PUT', body: put }
        : canRename
          ? { id: terminal.id, method: 'PATCH', body: { name: values.name } }
          : { id: terminal.id, method: 'PATCH', body: { attributes: put.attributes } };
    return save.mutateAsync(request).then(
      (saved) => {
        toast.success('Successfully changed');
        form.reset(toForm(saved));
      },
      (e: unknown) => {
        toast.error(errorMessage(e, 'Could not save the terminal'));
        if (!isApiError(e) || !e.fields) return;
        for (const [path, message] of Object.entries(e.fields)) {
          const m = /^attributes\.(\d+)\.value$/.exec(path);
          if (path === 'name') form.setError('name', { type: 'server', message });
          else if (m) form.setError(`attributes.${sentIndex[Number(m[1])] ?? 0}.value`, { type: 'server', message });
        }
      },
    );
  });

  const onRemove = (index: number) => {
    const row = rows[index];
    if (!row) return;
    if (row.id === undefined) {
      remove(index);
      return;
    }
    removeAttr.mutate(row.id, {
      onSuccess: () => {
        toast.success('Successfully removed');
        remove(index);
      },
      onError: (e) => toast.error(errorMessage(e, 'Could not remove the attribute')),
    });
  };

  const onAdd = (typeId: string | null) => {
    const type = addable.find((t) => String(t.id) === typeId);
    if (!type?.paramType) return;
    const amountDimension = amountDimensionOf(terminal, type.code);
    append({
      attrTypeId: type.id,
      paramType: type.paramType,
      label: attributeLabel(type.code, type.value),
      ...(amountDimension !== undefined ? { amountDimension } : {}),
      value: defaultAttributeValue(type.paramType),
    });
  };

  const confirmProduction = () =>
    toProduction.mutate(terminal.id, {
      onSuccess: () => {
        toast.success('Successfully changed');
        setConfirmOpen(false);
      },
      onError: (e) => {
        toast.error(errorMessage(e, 'Could not switch the terminal'));
        setConfirmOpen(false);
      },
    });

  return (
    <Card withBorder p="lg" maw={760}>
      <Group justify="space-between" mb="md">
        <Group gap="xs">
          <Badge variant="light" color={terminal.paymentFlow === 'DEPOSIT' ? 'teal' : 'grape'}>
            {terminal.paymentFlow.toLowerCase()}
          </Badge>
          <Badge variant="outline">{terminal.currency.code}</Badge>
          {terminal.isTest ? (
            <Badge color="yellow" variant="filled">
              Test
            </Badge>
          ) : (
            <Badge color="green" variant="light">
              Production
            </Badge>
          )}
          {!terminal.enabled && <Badge color="gray">Disabled</Badge>}
        </Group>
        {terminal.isTest && canProd && (
          <Button variant="light" color="orange" onClick={() => setConfirmOpen(true)}>
            Switch to production
          </Button>
        )}
      </Group>

      <form onSubmit={onSubmit} noValidate aria-label={`Edit terminal ${terminal.name}`}>
        <Stack>
          <TextInput
            label="Name"
            // required only for someone who may change it
            withAsterisk={canRename}
            readOnly={!canRename}
            error={errors.name?.message}
            {...form.register('name')}
          />
          <Text size="xs" c="dimmed">
            Terminal ID: {terminal.id}
          </Text>

          {canAttr && (
            <>
              <Title order={2} fz="h4" mt="sm">
                Attributes
              </Title>
              {fields.length === 0 && (
                <Text c="dimmed" size="sm">
                  No attributes
                </Text>
              )}
              {fields.map((f, index) => (
                <Group key={f.key} align="flex-start" wrap="nowrap">
                  <div style={{ flex: 1 }}>
                    <Controller
                      control={form.control}
                      name={`attributes.${index}.value`}
                      render={({ field }) =>
                        f.amountDimension !== undefined ? (
                          <MoneyInput
                            label={f.label}
                            currency={{ code: terminal.currency.code, dimension: f.amountDimension }}
                            value={field.value}
                            onChange={field.onChange}
                            onBlur={field.onBlur}
                            ref={field.ref}
                            error={errors.attributes?.[index]?.value?.message}
                          />
                        ) : (
                          <AttributeValueInput
                            label={f.label}
                            paramType={f.paramType}
                            value={field.value}
                            onChange={field.onChange}
                            onBlur={field.onBlur}
                            inputRef={field.ref}
                            error={errors.attributes?.[index]?.value?.message}
                          />
                        )
                      }
                    />
                  </div>
                  <Tooltip label="Remove">
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      mt={44}
                      aria-label={`Remove ${f.label}`}
                      loading={removeAttr.isPending && removeAttr.variables === f.id}
                      onClick={() => onRemove(index)}
                    >
                      <IconTrash size={18} aria-hidden />
                    </ActionIcon>
                  </Tooltip>
                </Group>
              ))}
              {addable.length > 0 && (
                <Select
                  label="Add attribute"
                  placeholder="Choose an attribute type"
                  data={addable.map((t) => ({ value: String(t.id), label: attributeLabel(t.code, t.value) }))}
                  value={null}
                  onChange={onAdd}
                  searchable
                  maw={360}
                />
              )}
            </>
          )}

          {(canRename || canAttr) && (
            <Group justify="flex-end">
              <Button type="submit" loading={save.isPending}>
                Save
              </Button>
            </Group>
          )}
        </Stack>
      </form>
      <TerminalSettingsSection key={`${terminal.feeBps}:${terminal.callbackUrl}`} terminal={terminal} />
      <ConfirmProductionDialog
        opened={confirmOpen}
        loading={toProduction.isPending}
        onConfirm={confirmProduction}
        onCancel={() => setConfirmOpen(false)}
      />
    </Card>
  );
}
