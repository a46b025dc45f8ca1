import type { CSSProperties, ReactNode } from 'react';
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

type PlainVariant = 'light' | 'outline' | 'filled';
/** What Mantine's default variant resolver gives a badge of that colour and variant, as Badge's CSS variables. */
function badgeVars(color: string, variant: PlainVariant): CSSProperties {
  const border = (c: string) => `calc(0.0625rem * var(--mantine-scale)) solid ${c}`;
  const vars =
    variant === 'light'
      ? {
          '--badge-bg': `var(--mantine-color-${color}-light)`,
          '--badge-color': `var(--mantine-color-${color}-light-color)`,
          '--badge-bd': border('transparent'),
        }
      : variant === 'outline'
        ? {
            '--badge-bg': 'transparent',
            '--badge-color': `var(--mantine-color-${color}-outline)`,
            '--badge-bd': border(`var(--mantine-color-${color}-outline)`),
          }
        : {
            '--badge-bg': `var(--mantine-color-${color}-filled)`,
            '--badge-color': 'var(--mantine-color-white)',
            '--badge-bd': border('transparent'),
          };
  return { ...vars, overflow: 'visible' } as CSSProperties;
}
const styleCache = new Map<string, CSSProperties>();
const PLAIN_LABEL: CSSProperties = { overflow: 'visible', textOverflow: 'clip' };

/**
 * A badge that looks like Mantine's (its classes and CSS variables, unclipped) as two plain elements, for lists that
 * show many: Badge's hooks and style resolution were most of a list row's render time on a phone.
 */
export function PlainBadge({
  color,
  variant,
  children,
  lowercase,
}: {
  color: string;
  variant: PlainVariant;
  children: ReactNode;
  lowercase?: boolean;
}) {
  const key = `${color}/${variant}/${lowercase ? 'l' : ''}`;
  let style = styleCache.get(key);
  if (!style) {
    style = { ...badgeVars(color, variant), ...(lowercase ? { textTransform: 'lowercase' } : {}) };
    styleCache.set(key, style);
  }
  return (
    <div className={Badge.classes.root} style={style}>
      <span className={Badge.classes.label} style={PLAIN_LABEL}>
        {children}
      </span>
    </div>
  );
}

/** StatusBadge as a PlainBadge. */
export function PlainStatusBadge({ code, label }: { code: string; label?: string }) {
  return (
    <PlainBadge color={BADGE_COLOR[statusColor(code)]} variant="light">
      {label ?? code.replace(/_/g, ' ')}
    </PlainBadge>
  );
}
