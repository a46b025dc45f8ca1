import { Select } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { merchantsQuery } from '../../lib/merchant';
import { rememberedMerchantStore, scopedMerchantStore } from '../../lib/merchant-scope';
import { useStore } from '../../lib/persisted-store';
import { isMerchantScopedQuery } from '../../lib/query-client';
import { selectedTerminalStore } from '../../lib/terminals';

/** merchant.rw.all: choose the merchant every back-office call works on (sent as ?merchantId=). */
export function MerchantPicker() {
  const queryClient = useQueryClient();
  const { data } = useQuery(merchantsQuery);
  const current = useStore(scopedMerchantStore);
  const options = (data?.data ?? []).map((m) => ({ value: m.id, label: m.name }));

  const change = (id: string | null) => {
    if (!id || id === current) return;
    rememberedMerchantStore.set(id);
    scopedMerchantStore.set(id);
    selectedTerminalStore.set('');
    // Everything cached belongs to the previous merchant: drop it and refetch what is on screen.
    void queryClient.resetQueries({ predicate: (q) => isMerchantScopedQuery(q.queryKey) });
  };

  return (
    <Select
      aria-label="Merchant"
      data={options}
      value={current}
      onChange={change}
      allowDeselect={false}
      searchable={options.length > 8}
      nothingFoundMessage="Nothing found."
      // gives way down to what a merchant's name needs when the top bar is tight (the navigation's breakpoint)
      style={{ flex: '0 1 220px', minWidth: 170 }}
      // options are rendered when the list opens: a closed select keeps no hidden dropdown to position as the page lays out
      comboboxProps={{ shadow: 'md', keepMounted: false }}
    />
  );
}
