import { describe, expect, it } from 'vitest';
import { mergeMantineTheme, DEFAULT_THEME } from '@mantine/core';
import { configMap } from '@estudio/core';
import { contrast, readableColors, themeFromConfig } from '../src/config/theme.ts';

/** The theme MantineProvider builds for a studio whose brand colour is `primary`. */
function studioTheme(primary: string) {
  return mergeMantineTheme(DEFAULT_THEME, themeFromConfig(configMap([{ key: 'primary', value: primary }])));
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
});
