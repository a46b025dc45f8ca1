import { useState } from 'react';
import { Alert, Button, Tabs, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { SectionLoader } from '../../../components/full-page-loader';
import { PageTitle } from '../../../components/page-title';
import { useCan } from '../../../lib/session';
import { useTerminals } from '../../../lib/terminals';
import { useTerminal } from '../api/terminal';
import { NewTerminalDialog } from '../components/new-terminal-dialog';
import { TerminalEditForm } from '../components/terminal-form';

function TerminalPanel({ id }: { id: string }) {
  const { data, isPending, error } = useTerminal(id);
  if (isPending) return <SectionLoader label="Loading terminal" />;
  if (error) return <Alert color="red">{error.message}</Alert>;
  return <TerminalEditForm key={data.id} terminal={data} />;
}

export default function TerminalsPage() {
  const canCreate = useCan('terminal.create');
  const { data: terminals, isPending, error } = useTerminals();
  const [selected, setSelected] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const active = terminals?.some((t) => t.id === selected) ? selected : (terminals?.[0]?.id ?? null);

  return (
    <>
      <PageTitle title="Terminals">
        {canCreate && (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
            New Terminal
          </Button>
        )}
      </PageTitle>
      {isPending && <SectionLoader label="Loading terminals" />}
      {error && <Alert color="red">{error.message}</Alert>}
      {terminals && terminals.length === 0 && <Text c="dimmed">No terminals yet.</Text>}
      {terminals && terminals.length > 0 && (
        <Tabs value={active} onChange={setSelected} keepMounted={false}>
          <Tabs.List mb="md">
            {terminals.map((t) => (
              <Tabs.Tab key={t.id} value={t.id}>
                {t.name}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {active && (
            <Tabs.Panel value={active}>
              <TerminalPanel id={active} />
            </Tabs.Panel>
          )}
        </Tabs>
      )}
      {canCreate && (
        <NewTerminalDialog
          opened={creating}
          onClose={() => setCreating(false)}
          onCreated={(t) => {
            setCreating(false);
            setSelected(t.id);
          }}
        />
      )}
    </>
  );
}
