import { Badge, type BadgeProps } from '@mantine/core';
import { statusColor, type StatusColor } from '@paydesk/contracts/statuses';

/** SPEC §4 badge colours: primary blue, error red, warning amber, success green, neutral grey. */
export const BADGE_COLOR: Record<StatusColor, string> = {
  primary: 'blue',
  error: 'red',
  warning: 'yellow',
  success: 'green',
  neutral: 'gray',
};

/**
 * A badge whose label never clips ("FA…", "S."): as wide as its text; a table gives it room or scrolls in its card.
 */
export const UNCLIPPED_BADGE = {
  style: { overflow: 'visible' },
  styles: { label: { overflow: 'visible', textOverflow: 'clip' } },
} as const;

type Props = { code: string; label?: string } & Omit<BadgeProps, 'color' | 'children'>;

export function StatusBadge({ code, label, ...rest }: Props) {
  return (
    <Badge color={BADGE_COLOR[statusColor(code)]} variant="light" {...UNCLIPPED_BADGE} {...rest}>
      {label ?? code.replace(/_/g, ' ')}
    </Badge>
  );
}
