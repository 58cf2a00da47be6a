import { describe, expect, it } from 'vitest';
import { mergeMantineTheme, DEFAULT_THEME, getContrastColor } from '@mantine/core';
import { configMap } from '@estudio/core';
import { contrast, readableColors, themeFromConfig } from '../src/config/theme.ts';

/** The theme MantineProvider builds for a studio whose brand colour is `primary`. */
function studioTheme(primary: string) {
  return mergeMantineTheme(DEFAULT_THEME, themeFromConfig(configMap([{ key: 'primary', value: primary }])));
}

/** The studio's palette: shade 6 is the brand colour itself. */
function brandOf(theme: ReturnType<typeof studioTheme>) {
  const shades = theme.colors.brand;
  if (!shades) throw new Error('the theme has no brand palette');
  return shades;
}

describe('theme contrast (WCAG AA, 4.5:1)', () => {
  it("keeps dimmed text readable on white and on the portal's grey panels", () => {
    const theme = studioTheme('#d6336c');
    for (const background of ['#ffffff', theme.colors.gray[0], theme.colors.gray[1]]) expect(contrast(theme.colors.gray[6], background)).toBeGreaterThanOrEqual(4.5);
  });

  it.each(['#d6336c', '#228be6', '#fab005', '#40c057', '#ff922b'])('gives links a readable shade of the brand colour %s on gray.0', (primary) => {
    const theme = studioTheme(primary);
    const anchor = readableColors(theme).light['--mantine-color-anchor'];
    expect(anchor).toBeDefined();
    expect(contrast(anchor as string, theme.colors.gray[0])).toBeGreaterThanOrEqual(4.5);
  });

  it('gives every palette a light variant whose text reads on its background', () => {
    const theme = studioTheme('#d6336c');
    const light = readableColors(theme).light;
    for (const [name, shades] of Object.entries(theme.colors)) {
      const text = light[`--mantine-color-${name}-light-color`] ?? shades[9];
      expect(contrast(text, shades[1]), name).toBeGreaterThanOrEqual(4.5);
    }
  });

  /** Brand colours an owner might pick: the demo's, light ones and dark ones. */
  const brands = ['#d6336c', '#fcc419', '#96f2d7', '#ffffff', '#82c91e', '#1c7ed6', '#1b1f3b', '#000000'];

  it.each(brands)("gives brand-coloured text (a class card's places left) a shade that reads on every card surface, for brand %s", (primary) => {
    const theme = studioTheme(primary);
    const brandText = readableColors(theme).light['--mantine-color-brand-text'];
    expect(brandText).toBeDefined();
    // The available card (white), the panels (gray.0) and the special class's card (yellow.0).
    for (const surface of ['#ffffff', theme.colors.gray[0], theme.colors.yellow[0]]) expect(contrast(brandText as string, surface), surface).toBeGreaterThanOrEqual(4.5);
  });

  it.each(brands)("puts readable text on the filled brand colour (buttons, today's column, the 'Reservada' badge), for brand %s", (primary) => {
    const theme = studioTheme(primary);
    const filled = brandOf(theme)[6];
    const text = getContrastColor({ color: 'brand', theme }) === 'var(--mantine-color-black)' ? '#000000' : '#ffffff';
    expect(contrast(text, filled)).toBeGreaterThanOrEqual(4.5);
  });

  it.each(brands)('keeps the reserved card readable (its light brand background), for brand %s', (primary) => {
    const theme = studioTheme(primary);
    const light = readableColors(theme).light;
    const brand = brandOf(theme);
    const dimmed = light['--mantine-color-brand-light-color'] ?? brand[9];
    // Secondary text (duration) and the meta lines (gray.7) on brand shade 1.
    expect(contrast(dimmed, brand[1])).toBeGreaterThanOrEqual(4.5);
    expect(contrast(theme.colors.gray[7], brand[1])).toBeGreaterThanOrEqual(4.5);
  });
});
