import { texts } from '@estudio/core';
import classes from './SkipLink.module.css';

const contentId = 'contenido';

/** Spread on the page's `<main>`: where the skip link goes; it takes the focus (tabIndex -1) without showing a ring. */
export const skipTarget = { id: contentId, tabIndex: -1 } as const;

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
