import { texts } from '@estudio/core';
import classes from './SkipLink.module.css';

/** Where the skip link goes: the page's `<main>`, which takes the focus (tabIndex -1) without showing a ring. */
export const contentId = 'contenido';

/**
 * The first thing the Tab key reaches on a page: hidden until focused, it
 * jumps past the header and its menu to the page. A plain fragment link, so it
 * works on a pre-rendered page before (or without) the app.
 */
export function SkipLink() {
  return (
    <a href={`#${contentId}`} className={classes.skipLink}>
      {texts.shell.skipToContent}
    </a>
  );
}
