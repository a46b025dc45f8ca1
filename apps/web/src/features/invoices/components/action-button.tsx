import { useId, useState, type ReactNode } from 'react';
import { Button, Tooltip, VisuallyHidden, type ButtonProps } from '@mantine/core';
import type { UseMutationResult } from '@tanstack/react-query';
import { toast } from '../../../components/toast';
import { actionErrorMessage } from '../../../lib/api';
import { ConfirmDialog } from '../../../components/confirm-dialog';

type Props = {
  label: string;
  title: string;
  message: ReactNode;
  mutation: UseMutationResult<unknown, Error, void>;
  success: string;
  /** the toast when the server gives no explanation of its own */
  failure: string;
  icon?: ReactNode;
  /** why the server would refuse the action now: the button is shown disabled and says so */
  refusal?: string | null;
} & Omit<ButtonProps, 'children' | 'onClick'>;

/** A button whose action runs after a confirmation dialog (Retry, Callback). */
export function ConfirmedActionButton({
  label,
  title,
  message,
  mutation,
  success,
  failure,
  icon,
  refusal,
  ...rest
}: Props) {
  const [open, setOpen] = useState(false);
  if (refusal) return <RefusedButton label={label} icon={icon} reason={refusal} {...rest} />;
  return (
    <>
      <Button variant="default" leftSection={icon} onClick={() => setOpen(true)} {...rest}>
        {label}
      </Button>
      <ConfirmDialog
        opened={open}
        title={title}
        message={message}
        loading={mutation.isPending}
        onCancel={() => setOpen(false)}
        onConfirm={() =>
          mutation.mutate(undefined, {
            onSuccess: () => toast.success(success),
            onError: (e) => toast.error(actionErrorMessage(e, failure)),
            onSettled: () => setOpen(false),
          })
        }
      />
    </>
  );
}

/**
 * An action the server would refuse in the invoice's current state: disabled, with the reason in a tooltip (on hover,
 * focus and touch) and as the button's description. It stays focusable and hoverable, which a `disabled` button is
 * not, so the reason can be read.
 */
export function RefusedButton({
  label,
  icon,
  reason,
  ...rest
}: { label: string; icon?: ReactNode; reason: string } & Omit<ButtonProps, 'children' | 'onClick'>) {
  const id = useId();
  return (
    <>
      <Tooltip label={reason} withArrow multiline maw={320} events={{ hover: true, focus: true, touch: true }}>
        <Button
          variant="default"
          leftSection={icon}
          data-disabled
          aria-disabled
          aria-describedby={id}
          onClick={(e) => e.preventDefault()}
          {...rest}
        >
          {label}
        </Button>
      </Tooltip>
      <VisuallyHidden id={id}>{reason}</VisuallyHidden>
    </>
  );
}
