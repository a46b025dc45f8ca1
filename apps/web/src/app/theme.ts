import {
  DEFAULT_THEME,
  createTheme,
  darken,
  lighten,
  defaultVariantColorsResolver,
  luminance,
  mergeMantineTheme,
  parseThemeColor,
  type CSSVariablesResolver,
  type MantineColorsTuple,
  type VariantColorsResolver,
} from '@mantine/core';
import classes from './theme.module.css';

/** WCAG 2.1 AA for normal-size text (1.4.3): badges, buttons and labels are all normal-size here. */
export const AA_CONTRAST = 4.5;

/** The contrast ratio of two opaque colours (WCAG 2.1 relative luminance). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** `fg`, darkened in small steps until it reads at AA on every one of `backgrounds`. */
function darkenToContrast(fg: string, backgrounds: string[]): string {
  for (let step = 0; step <= 20; step++) {
    const c = step === 0 ? fg : darken(fg, step * 0.05);
    if (backgrounds.every((bg) => contrastRatio(c, bg) >= AA_CONTRAST)) return c;
  }
  return '#000';
}

// Filled colours use shade 8 (primaryShade below); shade 9 is the darker hover.
const FILLED_SHADE = 8;
const WHITE = DEFAULT_THEME.white;
const BLACK = DEFAULT_THEME.black;

export type ColorRoles = {
  /** filled: background, its hover, and the text on both */
  filled: string;
  filledHover: string;
  filledText: string;
  /** light (also subtle and transparent text): tinted background and the text on it and on white */
  light: string;
  lightHover: string;
  lightText: string;
  /** outline border and text, and `c="…"` text, on white, the grey of striped rows and the outline's hover */
  text: string;
};

/**
 * Mantine's default palette roles fall short of AA in places: white on orange, yellow, lime, teal and green fills
 * (2.5 to 4:1), shade 9 text on the shade 1 tints of teal, green and orange (3.6 to 4.3:1), shade 8 outlines of the
 * light colours on white. Each colour's roles are picked here, from its own shades, so that every variant reads at
 * AA: a fill keeps white text on the first shade from 8 that carries it, else takes black text; tinted and outline
 * text is darkened until it passes on its backgrounds.
 */
function colorRoles(shades: MantineColorsTuple, page: { white: string; stripe: string }): ColorRoles {
  const whiteOn = (bg: string) => contrastRatio(WHITE, bg) >= AA_CONTRAST;
  let filled: string;
  let filledHover: string;
  let filledText: string;
  if (whiteOn(shades[FILLED_SHADE]) && whiteOn(shades[9])) {
    [filled, filledHover, filledText] = [shades[FILLED_SHADE], shades[9], WHITE];
  } else if (whiteOn(shades[9]) && whiteOn(darken(shades[9], 0.1))) {
    [filled, filledHover, filledText] = [shades[9], darken(shades[9], 0.1), WHITE];
  } else {
    // too light for white text at any of its dark shades (yellow, orange, lime): dark text on the fill
    [filled, filledHover, filledText] = [shades[FILLED_SHADE], shades[9], BLACK];
  }
  return {
    filled,
    filledHover,
    filledText,
    light: shades[1],
    lightHover: shades[2],
    lightText: darkenToContrast(shades[9], [shades[1], shades[2], page.white]),
    // also on an outline's hover: its own colour at 5 % over the page
    text: darkenToContrast(shades[FILLED_SHADE], [page.white, page.stripe, lighten(shades[FILLED_SHADE], 0.95)]),
  };
}

const base = createTheme({
  primaryColor: 'blue',
  // Shade 8: white text on filled buttons meets WCAG AA contrast (shade 6 does not).
  primaryShade: { light: FILLED_SHADE, dark: FILLED_SHADE },
  defaultRadius: 'md',
  cursorType: 'pointer',
  // a user who asked the system for less motion gets dialogs, drawers and menus without their transitions
  respectReducedMotion: true,
});
const merged = mergeMantineTheme(DEFAULT_THEME, base);
const PAGE = { white: merged.white, stripe: merged.colors.gray[0] };

/** Every palette colour's roles, worked out once. */
export const COLOR_ROLES: Record<string, ColorRoles> = Object.fromEntries(
  Object.entries(merged.colors).map(([name, shades]) => [name, colorRoles(shades, PAGE)]),
);

/**
 * Mantine's resolver with the text of filled variants taken from the colour's roles (white or black, whichever
 * passes on that fill) and the "white" variant's text from the AA text shade; the other variants read the CSS
 * variables set below. Every Badge, Button, ActionIcon and Alert goes through it, and so do the plain badges that
 * copy a Badge's colours.
 */
export const variantColorResolver: VariantColorsResolver = (input) => {
  const resolved = defaultVariantColorsResolver(input);
  const parsed = parseThemeColor({ color: input.color, theme: input.theme });
  const roles = parsed.isThemeColor ? COLOR_ROLES[parsed.color] : undefined;
  if (!roles) return resolved;
  if (input.variant === 'filled') {
    if (parsed.shade === undefined) return { ...resolved, color: roles.filledText };
    const bg = input.theme.colors[parsed.color]![parsed.shade]!;
    return { ...resolved, color: contrastRatio(WHITE, bg) >= AA_CONTRAST ? WHITE : BLACK };
  }
  if (input.variant === 'white') return { ...resolved, color: `var(--mantine-color-${parsed.color}-text)` };
  return resolved;
};

// Plain component settings, not Component.extend(): importing the components here would put them (and the date
// pickers) into the first chunk of every screen.
export const theme = createTheme({
  ...base,
  variantColorResolver,
  components: {
    // the close (×) button of every dialog and drawer: an icon alone has no accessible name
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    // a clearable date field's × button has a name even where the field does not give it a better one
    DateInput: { defaultProps: { clearButtonProps: { 'aria-label': 'Clear date' } } },
    DatePickerInput: { defaultProps: { clearButtonProps: { 'aria-label': 'Clear date' } } },
    // a menu holds only its items: Mantine's hidden focus placeholder (role=presentation) is not one; focus goes to
    // the first item on opening instead, as the ARIA menu pattern has it
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    // the OFF label on the grey track of an unchecked switch (gray-6 on gray-3 is 2.6:1)
    Switch: { classNames: { track: classes.switchTrack } },
  },
});

export const cssVariablesResolver: CSSVariablesResolver = () => {
  const light: Record<string, string> = {
    // Mantine's default dimmed and placeholder greys are below AA on white; a darker grey reads better all day.
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // between gray-6 and gray-7: 4.7:1 on white, still lighter than typed text
    '--mantine-color-placeholder': '#6c757d',
    // error texts and the text typed into a field in error (red-6 is 3.3:1 on white)
    '--mantine-color-error': COLOR_ROLES.red!.text,
  };
  for (const [name, r] of Object.entries(COLOR_ROLES)) {
    light[`--mantine-color-${name}-filled`] = r.filled;
    light[`--mantine-color-${name}-filled-hover`] = r.filledHover;
    light[`--mantine-color-${name}-light`] = r.light;
    light[`--mantine-color-${name}-light-hover`] = r.lightHover;
    light[`--mantine-color-${name}-light-color`] = r.lightText;
    light[`--mantine-color-${name}-outline`] = r.text;
    light[`--mantine-color-${name}-text`] = r.text;
  }
  return { variables: {}, light, dark: {} };
};
