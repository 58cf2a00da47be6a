import type { AppConfigMap } from '@estudio/core';

/** The icons the manifest names, each rendered by renderAppIcon. */
export const appIconFiles = { 'icono-192.png': { size: 192, maskable: false }, 'icono-512.png': { size: 512, maskable: false }, 'icono-maskable-512.png': { size: 512, maskable: true } } as const;
export type AppIconFile = keyof typeof appIconFiles;

/**
 * The portal's web app manifest (decision 106): the studio's name and colour,
 * its icons, and the account area as where the installed app opens, so a
 * phone's home screen holds the studio and opens on its calendar (and on the
 * kept access codes with no connection).
 */
export function webAppManifest(settings: Pick<AppConfigMap, 'business_name' | 'primary' | 'tagline'>) {
  const name = settings.business_name.trim() || 'Estudio';
  return {
    name,
    short_name: name.length > 12 ? name.slice(0, 12).trim() : name,
    description: settings.tagline,
    lang: 'es-MX',
    dir: 'ltr',
    id: '/mystudio',
    start_url: '/mystudio',
    scope: '/',
    display: 'standalone',
    orientation: 'portrait',
    background_color: '#ffffff',
    theme_color: /^#[0-9a-f]{6}$/i.test(settings.primary) ? settings.primary : '#ffffff',
    icons: Object.entries(appIconFiles).map(([file, icon]) => ({
      src: `/app/${file}`,
      sizes: `${icon.size}x${icon.size}`,
      type: 'image/png',
      purpose: icon.maskable ? 'maskable' : 'any',
    })),
  };
}
