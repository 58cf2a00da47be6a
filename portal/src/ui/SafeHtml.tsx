import { useMemo } from 'react';
import DOMPurify from 'dompurify';
import { Typography } from '@mantine/core';
import { plainText } from '../ssr/plain-text.ts';
import { useHydrating } from '../ssr/render-context.ts';

/**
 * Page, document and package HTML comes from the studio's admins and is shown
 * to every visitor; it is sanitized first so a `<script>` or an `onerror`
 * attribute in it never runs. Links that open a new tab get rel=noopener.
 */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, ADD_ATTR: ['target'] });
}

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node instanceof HTMLAnchorElement && node.target === '_blank') node.rel = 'noopener noreferrer';
});

/**
 * The studio's HTML, sanitized, in Mantine's typography styles. The server's
 * pre-render has no sanitizer and shows the plain text; a hydration shows that
 * same text (React keeps the server's inner HTML as it finds it), then the HTML.
 */
export function SafeHtml({ html }: { html: string }) {
  const hydrating = useHydrating();
  const clean = useMemo(() => (hydrating ? plainText(html) : sanitizeHtml(html)), [html, hydrating]);
  return (
    <Typography>
      <div dangerouslySetInnerHTML={{ __html: clean }} />
    </Typography>
  );
}
