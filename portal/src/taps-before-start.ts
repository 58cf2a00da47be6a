/**
 * A pre-rendered page is on screen before the app runs (decision 026): its
 * links work as links, but its buttons (a class card, the menu) do nothing
 * until the app has replaced the page. On a phone on 4G that gap can be
 * seconds, and a tap in it was lost. From the moment this module runs until
 * the app's first commit, a tap on a button of the page is held; then it is
 * given to the same button of the app's page, found by what the person could
 * see of it (a class's id, its label, its text).
 */

const controls = 'button, [role="button"]';
/** How long a held tap waits for its control to appear after the first commit. */
const replayWaitMs = 3000;
/**
 * Attributes that name one control whatever the layout, in order of trust. Not `id`: Mantine's ids come from
 * React's useId, which differs between the server's render and the browser's.
 */
const namingAttributes = ['data-class-id', 'aria-label'] as const;

interface HeldTap {
  tag: string;
  /** The naming attribute and its value, when the control has one. */
  named: { name: string; value: string } | null;
  text: string;
  /** Among the controls with the same text, which one (the server and the browser render the same list). */
  index: number;
}

const textOf = (element: Element) => (element.textContent ?? '').replace(/\s+/g, ' ').trim();

function describe(control: Element, container: Element): HeldTap {
  const tag = control.tagName.toLowerCase();
  for (const name of namingAttributes) {
    const value = control.getAttribute(name);
    if (value) return { tag, named: { name, value }, text: '', index: 0 };
  }
  const text = textOf(control);
  const same = [...container.querySelectorAll(controls)].filter((c) => textOf(c) === text);
  return { tag, named: null, text, index: Math.max(0, same.indexOf(control)) };
}

function find(tap: HeldTap, container: Element): HTMLElement | null {
  const { named } = tap;
  if (named) return [...container.querySelectorAll<HTMLElement>(tap.tag)].find((c) => c.getAttribute(named.name) === named.value) ?? null;
  const same = [...container.querySelectorAll<HTMLElement>(controls)].filter((c) => textOf(c) === tap.text);
  return same[tap.index] ?? null;
}

/**
 * Holds taps on the buttons inside `container` (the latest one wins), and
 * calls `onTap` at each (the app is wanted now, not after the page's load).
 * The returned function stops holding and replays the held tap, if any: call
 * it once the app has committed its first render.
 */
export function holdTapsUntilStarted(container: HTMLElement, onTap: () => void = () => undefined): () => void {
  let held: HeldTap | null = null;
  /**
   * A thin bar along the top of the window while a tap waits for the app (on the landing the app may only start
   * downloading at that tap). Outside the app's root, so the hydration finds the server's page as it sent it: a mark
   * on the tapped control itself would be an attribute the server did not render.
   */
  let waiting: HTMLElement | null = null;
  const stopWaiting = () => {
    waiting?.remove();
    waiting = null;
    document.body.removeAttribute('aria-busy');
  };
  const showWaiting = () => {
    if (waiting) return;
    const bar = document.createElement('div');
    bar.setAttribute('aria-hidden', 'true');
    bar.dataset.tapWaiting = '';
    Object.assign(bar.style, {
      position: 'fixed',
      top: '0',
      left: '0',
      height: '3px',
      width: '0',
      zIndex: '1000',
      background: 'var(--mantine-primary-color-filled, #228be6)',
      transition: 'width 4s cubic-bezier(0.1, 0.7, 0.3, 1)',
    });
    document.body.append(bar);
    document.body.setAttribute('aria-busy', 'true');
    waiting = bar;
    // The next frame, so the bar grows from nothing instead of appearing at its width.
    requestAnimationFrame(() => requestAnimationFrame(() => (bar.style.width = '85%')));
  };
  const onClick = (event: MouseEvent) => {
    const control = event.target instanceof Element ? event.target.closest(controls) : null;
    if (!control || !container.contains(control)) return;
    event.preventDefault();
    event.stopPropagation();
    showWaiting();
    held = describe(control, container);
    onTap();
  };
  container.addEventListener('click', onClick, true);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    container.removeEventListener('click', onClick, true);
    stopWaiting();
    const tap = held;
    if (!tap) return;
    const target = find(tap, container);
    if (target) return target.click();
    // The first commit can be a step before the page (a session being read): wait a little for the control to appear.
    const observer = new MutationObserver(() => {
      const later = find(tap, container);
      if (!later) return;
      stop();
      later.click();
    });
    const timer = setTimeout(() => stop(), replayWaitMs);
    const stop = () => {
      observer.disconnect();
      clearTimeout(timer);
    };
    observer.observe(container, { childList: true, subtree: true });
  };
}
