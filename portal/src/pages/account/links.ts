import { isOn, texts, type AppConfigMap } from '@estudio/core';

export interface NavLinkItem {
  label: string;
  to: string;
}

const packagesLink = (config: AppConfigMap): NavLinkItem => ({
  label: config.class_packages_name || texts.nav.packagesDefault,
  to: config.class_packages_path || '/mystudio/paquetes',
});

/** Desktop top navigation (spec: Presenciales, Online, the packages link). */
export function topNavItems(config: AppConfigMap): NavLinkItem[] {
  return [
    ...(isOn(config.single_class_enabled) ? [{ label: texts.nav.presenciales, to: '/mystudio' }] : []),
    ...(isOn(config.videos_enabled) ? [{ label: texts.nav.online, to: '/mystudio/online' }] : []),
    packagesLink(config),
  ];
}

/** The user menu, without Salir. */
export function accountMenuItems(config: AppConfigMap): NavLinkItem[] {
  return [
    { label: texts.nav.myInformation, to: '/mystudio/informacion' },
    { label: texts.nav.myPurchases, to: '/mystudio/membresias' },
    ...(isOn(config.subscriptions_enabled) ? [{ label: texts.nav.myCharges, to: '/mystudio/pagos' }] : []),
    ...(isOn(config.allow_restricted_class_types) ? [{ label: texts.nav.myCredits, to: '/mystudio/creditos' }] : []),
    { label: texts.nav.myReservations, to: '/mystudio/reservaciones' },
  ];
}

/** Mobile drawer, header 'Menú'. */
export function drawerMenuItems(config: AppConfigMap): NavLinkItem[] {
  return [
    ...(isOn(config.single_class_enabled) ? [{ label: texts.nav.calendar, to: '/mystudio' }] : []),
    ...(isOn(config.videos_enabled) ? [{ label: texts.nav.online, to: '/mystudio/online' }] : []),
    { label: texts.nav.reservations, to: '/mystudio/reservaciones' },
    { ...packagesLink(config), label: texts.nav.packagesDefault },
  ];
}

/**
 * Mobile drawer, header 'Mi Cuenta': the user menu's pages (Mis Cargos and
 * Mis Créditos when their settings are on —: a phone could not reach
 * them), without Mis Reservaciones, which 'Menú' already lists.
 */
export function drawerAccountItems(config: AppConfigMap): NavLinkItem[] {
  return accountMenuItems(config).filter((item) => item.to !== '/mystudio/reservaciones');
}

/**
 * Spec: a banner link containing the configured domain (or a path) navigates
 * inside the app; anything else opens a new tab. Returns the in-app path, or
 * null for an external link.
 */
export function internalPath(link: string, domain: string): string | null {
  const value = link.trim();
  if (value.startsWith('/') && !value.startsWith('//')) return value;
  if (!domain || !value.includes(domain)) return null;
  try {
    const url = new URL(value.includes('://') ? value : `https://${value}`);
    return `${url.pathname}${url.search}${url.hash}` || '/';
  } catch {
    return null;
  }
}

/** wa.me link; the account area uses country code 52, the public site 521 (spec §9). */
export function whatsappLink(number: string, prefix: '52' | '521'): string | null {
  const digits = number.replace(/\D/g, '');
  if (!digits) return null;
  const national = digits.length > 10 ? digits.slice(-10) : digits;
  return `https://wa.me/${prefix}${national}`;
}
