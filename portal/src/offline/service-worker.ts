/**
 * Registers the portal's service worker (public/sw.js, decision 106) once the
 * app is up, and tells it what this page loaded so a first visit is kept for
 * the offline account area.
 */
export function registerServiceWorker(): void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  const keepThisPage = (worker: ServiceWorker | null) => {
    if (!worker) return;
    const loaded = performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .filter((name) => new URL(name, location.href).origin === location.origin);
    worker.postMessage({ type: 'keep', urls: [location.pathname, '/mystudio', ...loaded] });
  };
  navigator.serviceWorker
    .register('/sw.js', { scope: '/' })
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => keepThisPage(registration.active))
    .catch(() => undefined);
}
