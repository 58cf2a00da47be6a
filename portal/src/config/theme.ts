import { colorsTuple, createTheme, darken, lighten, type MantineColorsTuple, type MantineThemeOverride } from '@mantine/core';
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

/** The Mantine theme of a studio, from its app configuration. */
export function themeFromConfig(config: AppConfigMap): MantineThemeOverride {
  return createTheme({
    primaryColor: 'brand',
    primaryShade: 6,
    colors: { brand: shadesOf(config.primary) },
    autoContrast: true,
    defaultRadius: 'md',
    fontFamily:
      'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
    headings: { fontWeight: '700' },
    components: {
      Modal: { styles: { title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } } },
      Drawer: { styles: { title: { fontWeight: 700 } } },
    },
  });
}
