import { useContext, useEffect, useState } from 'react';
import { studioTimeZone } from '@estudio/core';
import { useAppConfig } from '../config/AppConfigContext.tsx';
import { RenderedAt, useHydrating } from '../ssr/render-context.ts';

/** The studio's IANA time zone (config `timezone`). */
export function useStudioTimeZone(): string {
  return studioTimeZone(useAppConfig());
}

/**
 * The current time, refreshed every `everyMs` so screens that depend on "now" (past classes, cancel windows) stay right.
 * A pre-render and the browser's hydration of it use the instant the server rendered the page at (a cached page can be
 * seconds old), and the browser's clock from the next render on (decision 043).
 */
export function useNow(everyMs = 60_000): Date {
  const renderedAt = useContext(RenderedAt);
  const hydrating = useHydrating();
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return hydrating && renderedAt ? renderedAt : now;
}

/** 'Vale, Rodri': coaches by their nick name when they have one. */
export function coachNames(instructors: readonly { name: string; last_name: string | null; nick_name: string | null }[]): string {
  return instructors.map((i) => i.nick_name?.trim() || [i.name, i.last_name].filter(Boolean).join(' ')).join(', ');
}
