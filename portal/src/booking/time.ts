import { useEffect, useState } from 'react';
import { studioTimeZone } from '@estudio/core';
import { useAppConfig } from '../config/AppConfigContext.tsx';

/** The studio's IANA time zone (config `timezone`). */
export function useStudioTimeZone(): string {
  return studioTimeZone(useAppConfig());
}

/** The current time, refreshed every `everyMs` so screens that depend on "now" (past classes, cancel windows) stay right. */
export function useNow(everyMs = 60_000): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(new Date()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** 'Vale, Rodri': coaches by their nick name when they have one. */
export function coachNames(instructors: readonly { name: string; last_name: string | null; nick_name: string | null }[]): string {
  return instructors.map((i) => i.nick_name?.trim() || [i.name, i.last_name].filter(Boolean).join(' ')).join(', ');
}
