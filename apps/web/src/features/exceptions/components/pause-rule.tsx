import { useState } from 'react';
import { Button, Group, NumberInput, Paper, Text } from '@mantine/core';
import { accountPauseRule, type AccountPauseRule } from '@paydesk/contracts/account-health';
import { actionErrorMessage } from '../../../lib/api';
import { useCan } from '../../../lib/session';
import { toast } from '../../../components/toast';
import { usePauseRule, useSetPauseRule } from '../api/exceptions';
import { ReasonDialog } from './reason-dialog';

/** The rule a provider account pauses itself by, in words, and (for staff who edit accounts) the way to change it. */
export function PauseRule() {
  const canEdit = useCan('people.account.edit');
  const rule = usePauseRule(true);
  const [editing, setEditing] = useState(false);
  if (!rule.data) return null;
  const r = rule.data;
  return (
    <Paper withBorder radius="md" p="sm" mt="md">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <div>
          <Text size="sm" fw={500}>
            Automatic pause
          </Text>
          <Text size="sm" data-testid="pause-rule">
            {r.pauseAfter === 0
              ? 'Off: accounts are paused only by hand.'
              : `An account leaves routing when none of the last ${r.pauseAfter} deposits given its requisites was paid within ${r.windowMinutes} minutes.`}
          </Text>
          <Text size="xs" c="dimmed">
            {r.updatedAt
              ? `Set by ${r.updatedBy ?? 'a removed user'}, ${new Date(r.updatedAt).toLocaleString()}`
              : "The installation's default"}
          </Text>
        </div>
        {canEdit && (
          <Button size="xs" variant="default" onClick={() => setEditing(true)}>
            Change rule
          </Button>
        )}
      </Group>
      {editing && <PauseRuleDialog current={r} onClose={() => setEditing(false)} />}
    </Paper>
  );
}

function PauseRuleDialog({ current, onClose }: { current: AccountPauseRule; onClose: () => void }) {
  const save = useSetPauseRule();
  const [pauseAfter, setPauseAfter] = useState<number | string>(current.pauseAfter);
  const [windowMinutes, setWindowMinutes] = useState<number | string>(current.windowMinutes);
  const parsed = accountPauseRule.safeParse({ pauseAfter, windowMinutes });
  const errorOf = (field: keyof AccountPauseRule) =>
    parsed.success ? undefined : parsed.error.issues.find((i) => i.path[0] === field)?.message;
  return (
    <ReasonDialog
      opened
      title="Automatic pause"
      confirmLabel="Save rule"
      busy={save.isPending}
      onClose={onClose}
      onConfirm={(reason) => {
        if (!parsed.success) return;
        save.mutate(
          { ...parsed.data, reason },
          {
            onSuccess: () => {
              toast.success('The pause rule applies from the next health check');
              onClose();
            },
            onError: (e) => toast.error(actionErrorMessage(e, 'The rule could not be saved')),
          },
        );
      }}
    >
      <NumberInput
        label="Unpaid deposits in a row"
        description="0 turns automatic pausing off"
        value={pauseAfter}
        onChange={setPauseAfter}
        min={0}
        max={1000}
        allowDecimal={false}
        allowNegative={false}
        error={errorOf('pauseAfter')}
      />
      <NumberInput
        label="Minutes each had to be paid"
        value={windowMinutes}
        onChange={setWindowMinutes}
        min={1}
        max={10_080}
        allowDecimal={false}
        allowNegative={false}
        error={errorOf('windowMinutes')}
      />
    </ReasonDialog>
  );
}
