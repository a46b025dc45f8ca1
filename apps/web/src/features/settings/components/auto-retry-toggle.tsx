import { Switch } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useCan } from '../../../lib/session';
import { autoRetryQuery, useSetAutoRetry } from '../api/auto-retry-setting';

/** Auto retry of withdrawals: shown with settings.read, editable with settings.edit, disabled while saving. */
export function AutoRetryToggle() {
  const canEdit = useCan('settings.edit');
  const { data: enabled } = useQuery(autoRetryQuery);
  const save = useSetAutoRetry();

  return (
    <Switch
      label="Auto retry"
      checked={enabled ?? false}
      disabled={!canEdit || save.isPending || enabled === undefined}
      onChange={(e) => save.mutate(e.currentTarget.checked)}
      labelPosition="left"
      size="sm"
      styles={{ label: { whiteSpace: 'nowrap' } }}
    />
  );
}
