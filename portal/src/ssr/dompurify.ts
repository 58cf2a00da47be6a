import { JSDOM } from 'jsdom';
import createDOMPurify from 'dompurify';

// The server build (vite.config.ts) hands this module to `import DOMPurify
// from 'dompurify'`. DOMPurify needs a DOM, which the server has not: it gets
// one window of jsdom, the setup DOMPurify documents for running on a server.
// So a pre-rendered page carries the studio's HTML formatted and sanitized by
// the same DOMPurify, with the same options, as the browser's: it reads the
// same before the app starts as after, and on the landing the app may not
// start at all until the visitor reaches for it (decision 054).
const { window } = new JSDOM('');
const DOMPurify = createDOMPurify(window);

export default DOMPurify;
