/**
 * The studio's HTML as its plain text (no '<' survives, so nothing can become
 * markup): what a pre-render shows where the browser will show the HTML
 * sanitized by DOMPurify, which needs a DOM the server has not. The browser's
 * hydration shows the same text first, then the formatted HTML.
 */
export function plainText(html: string): string {
  return html
    .replace(/<(script|style|template)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>?/g, ' ')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\s+/g, ' ')
    .trim();
}
