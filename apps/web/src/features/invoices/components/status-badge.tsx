import type { CSSProperties, ReactNode } from 'react';
import { Badge, useMantineTheme, type BadgeProps, type MantineTheme } from '@mantine/core';
import { statusColor, type StatusColor } from '@paydesk/contracts/statuses';

/** Status badge colours: primary blue, error red, warning amber, success green, neutral grey. */
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

/** A status's badge colour and text (the label the API gives, else the code in words). */
const statusBadge = (code: string, label?: string) => ({
  color: BADGE_COLOR[statusColor(code)],
  text: label ?? code.replace(/_/g, ' '),
});

export function StatusBadge({ code, label, ...rest }: Props) {
  const b = statusBadge(code, label);
  return (
    <Badge color={b.color} variant="light" {...UNCLIPPED_BADGE} {...rest}>
      {b.text}
    </Badge>
  );
}

type PlainVariant = 'light' | 'outline' | 'filled';
/** Per theme, the root style of each colour and variant (the theme's own colour resolver, as Badge calls it). */
const plainStyles = new WeakMap<MantineTheme, Map<string, CSSProperties>>();

function plainBadgeStyle(theme: MantineTheme, color: string, variant: PlainVariant, lowercase: boolean) {
  let styles = plainStyles.get(theme);
  if (!styles) plainStyles.set(theme, (styles = new Map()));
  const key = `${color}/${variant}/${lowercase}`;
  let style = styles.get(key);
  if (!style) {
    const c = theme.variantColorResolver({ color, variant, theme });
    style = {
      '--badge-bg': c.background,
      '--badge-color': c.color,
      '--badge-bd': c.border,
      ...UNCLIPPED_BADGE.style,
      ...(lowercase ? { textTransform: 'lowercase' } : {}),
    } as CSSProperties;
    styles.set(key, style);
  }
  return style;
}

/**
 * A badge that looks like Mantine's, unclipped — Badge's classes and the CSS variables Badge would set — as two plain
 * elements, for lists that show many: Badge's hooks and style resolution were most of a list row's render time on a
 * phone.
 */
export function PlainBadge({
  color,
  variant,
  children,
  lowercase = false,
}: {
  color: string;
  variant: PlainVariant;
  children: ReactNode;
  lowercase?: boolean;
}) {
  const theme = useMantineTheme();
  return (
    <div className={Badge.classes.root} style={plainBadgeStyle(theme, color, variant, lowercase)}>
      <span className={Badge.classes.label} style={UNCLIPPED_BADGE.styles.label}>
        {children}
      </span>
    </div>
  );
}

/** StatusBadge as a PlainBadge. */
export function PlainStatusBadge({ code, label }: { code: string; label?: string }) {
  const b = statusBadge(code, label);
  return (
    <PlainBadge color={b.color} variant="light">
      {b.text}
    </PlainBadge>
  );
}
