import { useMemo } from 'react';
import { Select, type ComboboxItem, type OptionsFilter } from '@mantine/core';
import { useSelectedTerminal, useTerminals } from '../../lib/terminals';

// Mantine's Select cannot hold '' as an option value; this stands for "no terminal filter".
const ALL = '__all__';
const normalize = (s: string) => s.toLowerCase().replace(/\s+/g, '');

/** Case- and whitespace-insensitive substring match. */
const filter: OptionsFilter = ({ options, search }) => {
  const needle = normalize(search);
  return (options as ComboboxItem[]).filter((o) => normalize(o.label).includes(needle));
};

export function TerminalSelect() {
  const { data: terminals, isPending } = useTerminals();
  const [terminalId, setTerminalId] = useSelectedTerminal();
  const data = useMemo(
    () => [{ value: ALL, label: 'ALL TERMINALS' }, ...(terminals ?? []).map((t) => ({ value: t.id, label: t.name }))],
    [terminals],
  );

  return (
    <Select
      aria-label="Terminal"
      placeholder={isPending ? 'Loading terminals…' : 'ALL TERMINALS'}
      data={data}
      value={terminalId || ALL}
      onChange={(v) => setTerminalId(!v || v === ALL ? '' : v)}
      searchable
      filter={filter}
      nothingFoundMessage="Nothing found."
      allowDeselect={false}
      style={{ flex: '0 1 260px', minWidth: 190 }}
      // options are rendered when the list opens: a closed select keeps no hidden dropdown to position as the page lays out
      comboboxProps={{ shadow: 'md', keepMounted: false }}
    />
  );
}
