/**
 * A new studio's first run (decision 129): the steps of setting it up, in
 * the order an owner takes them, and which of the portal's pages open before
 * the studio is published. Whether a step is done is read from the studio's
 * data by the server; only the steps the owner chose to skip and whether the
 * studio is published are stored (app_config, below).
 */
export const setupStepKeys = ['identity', 'timezone', 'locations', 'classTypes', 'coaches', 'packages', 'schedule', 'pages', 'payments', 'messages'] as const;
export type SetupStepKey = (typeof setupStepKeys)[number];

/** The app_config rows the first run keeps. Not settings of PUT /api/appconfig: they change through their own audited routes. */
export const studioPublishedKey = 'studio_published';
export const setupSkippedKey = 'setup_skipped';

/** A stored studio_published: only 'true' opens the portal; no row is a new studio, not yet published. */
export const isStudioPublished = (stored: string | null | undefined): boolean => stored === 'true';

/** The skipped steps as stored ('coaches,messages'), in the steps' order; unknown names are dropped. */
export function parseSkippedSteps(stored: string | null | undefined): SetupStepKey[] {
  const named = new Set((stored ?? '').split(',').map((s) => s.trim()));
  return setupStepKeys.filter((key) => named.has(key));
}

/** The skipped steps as stored, one step added or taken out. */
export function skippedStepsValue(current: readonly SetupStepKey[], step: SetupStepKey, skipped: boolean): string {
  const next = new Set(current);
  if (skipped) next.add(step);
  else next.delete(step);
  return setupStepKeys.filter((key) => next.has(key)).join(',');
}

/**
 * The portal's pages that open while the studio is not published: setting a
 * password from the owner's first link (`/recuperar`), signing in, confirming
 * an e-mail, a stop link, and the staff's page of a reservation. Every other
 * page (the landing, the calendar, the shop, sign-up, the account) shows
 * "Próximamente".
 */
export function portalPageOpensBeforePublishing(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return ['/recuperar', '/entrar', '/confirmar-correo', '/mensajes/baja'].includes(path) || path.startsWith('/admin/');
}

/** A page's title or slug folded for matching ('Términos y Condiciones' → 'terminos y condiciones'). */
const folded = (text: string) => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();

/** Which of the required documents a page is, by its slug or title: the terms, the privacy notice, or neither. */
export function requiredDocumentOf(page: { slug: string; title: string }): 'terms' | 'privacy' | null {
  const text = `${folded(page.slug)} ${folded(page.title)}`;
  if (/privacidad|privacy/.test(text)) return 'privacy';
  if (/termino|condiciones|terms/.test(text)) return 'terms';
  return null;
}
