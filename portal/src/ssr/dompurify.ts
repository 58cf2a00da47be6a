import { plainText } from './plain-text.ts';

// The server build (vite.config.ts) hands this module to `import DOMPurify
// from 'dompurify'`: DOMPurify needs a DOM, which the server has not. A
// pre-render shows the studio's HTML as its plain text (no '<' survives, so
// nothing can become markup); the browser's render, moments later, shows it
// formatted and sanitized by the real DOMPurify.
const DOMPurify = {
  sanitize: (html: string) => plainText(String(html)),
  addHook: () => undefined,
};

export default DOMPurify;
