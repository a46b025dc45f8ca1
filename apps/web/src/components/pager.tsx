import { memo, type ReactNode } from 'react';
import { Button, Group, Pagination, Select, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconChevronsLeft } from '@tabler/icons-react';

/**
 * Paging by position (keyset) instead of page numbers, past the numbered pages of a capped total: newer and older
 * steps (null when there is nothing that way) and a way back to the first numbered page.
 */
export type PositionPaging = {
  onFirst: () => void;
  onNewer: (() => void) | null;
  onOlder: (() => void) | null;
};

type Props = {
  /** "1–25 of 1,234", or '' while loading */
  range: string;
  rangeTestId: string;
  /** Next to the range, e.g. a "Count exactly" action */
  aside?: ReactNode;
  sizes: readonly number[];
  size: number;
  /** zero-based */
  page: number;
  pages: number;
  onSize: (size: number) => void;
  onPage: (page: number) => void;
  /** On the last numbered page, "Next" goes on by position (the total is capped: there is more) */
  onPastLast?: (() => void) | null;
  /** Given: the list is paged by position, page numbers are replaced by newer/older steps */
  position?: PositionPaging | null;
};

/**
 * The range, items-per-page choice and page buttons under a paginated table (zero-based pages); past the last
 * numbered page of a capped total, newer/older steps by position.
 */
export const Pager = memo(function Pager({
  range,
  rangeTestId,
  aside,
  sizes,
  size,
  page,
  pages,
  onSize,
  onPage,
  onPastLast,
  position,
}: Props) {
  const pastLast = onPastLast && page + 1 >= pages ? onPastLast : null;
  return (
    <Group justify="space-between" mt="md" wrap="wrap" gap="sm">
      <Group gap="xs" wrap="wrap">
        <Text size="sm" c="dimmed" data-testid={rangeTestId}>
          {range}
        </Text>
        {aside}
        <Group gap="xs" wrap="nowrap">
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
      </Group>
      {position ? (
        <Group gap={6} wrap="nowrap" role="group" aria-label="Pages by position">
          <Button
            variant="default"
            size="compact-sm"
            leftSection={<IconChevronsLeft size={14} aria-hidden />}
            onClick={position.onFirst}
          >
            First page
          </Button>
          <Button
            variant="default"
            size="compact-sm"
            leftSection={<IconChevronLeft size={14} aria-hidden />}
            disabled={!position.onNewer}
            onClick={position.onNewer ?? undefined}
          >
            Newer
          </Button>
          <Button
            variant="default"
            size="compact-sm"
            rightSection={<IconChevronRight size={14} aria-hidden />}
            disabled={!position.onOlder}
            onClick={position.onOlder ?? undefined}
          >
            Older
          </Button>
        </Group>
      ) : (
        <Pagination
          total={pages}
          value={Math.min(page + 1, pages)}
          onChange={(p) => onPage(p - 1)}
          siblings={1}
          size="sm"
          getControlProps={(control) =>
            control === 'next' && pastLast
              ? // the last numbered page of a capped total: there is more, reached by position
                { 'aria-label': 'next page', disabled: false, onClick: pastLast }
              : { 'aria-label': `${control} page` }
          }
          getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
        />
      )}
    </Group>
  );
});
