// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from '../src/ui/SafeHtml.tsx';

/** Parses the sanitized HTML the way the browser will insert it. */
function parse(html: string): HTMLElement {
  const box = document.createElement('div');
  box.innerHTML = sanitizeHtml(html);
  return box;
}

const handlerAttributes = (root: HTMLElement) =>
  [...root.querySelectorAll('*')].flatMap((el) => [...el.attributes].filter((a) => a.name.toLowerCase().startsWith('on')).map((a) => a.name));

describe('sanitizeHtml: the studio HTML of pages, documents and packages', () => {
  it('keeps the formatting admins write', () => {
    const box = parse('<h2>Términos</h2><p>Lee <strong>todo</strong> <a href="https://estudio.mx/terminos" target="_blank">aquí</a>.</p><ul><li>Uno</li></ul>');
    expect(box.querySelector('h2')?.textContent).toBe('Términos');
    expect(box.querySelector('strong')?.textContent).toBe('todo');
    expect(box.querySelectorAll('li')).toHaveLength(1);
    // A link that opens a new tab cannot reach back into the portal.
    expect(box.querySelector('a')?.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it.each([
    ['a script element', '<p>Hola</p><script>alert(1)</script>'],
    ['an onerror handler', '<img src="x" onerror="alert(1)">'],
    ['an svg onload', '<svg onload="alert(1)"><circle r="1"></circle></svg>'],
    ['a javascript: link', '<a href="javascript:alert(1)">premio</a>'],
    ['an iframe', '<iframe src="https://malo.example"></iframe>'],
    ['a handler hidden by case', '<div OnMouseOver="alert(1)">x</div>'],
    ['a broken-up script', '<scr<script>ipt>alert(1)</scr</script>ipt>'],
    ['an object with a javascript: url', '<object data="javascript:alert(1)"></object>'],
    ['a form posting to javascript:', '<form action="javascript:alert(1)"><button>Enviar</button></form>'],
  ])('removes %s', (_name, html) => {
    const box = parse(html);
    expect(box.querySelector('script, iframe, object, embed')).toBeNull();
    expect(handlerAttributes(box)).toEqual([]);
    // Inline styles stay (admins format with them; browsers run no script from CSS); URLs that run script do not.
    for (const el of box.querySelectorAll('[href], [src], [action], [data]')) {
      for (const attr of ['href', 'src', 'action', 'data']) expect(el.getAttribute(attr) ?? '').not.toMatch(/javascript:/i);
    }
  });
});
