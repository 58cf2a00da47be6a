// The one part of jsdom's API the server's DOMPurify uses (src/ssr/dompurify.ts); jsdom ships no types of its own.
declare module 'jsdom' {
  export class JSDOM {
    constructor(html?: string);
    readonly window: Window & typeof globalThis;
  }
}
