import { useEffect, useRef, useState } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { IconEye, IconEyeOff } from '@tabler/icons-react';
import { actionErrorMessage, isApiError } from '../lib/api';
import { CopyIconButton } from './copy-icon-button';
import { toast } from './toast';

export const REVEAL_CAPTION = 'Shown to you and recorded in the audit trail';

/** What a failed reveal tells the user: past the hourly limit, why nothing is shown; else the usual words. */
export function revealErrorMessage(e: unknown): string {
  if (isApiError(e) && e.code === 'TOO_MANY_REQUESTS')
    return 'You have been shown as many full numbers as one person may see in an hour. Try again later.';
  return actionErrorMessage(e, 'Could not show the full number');
}

type Props = {
  /** The number as every answer sends it: '986012******9015', '7916*****67'. */
  masked: string;
  /** Whether the user may ask for the full number (the server checks again). */
  canReveal: boolean;
  /** Asks the server for the full number: an audited, rate-limited call. */
  reveal: () => Promise<string>;
  /**
   * Which number this is, for the controls' accessible names when several sit on one screen
   * ("Show full number of CARD 411111******1111"); without it they read "Show full number", "Hide".
   */
  what?: string;
  /** Right-aligned in a label/value row; left-aligned in a table cell. */
  align?: 'start' | 'end';
};

/**
 * A card or phone number shown masked, with "Show full number" for people allowed to see it. The full number is
 * asked for only on the click (each ask is audited and counted against an hourly limit) and lives in this component's
 * state alone: the mutation is dropped as soon as it answers and never kept by react-query, "Hide" forgets it, and so
 * does unmounting. Callers key the component by what it shows, so another invoice or credential starts masked.
 */
export function RevealableNumber({ masked, canReveal, reveal, what, align = 'start' }: Props) {
  const [full, setFull] = useState<string | null>(null);
  const mutation = useMutation({ mutationFn: reveal, gcTime: 0 });
  const toggle = useRef<HTMLButtonElement>(null);
  // the toggle is disabled while the server answers; focus goes back to it once the number changes
  const refocus = useRef(false);
  useEffect(() => {
    if (!refocus.current) return;
    refocus.current = false;
    toggle.current?.focus();
  }, [full]);

  const show = () => {
    if (mutation.isPending) return;
    mutation.mutate(undefined, {
      onSuccess: (value) => {
        refocus.current = true;
        setFull(value);
        // the answer stays in this component's state only, not in the mutation cache
        mutation.reset();
      },
      onError: (e) => toast.error(revealErrorMessage(e)),
    });
  };
  const hide = () => {
    refocus.current = true;
    setFull(null);
  };

  const justify = align === 'end' ? 'flex-end' : 'flex-start';
  const suffix = what ? ` of ${what}` : '';
  return (
    <Stack gap={2} align={justify} data-testid="revealable-number">
      <Group gap="xs" justify={justify} wrap="wrap">
        <Text
          component="span"
          size="sm"
          ff="monospace"
          style={{ wordBreak: 'break-all' }}
          data-revealed={full !== null ? 'true' : undefined}
        >
          {full ?? masked}
        </Text>
        {full !== null && <CopyIconButton value={full} what={`full number${suffix}`} variant="subtle" size="sm" />}
        {canReveal && (
          <Button
            ref={toggle}
            size="compact-xs"
            variant="subtle"
            leftSection={full !== null ? <IconEyeOff size={14} aria-hidden /> : <IconEye size={14} aria-hidden />}
            loading={mutation.isPending}
            onClick={full !== null ? hide : show}
            aria-label={full !== null ? `Hide full number${suffix}` : `Show full number${suffix}`}
          >
            {full !== null ? 'Hide' : 'Show full number'}
          </Button>
        )}
      </Group>
      {full !== null && (
        <Text size="xs" c="dimmed" role="status">
          {REVEAL_CAPTION}
        </Text>
      )}
    </Stack>
  );
}
