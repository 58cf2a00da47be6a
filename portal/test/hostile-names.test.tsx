import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { appConfigDefaults } from '@estudio/core';
import { ClassSummary } from '../src/booking/ClassSummary.tsx';
import { AppConfigContext } from '../src/config/AppConfigContext.tsx';

/**
 * Names typed by customers and admins (class types, locations, coaches) are
 * text, never markup: React escapes them, and no component hands them to
 * dangerouslySetInnerHTML (page HTML goes through SafeHtml's sanitizer).
 */

const payloads = ['<img src=x onerror=alert(1)>', '<script>alert(1)</script>', '"><svg onload=alert(1)>'];

function render(name: string): string {
  return renderToStaticMarkup(
    <MantineProvider>
      <AppConfigContext.Provider value={appConfigDefaults}>
        <ClassSummary
          singleClass={{
            class_date: '2030-01-15T16:00:00.000Z',
            duration_minutes: 50,
            class_type: { name },
            location: { name },
            class_instructors: [{ name, last_name: name, nick_name: null }],
          }}
        />
      </AppConfigContext.Provider>
    </MantineProvider>,
  );
}

/** The elements of a rendering, in order: the payload may add text, never one of these. */
const tags = (html: string) => [...html.matchAll(/<([a-z][\w-]*)/gi)].map((m) => m[1]?.toLowerCase());

describe('names with HTML in them', () => {
  it.each(payloads)('render as text: %s', (name) => {
    const html = render(name);
    // The same elements as for a plain name (the icons are the only svg), no event handler, and the payload as escaped text.
    expect(tags(html)).toEqual(tags(render('Ana')));
    expect(html).not.toMatch(/<[^>]*\son(error|load)=/i);
    expect(html).toContain(name.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'));
  });

  it('would be caught by this check if it were markup', () => {
    // The same check on the payload rendered as HTML finds the tag, so a component that stopped escaping fails above.
    const raw = renderToStaticMarkup(<div dangerouslySetInnerHTML={{ __html: payloads[0] ?? '' }} />);
    expect(tags(raw)).toEqual(['div', 'img']);
  });
});

describe('page HTML', () => {
  it('reaches the DOM only through SafeHtml, which sanitizes it', () => {
    const src = path.join(import.meta.dirname, '../src');
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f));
    const raw = files.filter((f) => /dangerouslySetInnerHTML|\.innerHTML\s*=|outerHTML\s*=|insertAdjacentHTML|document\.write/.test(readFileSync(path.join(src, f), 'utf8')));
    expect(raw.map((f) => f.split(path.sep).join('/'))).toEqual(['ui/SafeHtml.tsx']);
    const safeHtml = readFileSync(path.join(src, 'ui/SafeHtml.tsx'), 'utf8');
    expect(safeHtml).toMatch(/__html: clean\b/);
    // Sanitized, on the server too (DOMPurify over jsdom there, decision 054).
    expect(safeHtml).toMatch(/const clean = useMemo\(\(\) => sanitizeHtml\(html\), \[html\]\)/);
  });
});
