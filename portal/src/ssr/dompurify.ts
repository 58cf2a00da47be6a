// The server build (vite.config.ts) hands this module to `import DOMPurify
// from 'dompurify'`: DOMPurify needs a DOM, which the server has not. A
// pre-render shows the studio's HTML as its plain text (no '<' survives, so
// nothing can become markup); the browser's render, moments later, shows it
// formatted and sanitized by the real DOMPurify.
function plainText(html: string): string {
  return html
    .replace(/<(script|style|template)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>?/g, ' ')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\s+/g, ' ')
    .trim();
}

const DOMPurify = {
  sanitize: (html: string) => plainText(String(html)),
  addHook: () => undefined,
};

export default DOMPurify;
