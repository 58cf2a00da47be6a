import { useMemo } from 'react';
import DOMPurify from 'dompurify';
import { Typography } from '@mantine/core';

/**
 * Page, document and package HTML comes from the studio's admins and is shown
 * to every visitor; it is sanitized first so a `<script>` or an `onerror`
 * attribute in it never runs. Links that open a new tab get rel=noopener.
 */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, ADD_ATTR: ['target'] });
}

// By name, not `instanceof HTMLAnchorElement`: on the server the nodes are jsdom's, and Node has no such global.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.nodeName === 'A' && (node as Element).getAttribute('target') === '_blank') (node as Element).setAttribute('rel', 'noopener noreferrer');
});

/**
 * The studio's HTML, sanitized, in Mantine's typography styles. The server's
 * pre-render sanitizes it with the same DOMPurify over jsdom (src/ssr/dompurify.ts),
 * so the page reads the same formatted text before the app starts and after
 * it adopts the page (decision 054).
 */
export function SafeHtml({ html }: { html: string }) {
  const clean = useMemo(() => sanitizeHtml(html), [html]);
  return (
    <Typography>
      <div dangerouslySetInnerHTML={{ __html: clean }} />
    </Typography>
  );
}
