import { DEFAULT_THEME, alpha, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { AA_CONTRAST, COLOR_ROLES, contrastRatio, cssVariablesResolver, theme, variantColorResolver } from './theme';

const merged = mergeMantineTheme(DEFAULT_THEME, theme);
const vars = cssVariablesResolver(merged).light as Record<string, string>;
const WHITE = merged.white;
const STRIPE = merged.colors.gray[0];

/** A translucent colour as it shows over white. */
function overWhite(value: string): string {
  const m = /^rgba\((\d+),\s*(\d+),\s*(\d+),\s*([\d.]+)\)$/.exec(value);
  if (!m) return value;
  const a = Number(m[4]);
  const [r, g, b] = [m[1], m[2], m[3]].map((c) => Math.round(Number(c) * a + 255 * (1 - a)));
  return `rgb(${r}, ${g}, ${b})`;
}

/** Mantine's own variables this theme leaves alone (light scheme). */
const MANTINE_VARS: Record<string, string> = {
  '--mantine-color-white': WHITE,
  '--mantine-color-black': merged.black,
  '--mantine-color-default': WHITE,
  '--mantine-color-default-hover': merged.colors.gray[0],
  '--mantine-color-default-color': merged.black,
};

/** A colour as the browser ends up with it: CSS variables set by the resolver (or Mantine's shades) resolved. */
function resolve(value: string): string {
  const m = /^var\((--[\w-]+)\)$/.exec(value);
  if (!m) return overWhite(value);
  const name = m[1]!;
  if (vars[name]) return resolve(vars[name]);
  const shade = /^--mantine-color-([a-z]+)-(\d)$/.exec(name);
  if (shade) return merged.colors[shade[1]!]![Number(shade[2])]!;
  if (MANTINE_VARS[name]) return MANTINE_VARS[name];
  // an outline's hover: its colour at 5 % over the page
  const outlineHover = /^--mantine-color-([a-z]+)-outline-hover$/.exec(name);
  if (outlineHover) return overWhite(alpha(merged.colors[outlineHover[1]!]![8]!, 0.05));
  throw new Error(`unknown variable ${name}`);
}

const COLORS = Object.keys(merged.colors);

describe('theme colours: every badge, button and text variant reads at WCAG AA (4.5:1)', () => {
  it('contrastRatio agrees with known pairs', () => {
    expect(contrastRatio('#000', '#fff')).toBeCloseTo(21, 5);
    // the failures axe reported with Mantine's defaults: teal-9 on teal-1 (4.32:1), green-9 on green-1 (3.8:1)
    expect(contrastRatio('#087f5b', '#c3fae8')).toBeCloseTo(4.33, 1);
    expect(contrastRatio('#2b8a3e', '#d3f9d8')).toBeCloseTo(3.8, 1);
  });

  for (const variant of ['filled', 'light', 'outline', 'subtle', 'transparent', 'white', 'default'] as const) {
    it(`${variant}: text on its background and its hover background, for every palette colour`, () => {
      const failures: string[] = [];
      for (const color of COLORS) {
        const v = variantColorResolver({ color, variant, theme: merged });
        const text = resolve(v.color!);
        const backgrounds = [v.background!, v.hover!]
          .map((bg) => (bg === 'transparent' ? WHITE : bg))
          .map((bg) => (/^(#|rgb|var)/.test(bg) ? resolve(bg) : WHITE));
        if (variant === 'outline' || variant === 'subtle' || variant === 'transparent') backgrounds.push(STRIPE);
        for (const bg of backgrounds) {
          const ratio = contrastRatio(text, bg);
          if (ratio < AA_CONTRAST) failures.push(`${color}: ${text} on ${bg} is ${ratio.toFixed(2)}:1`);
        }
      }
      expect(failures).toEqual([]);
    });
  }

  it('the badges axe flagged now pass: teal "on"/"deposit", green "Production", orange and yellow fills', () => {
    for (const color of ['teal', 'green', 'orange', 'yellow']) {
      const light = variantColorResolver({ color, variant: 'light', theme: merged });
      expect(contrastRatio(resolve(light.color!), resolve(light.background!))).toBeGreaterThanOrEqual(AA_CONTRAST);
      const filled = variantColorResolver({ color, variant: 'filled', theme: merged });
      expect(contrastRatio(resolve(filled.color!), resolve(filled.background!))).toBeGreaterThanOrEqual(AA_CONTRAST);
    }
    // a fill too light for white text takes black instead
    expect(COLOR_ROLES.yellow!.filledText).toBe(merged.black);
    expect(COLOR_ROLES.blue!.filledText).toBe(WHITE);
  });

  it('an explicit shade on a filled badge gets whichever of white and black passes on it', () => {
    for (const color of COLORS)
      for (let shade = 0; shade < 10; shade++) {
        const v = variantColorResolver({ color: `${color}.${shade}`, variant: 'filled', theme: merged });
        const bg = merged.colors[color]![shade]!;
        expect(contrastRatio(resolve(v.color!), bg), `${color}.${shade}`).toBeGreaterThanOrEqual(AA_CONTRAST);
      }
  });

  it('error texts and dimmed texts pass on white', () => {
    for (const name of ['--mantine-color-error', '--mantine-color-dimmed', '--mantine-color-placeholder'])
      expect(contrastRatio(resolve(`var(${name})`), WHITE), name).toBeGreaterThanOrEqual(AA_CONTRAST);
  });

  it('dialogs, drawers and date fields name their icon buttons', () => {
    expect(theme.components?.Modal?.defaultProps).toMatchObject({ closeButtonProps: { 'aria-label': 'Close' } });
    expect(theme.components?.Drawer?.defaultProps).toMatchObject({ closeButtonProps: { 'aria-label': 'Close' } });
    expect(theme.components?.DateInput?.defaultProps).toMatchObject({
      clearButtonProps: { 'aria-label': 'Clear date' },
    });
    // and a menu holds only menu items (no presentational focus placeholder)
    expect(theme.components?.Menu?.defaultProps).toMatchObject({ withInitialFocusPlaceholder: false });
  });
});
