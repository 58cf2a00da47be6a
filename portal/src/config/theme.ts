import {
  DEFAULT_THEME,
  colorsTuple,
  createTheme,
  darken,
  getPrimaryShade,
  lighten,
  luminance,
  type CSSVariablesResolver,
  type MantineColorsTuple,
  type MantineThemeOverride,
} from '@mantine/core';
import type { AppConfigMap } from '@estudio/core';

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const FALLBACK_PRIMARY = '#d6336c';

/**
 * Ten shades around the studio's brand colour, which sits at shade 6 (the
 * shade Mantine uses for filled components): lighter shades mix it with
 * white, darker ones with black. Mantine's own generator lives in a package
 * the portal does not ship.
 */
export function shadesOf(color: string): MantineColorsTuple {
  const base = HEX.test(color.trim()) ? color.trim() : FALLBACK_PRIMARY;
  const lighter = [0.92, 0.8, 0.65, 0.5, 0.34, 0.17].map((amount) => lighten(base, amount));
  const darker = [0.12, 0.24, 0.36].map((amount) => darken(base, amount));
  return colorsTuple([...lighter, base, ...darker]);
}

/**
 * Mantine's greys with shade 6 darkened from #868e96 to #656d75: shade 6 is the
 * `dimmed` text colour (descriptions, captions, hints), and Mantine's own value
 * reads at 3.3:1 on white, below WCAG AA's 4.5:1. The new one keeps AA on
 * white (5.3:1) and on the portal's grey panels, gray.0 and gray.1 (5.0 and 4.7).
 */
export const readableGray: MantineColorsTuple = colorsTuple(DEFAULT_THEME.colors.gray.map((shade, index) => (index === 6 ? '#656d75' : shade)));

/** WCAG AA for body text. */
const AA = 4.5;

/** WCAG contrast ratio of two colours. */
export function contrast(a: string, b: string): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

/** `color` itself when it reads at AA on `background`, else the least darkening of it that does. */
export function readableOn(color: string, background: string): string {
  for (let amount = 0; amount < 1; amount += 0.04) {
    const candidate = amount === 0 ? color : darken(color, amount);
    if (contrast(candidate, background) >= AA) return candidate;
  }
  return '#000000';
}

/**
 * The surfaces the portal puts brand-coloured text on: white cards, the grey
 * panels (gray.0) and the special class's card (yellow.0). Brand text that
 * reads at AA on the darkest of them reads on all.
 */
function darkestBrandTextSurface(theme: Parameters<CSSVariablesResolver>[0]): string {
  return [theme.colors.gray[0], theme.colors.yellow[0]].reduce<string>((darkest, color) => (color && luminance(color) < luminance(darkest) ? color : darkest), theme.white);
}

/**
 * Text colours the theme's palettes do not guarantee, as CSS variables for the
 * light scheme (passed to MantineProvider beside the theme):
 * - the `light` variant's text (shade 9 on shade 1) of Mantine's teal, green,
 *   lime, yellow and orange reads below AA (teal 4.3:1, yellow 2.7:1), so those
 *   palettes get a darker one; so does the studio's brand when it is a light colour;
 * - brand-coloured text (links, `--mantine-color-anchor`, and the brand's
 *   `-text` colour: a class card's "Quedan 5 lugares") is the studio's brand
 *   colour, which is any colour an owner picks: it takes the first brand shade
 *   from the primary one on that reads at AA on every surface it is shown on.
 */
export const readableColors: CSSVariablesResolver = (theme) => {
  const light: Record<string, string> = {};
  for (const [name, shades] of Object.entries(theme.colors)) {
    const [text, background] = [shades[9], shades[1]];
    if (text && background && contrast(text, background) < AA) light[`--mantine-color-${name}-light-color`] = readableOn(text, background);
  }
  const brand = theme.colors[theme.primaryColor] ?? DEFAULT_THEME.colors.blue;
  const surface = darkestBrandTextSurface(theme);
  const fromShade = getPrimaryShade(theme, 'light');
  const brandText = brand.slice(fromShade).find((shade) => contrast(shade, surface) >= AA) ?? readableOn(brand[9], surface);
  light['--mantine-color-anchor'] = brandText;
  light[`--mantine-color-${theme.primaryColor}-text`] = brandText;
  return { variables: {}, light, dark: {} };
};

/** The Mantine theme of a studio, from its app configuration. */
export function themeFromConfig(config: AppConfigMap): MantineThemeOverride {
  return createTheme({
    primaryColor: 'brand',
    primaryShade: 6,
    // Someone who asked their device for less motion gets dialogs, menus and alerts without their slide and fade.
    respectReducedMotion: true,
    colors: { brand: shadesOf(config.primary), gray: readableGray },
    autoContrast: true,
    // Text on a filled colour (buttons, today's column, the 'Reservada' badge) turns black above this
    // luminance: 0.179 is where white and black read alike (4.58:1), so either choice keeps WCAG AA.
    // Mantine's default (0.3) puts white on mid-light brand colours at 3:1.
    luminanceThreshold: 0.179,
    defaultRadius: 'md',
    fontFamily:
      'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
    headings: { fontWeight: '700' },
    components: {
      // A dialog's <header> is not the page's banner: axe counted two banners while a modal was open.
      Modal: { styles: { title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }, defaultProps: { attributes: { header: { role: 'presentation' } } } },
      Drawer: { styles: { title: { fontWeight: 700 } }, defaultProps: { attributes: { header: { role: 'presentation' } } } },
    },
  });
}
