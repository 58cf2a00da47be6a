/**
 * The portal's entry: a few hundred bytes that decide when the app starts.
 *
 * A page the server rendered (the landing, the shop, the calendar…: decision
 * 026) is readable and its links work before any script runs. Its pictures
 * and its styles come first: the app's modules are asked for only after the
 * page's `load` event (or at a tap on one of its buttons, whichever is first),
 * so on slow 4G the hero no longer shares the line with 250 KiB of JavaScript
 * (decision 036). A tap made before the app is up is held and given to the
 * app's same button after its first commit (decision 031).
 *
 * A page with nothing on it yet (the account area, a checkout) starts the app
 * at once; the server preloads its modules beside this one.
 *
 * A page that says it can wait (`data-app-start="on-demand"`: the landing) is
 * whole without the app: its links are links and nothing on it changes with
 * the clock until the week's calendar. For a visitor who is not signed in it
 * starts the app only when they reach for it (decision 054): a tap on one of
 * its buttons (held and given to the app, as above), a first scroll, touch or
 * key, or a part that needs the app (`data-needs-app`, the calendar) coming
 * near the screen. A visitor who reads the hero and follows a link never
 * downloads the app.
 */
import { nextTask } from './next-task.ts';
import { SESSION_STORAGE_KEY } from './session/storage-key.ts';
import { holdTapsUntilStarted } from './taps-before-start.ts';

const container = document.getElementById('root')!;
const prerendered = container.hasChildNodes();
let starting = false;
/**
 * Module preloads inserted per task (the server names about fifty for a public
 * page). Each insertion starts a fetch, about 3 ms at Lighthouse's 4× CPU: a
 * batch of twelve was a 50–160 ms task on /calendario, four stay near 10–35 ms.
 */
const preloadsPerTask = 4;

/**
 * The app's start in several short tasks instead of one long one (decision 048):
 * the route's chunks are asked for; the browser's date formats are made ready;
 * the app's modules are evaluated; the app starts (main.tsx goes on in steps).
 * Between steps the browser paints and answers taps.
 */
async function start(): Promise<void> {
  if (starting) return;
  starting = true;
  // The route's chunks, which the server named instead of preloading them with the page: fetched beside the app.
  // A few per task: sixty inserted at once were one long task of their own at a slow CPU (each starts its fetch).
  const hrefs = (container.dataset.modules ?? '').split(' ').filter(Boolean);
  for (let first = 0; first < hrefs.length; first += preloadsPerTask) {
    if (first > 0) await nextTask();
    const links = document.createDocumentFragment();
    for (const href of hrefs.slice(first, first + preloadsPerTask)) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      links.append(link);
    }
    document.head.append(links);
  }
  // React's DOM renderer is a fifth of the app's modules: evaluated in a task of its own before the rest.
  const renderer = import('react-dom/client');
  await nextTask();
  warmDateFormats('es-MX', { dateStyle: 'full', timeStyle: 'short' });
  await nextTask();
  warmDateFormats('en-US', { hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', era: 'short' });
  await renderer.catch(() => undefined);
  await nextTask();
  const { startApp } = await import('./main.tsx');
  await nextTask();
  await startApp({ container, prerendered, releaseTaps });
}

/**
 * The first date format with a time zone loads the browser's locale and zone
 * data (ICU): the largest single item of the app's start in a profile at 4×
 * CPU. Done here, a locale per task while the modules download, rather than
 * inside the modules' evaluation, where core/src/rules/time.ts first asks (the
 * studio's es-MX, and the en-US one it reads a zone's offset with).
 */
function warmDateFormats(locale: string, options: Intl.DateTimeFormatOptions): void {
  try {
    new Intl.DateTimeFormat(locale, { ...options, timeZone: 'America/Mexico_City' }).formatToParts(0);
  } catch {
    // A browser without time zones: the app says so where it formats a date.
  }
}

/** Someone is signed in on this browser: the app shows their header, prices and bookings, so it starts as usual. */
function signedIn(): boolean {
  try {
    return localStorage.getItem(SESSION_STORAGE_KEY) !== null;
  } catch {
    return false;
  }
}

/**
 * Starts the app the first time the visitor reaches for it (decision 054):
 * scrolls, touches, presses a key or a pointer anywhere but on a link (a link
 * leaves the page, which is served rendered), or a part marked
 * `data-needs-app` comes within a screen of the viewport (at once, if it is
 * on screen already). A tap on a button also starts it (holdTapsUntilStarted).
 */
function startOnDemand(): void {
  document.documentElement.dataset.app = 'on-demand';
  const intents = ['scroll', 'wheel', 'keydown', 'touchstart', 'pointerdown'] as const;
  let observer: IntersectionObserver | null = null;
  const reach = (event?: Event) => {
    // Started already (a tap on a button): nothing to wait for.
    if (starting) return;
    if (event && (event.type === 'pointerdown' || event.type === 'touchstart') && event.target instanceof Element && event.target.closest('a[href]')) return;
    for (const type of intents) removeEventListener(type, reach, { capture: true });
    observer?.disconnect();
    document.documentElement.dataset.app = 'starting';
    // Reached for before the pictures are in (a scroll while the page loads): the app still comes after them.
    if (document.readyState === 'complete') void start();
    else addEventListener('load', () => void start(), { once: true });
  };
  for (const type of intents) addEventListener(type, reach, { capture: true, passive: true });
  const needsApp = container.querySelectorAll('[data-needs-app]');
  if (needsApp.length === 0) return;
  if (typeof IntersectionObserver !== 'function') return reach();
  observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && reach(), { rootMargin: '100% 0px' });
  needsApp.forEach((element) => observer!.observe(element));
}

const releaseTaps = prerendered ? holdTapsUntilStarted(container, () => void start()) : () => undefined;
const onDemand = prerendered && container.querySelector('[data-app-start="on-demand"]') !== null && !signedIn();
if (onDemand) startOnDemand();
else if (!prerendered || document.readyState === 'complete') void start();
else addEventListener('load', () => void start(), { once: true });
