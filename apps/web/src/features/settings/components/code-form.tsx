import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Alert, Button, Group, Stack } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { z } from 'zod';
import { CodeInput } from '../../../components/code-input';
import { actionErrorMessage, isApiError } from '../../../lib/api';

type Props = {
  /** what a valid code is: the app's 6 digits only (turning on), or also a recovery code */
  schema: z.ZodType<string, string>;
  label: string;
  description?: ReactNode;
  /** the app's code only: a numeric keyboard and the browser's one-time-code autofill */
  numeric?: boolean;
  submitLabel: string;
  danger?: boolean;
  pending: boolean;
  onSubmit: (code: string) => Promise<unknown>;
  onCancel?: () => void;
  /** what to say when the call fails for another reason than the code */
  fallbackError: string;
  /** buttons under the input on a page (submit first), at the end of a dialog (submit last) */
  actions?: 'page' | 'dialog';
};

/**
 * One code asked for before the second factor changes: checked here first, then by the server, whose answer
 * about the code goes under the input (and anything else above it).
 */
export function CodeForm({
  schema,
  label,
  description,
  numeric,
  submitLabel,
  danger,
  pending,
  onSubmit,
  onCancel,
  fallbackError,
  actions = 'dialog',
}: Props) {
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (pending) return;
    const parsed = schema.safeParse(code);
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? 'Enter the code');
      input.current?.focus();
      return;
    }
    setAlert(null);
    onSubmit(code).catch((error: unknown) => {
      const about = isApiError(error) ? error.fields?.code : undefined;
      if (about) {
        setCode('');
        setFieldError(about);
        input.current?.focus();
      } else {
        setAlert(actionErrorMessage(error, fallbackError));
      }
    });
  };

  const cancel = onCancel && (
    <Button variant="default" onClick={onCancel} disabled={pending}>
      Cancel
    </Button>
  );

  return (
    <form onSubmit={submit} noValidate aria-label={label}>
      <Stack gap="md">
        {alert && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} aria-hidden />} role="alert">
            {alert}
          </Alert>
        )}
        <CodeInput
          ref={input}
          numeric={Boolean(numeric)}
          label={label}
          description={description}
          value={code}
          onChange={(value) => {
            setCode(value);
            if (fieldError) setFieldError(null);
          }}
          error={fieldError}
          data-autofocus
          maw={260}
          placeholder={numeric ? undefined : '123456 or xxxxx-xxxxx'}
        />
        <Group justify={actions === 'page' ? 'flex-start' : 'flex-end'} gap="sm">
          {actions === 'dialog' && cancel}
          <Button type="submit" loading={pending} color={danger ? 'red' : undefined}>
            {submitLabel}
          </Button>
          {actions === 'page' && cancel}
        </Group>
      </Stack>
    </form>
  );
}
