import { memo } from 'react';
import { Group, Pagination, Select, Text } from '@mantine/core';

type Props = {
  /** "1–25 of 1,234", or '' while loading */
  range: string;
  rangeTestId: string;
  sizes: readonly number[];
  size: number;
  /** zero-based */
  page: number;
  pages: number;
  onSize: (size: number) => void;
  onPage: (page: number) => void;
};

/** The range, items-per-page choice and page buttons under a paginated table (zero-based pages). */
export const Pager = memo(function Pager({ range, rangeTestId, sizes, size, page, pages, onSize, onPage }: Props) {
  return (
    <Group justify="space-between" mt="md" wrap="wrap" gap="sm">
      <Group gap="xs">
        <Text size="sm" c="dimmed" data-testid={rangeTestId}>
          {range}
        </Text>
        <Select
          aria-label="Items per page"
          data={sizes.map(String)}
          value={String(size)}
          onChange={(v) => v && onSize(Number(v))}
          allowDeselect={false}
          w={80}
          size="xs"
          // options are rendered when the list opens: a closed select keeps no hidden dropdown to position as the page lays out
          comboboxProps={{ keepMounted: false }}
        />
        <Text size="sm" c="dimmed">
          per page
        </Text>
      </Group>
      <Pagination
        total={pages}
        value={Math.min(page + 1, pages)}
        onChange={(p) => onPage(p - 1)}
        siblings={1}
        size="sm"
        getControlProps={(control) => ({ 'aria-label': `${control} page` })}
        getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
      />
    </Group>
  );
});
