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
 */
import { holdTapsUntilStarted } from './taps-before-start.ts';

const container = document.getElementById('root')!;
const prerendered = container.hasChildNodes();
let starting = false;

function start(): void {
  if (starting) return;
  starting = true;
  // The route's chunks, which the server named instead of preloading them with the page: fetched beside the app.
  for (const href of (container.dataset.modules ?? '').split(' ').filter(Boolean)) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
  void import('./main.tsx').then(({ startApp }) => startApp({ container, prerendered, releaseTaps }));
}

const releaseTaps = prerendered ? holdTapsUntilStarted(container, start) : () => undefined;
if (!prerendered || document.readyState === 'complete') start();
else addEventListener('load', start, { once: true });
