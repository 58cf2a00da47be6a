// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { holdTapsUntilStarted } from '../src/taps-before-start.ts';

/** The server's page, then the app's: the same controls, new nodes (the app replaces, it does not hydrate). */
function page(html: string) {
  const container = document.createElement('div');
  container.innerHTML = html;
  document.body.replaceChildren(container);
  return container;
}

function replaceWithApp(container: HTMLElement, html: string) {
  container.innerHTML = html;
  const clicks: string[] = [];
  for (const button of container.querySelectorAll('button')) button.addEventListener('click', () => clicks.push(button.outerHTML));
  return clicks;
}

describe('holdTapsUntilStarted: a tap on the pre-rendered page is not lost', () => {
  it('shows a bar outside the page while a tap waits for the app, and leaves the tapped control as the server sent it', () => {
    const container = page('<button aria-label="Abrir menú" style="color: red"></button><button>Reservar</button>');
    const sent = container.innerHTML;
    const release = holdTapsUntilStarted(container);
    container.querySelector<HTMLElement>('[aria-label="Abrir menú"]')!.click();
    container.querySelectorAll<HTMLElement>('button')[1]!.click();
    // One bar for any number of held taps, outside the app's root; the page itself untouched (the hydration compares it).
    expect(document.querySelectorAll('[data-tap-waiting]')).toHaveLength(1);
    expect(container.contains(document.querySelector('[data-tap-waiting]'))).toBe(false);
    expect(document.body.getAttribute('aria-busy')).toBe('true');
    expect(container.innerHTML).toBe(sent);
    release();
    expect(document.querySelectorAll('[data-tap-waiting]')).toHaveLength(0);
    expect(document.body.hasAttribute('aria-busy')).toBe(false);
  });

  it('gives the tap on a class card to the same class in the app, by its id', () => {
    const container = page('<button data-class-id="7">Yoga</button><button data-class-id="9">Yoga</button>');
    const release = holdTapsUntilStarted(container);
    container.querySelector<HTMLElement>('[data-class-id="9"]')!.click();
    const clicks = replaceWithApp(container, '<button data-class-id="9">Yoga 9:00</button><button data-class-id="7">Yoga 7:00</button>');
    release();
    expect(clicks).toEqual(['<button data-class-id="9">Yoga 9:00</button>']);
  });

  it('finds a control without an id by its label, or by its text and place among the same texts', () => {
    const container = page('<button aria-label="Abrir menú"></button><button>Reservar</button><button>Reservar</button>');
    let release = holdTapsUntilStarted(container);
    container.querySelector<HTMLElement>('[aria-label="Abrir menú"]')!.click();
    let clicks = replaceWithApp(container, '<button>Reservar</button><button aria-label="Abrir menú"></button>');
    release();
    expect(clicks).toEqual(['<button aria-label="Abrir menú"></button>']);

    container.innerHTML = '<button>Reservar</button><p><button>Reservar</button></p>';
    release = holdTapsUntilStarted(container);
    container.querySelectorAll<HTMLElement>('button')[1]!.click();
    clicks = replaceWithApp(container, '<button>Reservar</button><p><button class="second">Reservar</button></p>');
    release();
    expect(clicks).toEqual(['<button class="second">Reservar</button>']);
  });

  it('leaves links alone (they work before the app), stops holding once released, and replays once', () => {
    const container = page('<a href="#paquetes">Paquetes</a><button>Menú</button>');
    const release = holdTapsUntilStarted(container);
    const link = container.querySelector('a')!;
    const linkClick = new MouseEvent('click', { bubbles: true, cancelable: true });
    link.dispatchEvent(linkClick);
    expect(linkClick.defaultPrevented).toBe(false);

    const clicks = replaceWithApp(container, '<button>Menú</button>');
    release();
    release();
    expect(clicks).toHaveLength(0);
    const later = vi.fn();
    container.querySelector('button')!.addEventListener('click', later);
    container.querySelector('button')!.click();
    expect(later).toHaveBeenCalledTimes(1);
  });

  it('does not go by id: the server and the browser give a control different generated ids', () => {
    const container = page('<button id="mantine-r1">Reservar</button>');
    const release = holdTapsUntilStarted(container);
    container.querySelector<HTMLElement>('button')!.click();
    const clicks = replaceWithApp(container, '<button id="mantine-r7">Reservar</button>');
    release();
    expect(clicks).toEqual(['<button id="mantine-r7">Reservar</button>']);
  });

  it('waits for the control when the first commit is a step before the page', async () => {
    const container = page('<button data-class-id="4">Pilates</button>');
    const release = holdTapsUntilStarted(container);
    container.querySelector<HTMLElement>('button')!.click();
    container.innerHTML = '<p>Cargando…</p>';
    release();
    const clicked = vi.fn();
    const button = Object.assign(document.createElement('button'), { textContent: 'Pilates' });
    button.setAttribute('data-class-id', '4');
    button.addEventListener('click', clicked);
    container.replaceChildren(button);
    await vi.waitFor(() => expect(clicked).toHaveBeenCalledTimes(1));
  });

  it('keeps the latest tap when there were several, and drops it when the app has no such control', () => {
    const container = page('<button data-class-id="1">A</button><button data-class-id="2">B</button>');
    let release = holdTapsUntilStarted(container);
    container.querySelector<HTMLElement>('[data-class-id="1"]')!.click();
    container.querySelector<HTMLElement>('[data-class-id="2"]')!.click();
    let clicks = replaceWithApp(container, '<button data-class-id="1">A</button><button data-class-id="2">B</button>');
    release();
    expect(clicks).toEqual(['<button data-class-id="2">B</button>']);

    release = holdTapsUntilStarted(container);
    container.querySelector<HTMLElement>('[data-class-id="2"]')!.click();
    clicks = replaceWithApp(container, '<button data-class-id="1">A</button>');
    expect(() => release()).not.toThrow();
    expect(clicks).toHaveLength(0);
  });
});
