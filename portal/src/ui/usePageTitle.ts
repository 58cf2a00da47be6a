import { useContext, useEffect } from 'react';
import { useAppConfig } from '../config/AppConfigContext.tsx';
import { PageTitleSink } from '../ssr/render-context.ts';

/** 'Mis Reservaciones · Estudio Demo': the page first, so a row of tabs tells them apart. */
export function pageTitle(page: string | null | undefined, studio: string): string {
  const name = page?.trim();
  return name ? `${name} · ${studio}` : studio;
}

/**
 * The browser tab's title for the page on screen (every tab read
 * 'Estudio Demo'). Each page names itself; leaving it gives the tab back the
 * studio's name, so a page without a title never keeps the last one's.
 * Without a title yet (the data is loading) the tab shows the studio alone.
 * A pre-rendered page carries its title from the server.
 */
export function usePageTitle(page: string | null | undefined): void {
  const studio = useAppConfig().business_name;
  // On the server, the title goes into the page itself (effects do not run there).
  useContext(PageTitleSink)?.(pageTitle(page, studio));
  useEffect(() => {
    document.title = pageTitle(page, studio);
    return () => {
      document.title = studio;
    };
  }, [page, studio]);
}
